import Foundation
import OpenHealthKit
import Testing

private let steps = HKQuantityType(.stepCount)
private let now = Date(timeIntervalSinceReferenceDate: 800_000_000)

/// The smaller corners of HKHealthStore's API real code still calls, on both backends: the deprecated date of birth,
/// the integer-anchor query, the extension authorization hand-off, recalibrating estimates and what this platform
/// cannot do.
@Suite("HKHealthStore's smaller API, embedded and through the daemon")
struct HealthStoreSmallAPITests {
    @Test(arguments: Backend.allCases) @available(*, deprecated)
    func dateOfBirthIsTheStartOfThatDayOrNoData(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .allowAll)
            let birth = HKObjectType.characteristicType(forIdentifier: .dateOfBirth)!
            try await store.requestAuthorization(toShare: [], read: [birth])
            #expect(throws: HKError(.errorNoData)) { try store.dateOfBirth() }
            try session.person().setDateOfBirth(DateComponents(year: 1990, month: 5, day: 17))
            let date = try store.dateOfBirth()
            #expect(Calendar(identifier: .gregorian).dateComponents([.year, .month, .day, .hour], from: date)
                    == DateComponents(year: 1990, month: 5, day: 17, hour: 0))
        }
    }

    @Test(arguments: Backend.allCases) @available(*, deprecated)
    func theIntegerAnchorQueryReturnsOnlyWhatWasAddedSinceItsAnchor(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .allowAll)
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
    }

    @Test(arguments: Backend.allCases)
    func handlingAnExtensionsAuthorizationCompletesWithSuccess(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .denyAll)
            try await store.handleAuthorizationForExtension()
            let result: (Bool, (any Error)?) = await withCheckedContinuation { done in
                store.handleAuthorizationForExtension { ok, error in done.resume(returning: (ok, error)) }
            }
            #expect(result.0 && result.1 == nil)
        }
    }

    @Test(arguments: Backend.allCases)
    func recalibratingEstimatesChecksTheTypeAndTheSharePermission(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .allowAll)
            let walk = HKQuantityType(.sixMinuteWalkTestDistance)
            await #expect(throws: HKError(.errorAuthorizationNotDetermined)) { try await store.recalibrateEstimates(sampleType: walk, date: now) }
            try await store.requestAuthorization(toShare: [walk, steps], read: [])
            try await store.recalibrateEstimates(sampleType: walk, date: now)
            await #expect(throws: HKError(.errorInvalidArgument)) { try await store.recalibrateEstimates(sampleType: steps, date: now) }
            var other = AppManifest.steps
            other.bundleIdentifier = "com.example.denied"
            let denied = try await session.app(other, answering: .denyAll)
            try await denied.requestAuthorization(toShare: [walk], read: [])
            await #expect(throws: HKError(.errorAuthorizationDenied)) { try await denied.recalibrateEstimates(sampleType: walk, date: now) }
        }
    }

    @Test(arguments: Backend.allCases) @available(*, deprecated)
    func whatThisPlatformCannotDoFailsSayingWhy(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .allowAll)
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
}
