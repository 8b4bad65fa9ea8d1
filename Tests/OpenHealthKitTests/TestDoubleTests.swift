import Foundation
import Synchronization
import Testing
@testable import OpenHealthKit

/// Test doubles subclass HKHealthStore, as with HealthKit, where a method's completion-handler and `async` forms are one
/// Objective-C method: overriding either form is reached from both, and a double that calls `super` runs once.
@Suite("HKHealthStore test doubles")
struct TestDoubleTests {
    /// Records what reached it, then (for the spies) lets the real store do it.
    final class Calls: Sendable {
        let names = Mutex<[String]>([])
        func add(_ name: String) { names.withLock { $0.append(name) } }
        var all: [String] { names.withLock { $0 } }
    }

    final class CompletionDouble: HKHealthStore, @unchecked Sendable {
        let calls = Calls()
        override func save(_ object: HKObject, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
            calls.add("completion")
            completion(true, nil)
        }
    }

    final class AsyncDouble: HKHealthStore, @unchecked Sendable {
        let calls = Calls()
        override func save(_ object: HKObject) async throws { calls.add("async") }
        override func requestAuthorization(toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>) async throws {
            calls.add("authorization")
        }
    }

    final class CompletionSpy: HKHealthStore, @unchecked Sendable {
        let calls = Calls()
        override func save(_ object: HKObject, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
            calls.add("completion")
            super.save(object, withCompletion: completion)
        }
    }

    final class AsyncSpy: HKHealthStore, @unchecked Sendable {
        let calls = Calls()
        override func save(_ object: HKObject) async throws {
            calls.add("async")
            try await super.save(object)
        }
    }

    func walk() -> HKQuantitySample {
        HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: 100), start: now, end: now.addingTimeInterval(60))
    }

    func saveWithCompletion(_ store: HKHealthStore, _ object: HKObject) async -> Bool {
        await withCheckedContinuation { done in store.save(object) { ok, _ in done.resume(returning: ok) } }
    }

    @Test func overridingTheCompletionFormIsReachedFromAsyncCallers() async throws {
        let double = CompletionDouble()
        try await double.save(walk())
        #expect(await saveWithCompletion(double, walk()))
        #expect(double.calls.all == ["completion", "completion"])
    }

    @Test func overridingTheAsyncFormIsReachedFromCompletionCallers() async throws {
        let double = AsyncDouble()
        #expect(await saveWithCompletion(double, walk()))
        let granted: Bool = await withCheckedContinuation { done in
            double.requestAuthorization(toShare: [steps], read: [steps]) { ok, _ in done.resume(returning: ok) }
        }
        #expect(granted && double.calls.all == ["async", "authorization"])
    }

    @Test func spiesCallingSuperRunOnceAndTheStoreSaves() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-spy-\(UUID().uuidString)")
        let configuration = HKHealthStore.Configuration(storeDirectory: folder, app: .stepsApp, presenter: ScriptedPresenter(.allowAll))
        let completionSpy = CompletionSpy(configuration: configuration), asyncSpy = AsyncSpy(configuration: configuration)
        try await completionSpy.requestAuthorization(toShare: [steps], read: [steps])
        try await completionSpy.save(walk())
        #expect(await saveWithCompletion(completionSpy, walk()))
        try await asyncSpy.save(walk())
        #expect(await saveWithCompletion(asyncSpy, walk()))
        #expect(completionSpy.calls.all == ["completion", "completion"] && asyncSpy.calls.all == ["async", "async"])
        #expect(try completionSpy.sampleStore().samples(ofType: steps, visibleTo: AppManifest.stepsApp.bundleIdentifier).count == 4)
    }
}
