import Foundation
import OpenHealthKit
import Testing
import TestSupport

private let heartRate = HKQuantityType(.heartRate)

/// Comparison predicates (`predicateForQuantitySamples(with:quantity:)`, category values, metadata, workouts' duration,
/// energy and distance) on both backends: through the daemon they travel as the compiled filter's JSON.
@Suite("Comparison predicates, embedded and through the daemon")
struct ComparisonPredicateTests {
    @Test(arguments: Backend.allCases)
    func quantitiesCompareInAnyCompatibleUnit(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.authorizedStepsStore()
            let bpm = HKUnit.count().unitDivided(by: .minute())
            try await store.save([60.0, 90, 130].map {
                HKQuantitySample(type: heartRate, quantity: HKQuantity(unit: bpm, doubleValue: $0), start: day0, end: day0)
            })
            let fast = HKQuery.predicateForQuantitySamples(with: .greaterThan, quantity: HKQuantity(unit: .hertz(), doubleValue: 1.5))
            #expect(try await run(store, type: heartRate, predicate: fast).map { value(($0 as! HKQuantitySample).quantity, bpm) } == [130])
            let exactly = HKQuery.predicateForQuantitySamples(with: .equalTo, quantity: HKQuantity(unit: bpm, doubleValue: 90))
            #expect(try await run(store, type: heartRate, predicate: exactly).count == 1)
            let grams = HKQuery.predicateForQuantitySamples(with: .greaterThan, quantity: HKQuantity(unit: .gram(), doubleValue: 0))
            #expect(try await run(store, type: heartRate, predicate: grams).isEmpty, "an incompatible unit matches nothing")
            let like = HKQuery.predicateForQuantitySamples(with: .like, quantity: HKQuantity(unit: bpm, doubleValue: 90))
            await #expect(throws: HKError(.errorInvalidArgument)) { _ = try await run(store, type: heartRate, predicate: like) }
        }
    }

    @Test(arguments: Backend.allCases)
    func categoryValuesAndMetadataCompare(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let sleep = HKCategoryType(.sleepAnalysis)
            let store = try await session.app(.steps, answering: .allowAll)
            try await store.requestAuthorization(toShare: [sleep], read: [sleep])
            try await store.save([HKCategoryValueSleepAnalysis.inBed, .asleepCore, .asleepDeep].enumerated().map { i, stage in
                HKCategorySample(type: sleep, value: stage.rawValue, start: day0, end: day0.addingTimeInterval(60),
                                 metadata: ["minutes": i * 10, "label": "night \(i)"])
            })
            let asleep = HKQuery.predicateForCategorySamples(with: .greaterThanOrEqualTo, value: HKCategoryValueSleepAnalysis.asleepCore.rawValue)
            #expect(try await run(store, type: sleep, predicate: asleep).count == 2)
            let typedAsleep = HKCategoryValueSleepAnalysis.predicateForSamples(equalTo: HKCategoryValueSleepAnalysis.allAsleepValues)
            #expect(try await run(store, type: sleep, predicate: typedAsleep).count == 2)
            let deep = HKCategoryValueSleepAnalysis.predicateForSamples(.equalTo, value: .asleepDeep)
            #expect(try await run(store, type: sleep, predicate: deep).count == 1)
            #expect(try await run(store, type: sleep, predicate: HKCategoryValueSleepAnalysis.predicateForSamples(equalTo: [])).isEmpty)
            let long = HKQuery.predicateForObjects(withMetadataKey: "minutes", operatorType: .greaterThan, value: 5)
            #expect(try await run(store, type: sleep, predicate: long).count == 2)
            let early = HKQuery.predicateForObjects(withMetadataKey: "label", operatorType: .lessThan, value: "night 1")
            #expect(try await run(store, type: sleep, predicate: early).count == 1)
        }
    }

    @Test(arguments: Backend.allCases)
    func workoutsByDurationEnergyAndDistance(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let workoutType = HKObjectType.workoutType()
            let store = try await session.app(.steps, answering: .allowAll)
            try await store.requestAuthorization(toShare: [workoutType], read: [workoutType])
            try await store.save([
                HKWorkout(activityType: .running, start: day0, end: day0.addingTimeInterval(1800), duration: 1800,
                          totalEnergyBurned: HKQuantity(unit: .kilocalorie(), doubleValue: 300),
                          totalDistance: HKQuantity(unit: .mile(), doubleValue: 3), metadata: nil),
                HKWorkout(activityType: .cycling, start: day0, end: day0.addingTimeInterval(3600), duration: 3600,
                          totalEnergyBurned: HKQuantity(unit: .kilocalorie(), doubleValue: 500),
                          totalDistance: HKQuantity(unit: .meterUnit(with: .kilo), doubleValue: 20), metadata: nil),
            ])
            let hour = HKQuery.predicateForWorkouts(with: .greaterThanOrEqualTo, duration: 3600)
            #expect(try await run(store, type: workoutType, predicate: hour).map { ($0 as! HKWorkout).workoutActivityType } == [.cycling])
            let energy = HKQuery.predicateForWorkouts(with: .lessThan, totalEnergyBurned: HKQuantity(unit: .jouleUnit(with: .kilo), doubleValue: 1500))
            #expect(try await run(store, type: workoutType, predicate: energy).map { ($0 as! HKWorkout).workoutActivityType } == [.running])
            let far = HKQuery.predicateForWorkouts(with: .greaterThan, totalDistance: HKQuantity(unit: .meterUnit(with: .kilo), doubleValue: 4.5))
            #expect(try await run(store, type: workoutType, predicate: far).count == 2, "3 mi is 4.83 km")
            let both = NSCompoundPredicate(andPredicateWithSubpredicates: [far, HKQuery.predicateForWorkouts(with: .running)])
            #expect(try await run(store, type: workoutType, predicate: both).count == 1)
        }
    }
}
