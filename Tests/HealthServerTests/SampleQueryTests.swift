import Foundation
import OpenHealthKit
import Testing
import TestSupport

private let steps = HKQuantityType(.stepCount)
private let heartRate = HKQuantityType(.heartRate)
private let now = Date(timeIntervalSinceReferenceDate: 800_000_000)

/// `HKSampleQuery` and its descriptor as apps run them, on both backends: predicates, sort and limit, long samples
/// near a range's end, several types merged, bad arguments, the privacy rule, workouts typed.
@Suite("Sample queries, embedded and through the daemon")
struct SampleQueryTests {
    func stepSamples(at minutes: [Double]) -> [HKQuantitySample] {
        minutes.map { m in
            HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: m),
                             start: now.addingTimeInterval(m * 60), end: now.addingTimeInterval(m * 60 + 30))
        }
    }

    /// The steps app's store holding steps at minutes 1, 3 and 5 and heart rates at minutes 2 and 4.
    func stepsAndHeartRate(_ session: AppSession) async throws -> HKHealthStore {
        let store = try await session.authorizedStepsStore()
        try await store.save(stepSamples(at: [1, 3, 5]))
        let bpm = HKUnit.count().unitDivided(by: .minute())
        try await store.save([2.0, 4.0].map {
            HKQuantitySample(type: heartRate, quantity: HKQuantity(unit: bpm, doubleValue: 60 + $0),
                             start: now.addingTimeInterval($0 * 60), end: now.addingTimeInterval($0 * 60))
        })
        return store
    }

    @Test(arguments: Backend.allCases)
    func predicateSortAndLimitAreApplied(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.authorizedStepsStore()
            try await store.save(stepSamples(at: [5, 1, 4, 2, 3]))
            let newestFirst = try await run(store, type: steps, limit: 3,
                                            sort: [NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: false)])
            #expect(newestFirst.map { ($0 as! HKQuantitySample).quantity.doubleValue(for: .count()) } == [5, 4, 3])
            let inRange = try await run(store, type: steps,
                                        predicate: HKQuery.predicateForSamples(withStart: now.addingTimeInterval(120), end: now.addingTimeInterval(240),
                                                                               options: .strictStartDate),
                                        sort: [NSSortDescriptor(key: HKSampleSortIdentifierEndDate, ascending: true)])
            #expect(inRange.map { ($0 as! HKQuantitySample).quantity.doubleValue(for: .count()) } == [2, 3])
        }
    }

    @Test(arguments: Backend.allCases)
    func aLongSampleStillOverlapsARangeNearItsEnd(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            // The range bounds start dates by the type's longest sample; a 10-hour sample must still be found.
            let store = try await session.authorizedStepsStore()
            let long = HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: 1000), start: now, end: now.addingTimeInterval(36_000))
            try await store.save(long)
            try await store.save(stepSamples(at: [500, 520]))
            let late = HKQuery.predicateForSamples(withStart: now.addingTimeInterval(35_000), end: now.addingTimeInterval(40_000))
            #expect(try await run(store, type: steps, predicate: late).map(\.uuid) == [long.uuid])
            let lateEnds = HKQuery.predicateForSamples(withStart: now.addingTimeInterval(35_000), end: now.addingTimeInterval(40_000), options: .strictEndDate)
            #expect(try await run(store, type: steps, predicate: lateEnds).map(\.uuid) == [long.uuid])
        }
    }

    @Test(arguments: Backend.allCases)
    func queryDescriptorsMergeSeveralTypesIntoOneSortedLimitedList(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await stepsAndHeartRate(session)
            let notFirst = HKQuery.predicateForSamples(withStart: now.addingTimeInterval(90), end: nil, options: .strictStartDate)
            let found: [HKSample] = try await withCheckedThrowingContinuation { continuation in
                store.execute(HKSampleQuery(queryDescriptors: [HKQueryDescriptor(sampleType: steps, predicate: notFirst),
                                                               HKQueryDescriptor(sampleType: heartRate, predicate: nil)],
                                            limit: 3) { _, samples, error in
                    if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: samples ?? []) }
                })
            }
            #expect(found.map(\.startDate) == [2.0, 3, 4].map { now.addingTimeInterval($0 * 60) })
        }
    }

    @Test(arguments: Backend.allCases)
    func badSortKeysLimitsAndPredicatesAreErrors(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.authorizedStepsStore()
            await #expect(throws: HKError(.errorInvalidArgument)) {
                _ = try await run(store, type: steps, sort: [NSSortDescriptor(key: "quantity", ascending: true)])
            }
            await #expect(throws: HKError(.errorInvalidArgument)) { _ = try await run(store, type: steps, limit: -1) }
            await #expect(throws: HKError(.errorInvalidArgument)) {
                _ = try await run(store, type: steps, predicate: NSPredicate(value: true))
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func anAppDeniedReadGetsExactlyWhatAStoreOfItsOwnSamplesWouldGive(_ backend: Backend) async throws {
        // Two stores: one where another app also wrote steps, one where it did not.
        try await AppSession.with(backend) { session in
            try await AppSession.with(backend) { aloneSession in
                let denied = ScriptedPresenter.Script(default: .allow, read: [steps.identifier: .deny])
                let shared = try await session.app(.steps, answering: denied), alone = try await aloneSession.app(.steps, answering: denied)
                for store in [shared, alone] { try await store.requestAuthorization(toShare: [steps], read: [steps]) }
                let mine = stepSamples(at: [1, 2, 3])
                try await shared.save(mine)
                try await alone.save(mine.map { HKQuantitySample(type: steps, quantity: $0.quantity, start: $0.startDate, end: $0.endDate) })
                let otherStore = try await session.app(.other, answering: .allowAll)
                try await otherStore.requestAuthorization(toShare: [steps], read: [steps])
                try await otherStore.save(stepSamples(at: [0, 1.5, 10]))

                for limit in [0, 2] {
                    let a = try await run(shared, type: steps, limit: limit)
                    let b = try await run(alone, type: steps, limit: limit)
                    #expect(a.map(\.startDate) == b.map(\.startDate))
                    #expect(Set(a.map(\.sourceRevision.source.bundleIdentifier)) == ["com.example.steps"])
                }
                // The other app, allowed to read, sees everyone's.
                #expect(try await run(otherStore, type: steps).count == 6)
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func descriptorsMergeTypesSortAndLimit(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await stepsAndHeartRate(session)
            let descriptor = HKSampleQueryDescriptor(
                predicates: [.quantitySample(type: steps), .quantitySample(type: heartRate)],
                sortDescriptors: [SortDescriptor(\.startDate, order: .reverse)], limit: 3)
            let latest = try await descriptor.result(for: store)
            #expect(latest.map { $0.startDate.timeIntervalSince(now) / 60 } == [5, 4, 3])
            #expect(latest.map(\.quantityType) == [steps, heartRate, steps])

            let byUUID = HKSampleQueryDescriptor(predicates: [.quantitySample(type: steps)], sortDescriptors: [SortDescriptor(\.uuid)])
            await #expect(throws: HKError(.errorInvalidArgument)) { _ = try await byUUID.result(for: store) }
        }
    }

    @Test(arguments: Backend.allCases)
    func workoutsComeBackTypedFromTheirDescriptor(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .allowAll)
            try await store.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [HKObjectType.workoutType()])
            try await store.save(HKWorkout(activityType: .rowing, start: now, end: now.addingTimeInterval(900)))
            let workouts = try await HKSampleQueryDescriptor(predicates: [.workout(HKQuery.predicateForWorkouts(with: .rowing))],
                                                             sortDescriptors: []).result(for: store)
            #expect(workouts.map(\.workoutActivityType) == [.rowing])
        }
    }
}
