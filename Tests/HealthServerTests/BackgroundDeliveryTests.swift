import Foundation
import OpenHealthKit
import Synchronization
import Testing

private let steps = HKQuantityType(.stepCount)
private let base = Date(timeIntervalSinceReferenceDate: 800_000_000)

private func stepSample(_ count: Double, at minute: Int) -> HKQuantitySample {
    HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: count), start: base.addingTimeInterval(Double(minute) * 60),
                     end: base.addingTimeInterval(Double(minute) * 60 + 30))
}

/// What an observer's handler heard: "update" for each call, or the error.
private final class Heard: Sendable {
    private let calls = Mutex<[String]>([])

    func note(_ call: String) { calls.withLock { $0.append(call) } }

    /// The calls once there are `count` of them, or all there are after `timeout`.
    func calls(reaching count: Int, within timeout: Duration = .seconds(60)) async throws -> [String] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let now = calls.withLock { $0 }
            if now.count >= count { return now }
            try await Task.sleep(for: .milliseconds(20))
        }
        return calls.withLock { $0 }
    }
}

/// `enableBackgroundDelivery(for:frequency:)` on both backends: kept in the store, and honoured by the app's observer
/// queries, which are woken at most once per period (the daemon's observers too), until it is disabled.
@Suite("Background delivery on both backends")
struct BackgroundDeliveryTests {
    private func observe(_ store: HKHealthStore) -> (HKObserverQuery, Heard) {
        let heard = Heard()
        let query = HKObserverQuery(sampleType: steps, predicate: nil) { _, done, error in
            heard.note(error.map { "error \($0)" } ?? "update")
            done()
        }
        store.execute(query)
        return (query, heard)
    }

    @Test(.timeLimit(.minutes(3)), arguments: Backend.allCases)
    func anHourlyDeliveryWakesTheObserverOnceAnHourUntilItIsDisabled(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .allowAll)
            try await store.requestAuthorization(toShare: [steps], read: [steps])
            try await store.enableBackgroundDelivery(for: steps, frequency: .hourly)
            let (hourly, heard) = observe(store)
            #expect(try await heard.calls(reaching: 1) == ["update"], "the first call, when it starts")
            try await store.save(stepSample(5, at: 1))
            #expect(try await heard.calls(reaching: 2) == ["update", "update"], "the first change of the hour")
            try await store.save(stepSample(6, at: 2))
            #expect(try await heard.calls(reaching: 3, within: .seconds(2)).count == 2, "the next change waits for the hour to end")
            store.stop(hourly)

            // Disabled: a new observer hears every change at once.
            try await store.disableAllBackgroundDelivery()
            let (immediate, again) = observe(store)
            #expect(try await again.calls(reaching: 1).count == 1)
            try await store.save(stepSample(7, at: 3))
            #expect(try await again.calls(reaching: 2).count == 2)
            try await store.save(stepSample(8, at: 4))
            #expect(try await again.calls(reaching: 3).count == 3)
            store.stop(immediate)
        }
    }

    @Test(arguments: Backend.allCases)
    func onlySampleTypesCanBeDeliveredAndDisablingOneTypeIsKept(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .allowAll)
            let refusal = await #expect(throws: HKError.self) {
                try await store.enableBackgroundDelivery(for: HKObjectType.activitySummaryType(), frequency: .immediate)
            }
            #expect(refusal?.code == .errorInvalidArgument)
            try await store.enableBackgroundDelivery(for: steps, frequency: .weekly)
            try await store.disableBackgroundDelivery(for: steps)
            try await store.disableBackgroundDelivery(for: steps)   // twice: nothing to stop is no error, as in HealthKit
        }
    }
}
