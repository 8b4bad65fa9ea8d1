import Foundation
import Synchronization
import Testing
@testable import OpenHealthKit

/// The smaller corners of HKHealthStore's API real code still calls: the deprecated date of birth, the integer-anchor
/// query, the preferences notification and the extension authorization hand-off.
@Suite("HKHealthStore's smaller API")
struct HealthStoreSmallAPITests {
    @Test @available(*, deprecated) func dateOfBirthIsTheStartOfThatDayOrNoData() async throws {
        let (store, _, folder) = makeStore(.allowAll)
        let birth = HKObjectType.characteristicType(forIdentifier: .dateOfBirth)!
        try await store.requestAuthorization(toShare: [], read: [birth])
        #expect(throws: HKError(.errorNoData)) { try store.dateOfBirth() }
        try HealthPerson(storeDirectory: folder).setDateOfBirth(DateComponents(year: 1990, month: 5, day: 17))
        let date = try store.dateOfBirth()
        #expect(Calendar(identifier: .gregorian).dateComponents([.year, .month, .day, .hour], from: date)
                == DateComponents(year: 1990, month: 5, day: 17, hour: 0))
    }

    @Test @available(*, deprecated) func theIntegerAnchorQueryReturnsOnlyWhatWasAddedSinceItsAnchor() async throws {
        let (store, _, _) = makeStore(.allowAll)
        try await store.requestAuthorization(toShare: [steps], read: [steps])
        func walk(_ count: Double, _ offset: TimeInterval) -> HKQuantitySample {
            HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: count),
                             start: now.addingTimeInterval(offset), end: now.addingTimeInterval(offset + 60))
        }
        func run(from anchor: Int) async -> ([Double], Int) {
            await withCheckedContinuation { done in
                store.execute(HKAnchoredObjectQuery(type: steps, predicate: nil, anchor: anchor, limit: HKObjectQueryNoLimit) { _, samples, next, _ in
                    done.resume(returning: ((samples ?? []).map { ($0 as! HKQuantitySample).quantity.doubleValue(for: .count()) }, next))
                })
            }
        }
        try await store.save([walk(100, 0), walk(200, 60)])
        let (first, anchor) = await run(from: Int(HKAnchoredObjectQueryNoAnchor))
        #expect(first.sorted() == [100, 200] && anchor > 0)
        try await store.save(walk(300, 120))
        let (second, later) = await run(from: anchor)
        // Integer anchors are opaque (a keyed permutation of the store's position, so that they count no other app's
        // rows): a later anchor differs, but is not necessarily larger.
        #expect(second == [300] && later != anchor)
        let (none, same) = await run(from: later)
        #expect(none.isEmpty && same == later)
    }

    @Test func eachOpenStorePostsHKUserPreferencesDidChangeWhenThePersonChangesAUnit() async throws {
        let (store, _, folder) = makeStore(.allowAll)
        let (other, _, _) = makeStore(.allowAll)  // another folder: not told
        let person = try HealthPerson(storeDirectory: folder)
        let posted = Mutex(0), elsewhere = Mutex(0)
        let observer = NotificationCenter.default.addObserver(forName: .HKUserPreferencesDidChange, object: store, queue: nil) { _ in
            posted.withLock { $0 += 1 }
        }
        let otherObserver = NotificationCenter.default.addObserver(forName: .HKUserPreferencesDidChange, object: other, queue: nil) { _ in
            elsewhere.withLock { $0 += 1 }
        }
        defer {
            NotificationCenter.default.removeObserver(observer)
            NotificationCenter.default.removeObserver(otherObserver)
        }
        let messages = await MainActor.run { MessageCounter(store) }
        try person.setPreferredUnit(.pound(), for: HKQuantityType(.bodyMass))
        #expect(posted.withLock { $0 } == 1 && elsewhere.withLock { $0 } == 0)
        #expect(Notification.Name.HKUserPreferencesDidChange.rawValue == HKUserPreferencesDidChangeNotification)
        for _ in 0..<100 where await MainActor.run(body: { messages.count }) == 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(await MainActor.run { messages.count } == 1)
    }

    /// Counts HKUserPreferencesDidChangeMessages for one store, on the main actor.
    @MainActor final class MessageCounter {
        var count = 0
        var token: NotificationCenter.ObservationToken?
        init(_ store: HKHealthStore) {
            token = NotificationCenter.default.addObserver(of: store, for: .userPreferencesDidChange) { [unowned self] _ in self.count += 1 }
        }
    }

    @Test func handlingAnExtensionsAuthorizationCompletesWithSuccess() async throws {
        let (store, _, _) = makeStore(.denyAll)
        try await store.handleAuthorizationForExtension()
        let result: (Bool, (any Error)?) = await withCheckedContinuation { done in
            store.handleAuthorizationForExtension { ok, error in done.resume(returning: (ok, error)) }
        }
        #expect(result.0 && result.1 == nil)
    }

    @Test func recalibratingEstimatesChecksTheTypeAndTheSharePermission() async throws {
        let (store, _, _) = makeStore(.allowAll)
        let walk = HKQuantityType(.sixMinuteWalkTestDistance)
        await #expect(throws: HKError(.errorAuthorizationNotDetermined)) { try await store.recalibrateEstimates(sampleType: walk, date: now) }
        try await store.requestAuthorization(toShare: [walk, steps], read: [])
        try await store.recalibrateEstimates(sampleType: walk, date: now)
        await #expect(throws: HKError(.errorInvalidArgument)) { try await store.recalibrateEstimates(sampleType: steps, date: now) }
        let (denied, _, _) = makeStore(.denyAll)
        try await denied.requestAuthorization(toShare: [walk], read: [])
        await #expect(throws: HKError(.errorAuthorizationDenied)) { try await denied.recalibrateEstimates(sampleType: walk, date: now) }
    }

    @Test @available(*, deprecated) func whatThisPlatformCannotDoFailsSayingWhy() async throws {
        let (store, _, _) = makeStore(.allowAll)
        do {
            try await store.startWatchApp(toHandle: HKWorkoutConfiguration())
            Issue.record("a watch app started")
        } catch let error as HKError {
            #expect(error.code == .errorHealthDataUnavailable && error.message.contains("Apple Watch"))
        }
        let split: (HKQuantity?, HKQuantity?, (any Error)?) = await withCheckedContinuation { done in
            store.splitTotalEnergy(HKQuantity(unit: .kilocalorie(), doubleValue: 500), start: now, end: now.addingTimeInterval(600)) {
                done.resume(returning: ($0, $1, $2))
            }
        }
        #expect(split.0 == nil && split.1 == nil && (split.2 as? HKError)?.code == .errorInvalidArgument)
    }
}

@Suite("HKSource.default()")
struct DefaultSourceTests {
    @Test func theDefaultSourceIsTheAppTheManifestNamesAndMatchesWhatItSaves() async throws {
        let manifest = FileManager.default.temporaryDirectory.appendingPathComponent("app-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: manifest) }
        try Data(#"{"CFBundleIdentifier": "com.example.steps", "CFBundleName": "Steps"}"#.utf8).write(to: manifest)
        let source = HKSource.appSource(["OPENHEALTHKIT_APP": manifest.path])
        #expect(source.bundleIdentifier == "com.example.steps" && source.name == "Steps")

        let (store, _, _) = makeStore(.allowAll)  // the steps app
        try await store.requestAuthorization(toShare: [steps], read: [steps])
        try await store.save(HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: 5), start: now, end: now))
        let mine = try await HKSampleQueryDescriptor(
            predicates: [.quantitySample(type: steps, predicate: HKQuery.predicateForObjects(from: source))], sortDescriptors: [])
            .result(for: store)
        #expect(mine.count == 1 && mine.first?.sourceRevision.source == source)
        #expect(HKSource.appSource(["OPENHEALTHKIT_APP": "/nonexistent.json"]).name == ProcessInfo.processInfo.processName)
    }
}
