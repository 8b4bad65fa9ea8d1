import Foundation
import HealthModel
import OpenHealthKit
import Testing

private let steps = HKQuantityType(.stepCount)
private let now = Date(timeIntervalSinceReferenceDate: 800_000_000)

/// HealthKit's workout sort identifiers, on both backends: workouts sorted by duration and by their totals, nowhere else.
@Suite("Workout sort identifiers, embedded and through the daemon")
struct WorkoutSortTests {
    func storeWithThreeRuns(_ session: AppSession) async throws -> (HKHealthStore, [HKWorkout]) {
        let store = try await session.app(.steps, answering: .allowAll)
        try await store.requestAuthorization(toShare: [HKObjectType.workoutType(), steps], read: [HKObjectType.workoutType(), steps])
        let runs = try [(1800.0, 5.0, 300.0), (3600, 12, 650), (2700, nil, 480)].enumerated().map { index, run in
            try HKWorkout.validated(
                activityType: .running, start: now.addingTimeInterval(Double(index) * 86_400),
                end: now.addingTimeInterval(Double(index) * 86_400 + run.0),
                totalEnergyBurned: HKQuantity(unit: .kilocalorie(), doubleValue: run.2),
                totalDistance: run.1.map { HKQuantity(unit: .meterUnit(with: .kilo), doubleValue: $0) })
        }
        try await store.save(runs)
        return (store, runs)
    }

    func query(_ store: HKHealthStore, _ type: HKSampleType, by descriptors: [NSSortDescriptor], limit: Int = HKObjectQueryNoLimit)
        async throws -> [HKSample]
    {
        try await withCheckedThrowingContinuation { done in
            store.execute(HKSampleQuery(sampleType: type, predicate: nil, limit: limit, sortDescriptors: descriptors) { _, samples, error in
                if let error { done.resume(throwing: error) } else { done.resume(returning: samples ?? []) }
            })
        }
    }

    @Test(arguments: Backend.allCases)
    func workoutsSortByDurationAndTotalsWithTheLimitAfterSorting(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let (store, runs) = try await storeWithThreeRuns(session)
            let longest = try await query(store, HKObjectType.workoutType(),
                                          by: [NSSortDescriptor(key: HKWorkoutSortIdentifierDuration, ascending: false)], limit: 2)
            #expect(longest.map(\.uuid) == [runs[1].uuid, runs[2].uuid])
            let byDistance = try await query(store, HKObjectType.workoutType(),
                                             by: [NSSortDescriptor(key: HKWorkoutSortIdentifierTotalDistance, ascending: true)])
            #expect(byDistance.map(\.uuid) == [runs[2].uuid, runs[0].uuid, runs[1].uuid])  // no distance first
            let byEnergy = try await query(store, HKObjectType.workoutType(),
                                           by: [NSSortDescriptor(key: HKWorkoutSortIdentifierTotalEnergyBurned, ascending: false)])
            #expect(byEnergy.map(\.uuid) == [runs[1].uuid, runs[2].uuid, runs[0].uuid])

            let described = try await HKSampleQueryDescriptor(predicates: [.workout()], sortDescriptors: [SortDescriptor(\HKWorkout.duration)])
                .result(for: store)
            #expect(described.map(\.uuid) == [runs[0].uuid, runs[2].uuid, runs[1].uuid])
        }
    }

    @Test(arguments: Backend.allCases)
    func otherSamplesCannotBeSortedByAWorkoutKey(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let (store, _) = try await storeWithThreeRuns(session)
            await #expect(throws: HKError(.errorInvalidArgument)) {
                _ = try await query(store, steps, by: [NSSortDescriptor(key: HKWorkoutSortIdentifierDuration, ascending: true)])
            }
            await #expect(throws: HKError(.errorInvalidArgument)) {
                _ = try await query(store, HKObjectType.workoutType(), by: [NSSortDescriptor(key: "totalDistance", ascending: true)])
            }
        }
    }
}
