import Foundation
import Testing
@testable import OpenHealthKit
import TestSupport

/// Workouts tell no more than the app may read: adding samples to one, and selecting samples by one.
@Suite("Workouts are not oracles")
struct WorkoutOracleTests {
    let workoutType = HKObjectType.workoutType()
    let heartRate = HKQuantityType(.heartRate)

    func run(from start: TimeInterval) -> HKWorkout {
        HKWorkout(activityType: .running, start: day0.addingTimeInterval(start), end: day0.addingTimeInterval(start + 1800))
    }

    func beat(_ value: Double, at offset: TimeInterval) -> HKQuantitySample {
        HKQuantitySample(type: heartRate, quantity: HKQuantity(unit: HKUnit(from: "count/min"), doubleValue: value),
                         start: day0.addingTimeInterval(offset), end: day0.addingTimeInterval(offset))
    }

    func error(_ body: () async throws -> Void) async -> (HKError.Code, String)? {
        do {
            try await body()
            return nil
        } catch let error as HKError {
            return (error.code, error.message)
        } catch {
            return nil
        }
    }

    @Test func addingAnotherAppsSampleOfAnUnreadableTypeAnswersAsSavingItWould() async throws {
        let (owner, _, folder) = makeStore(.allowAll)
        try await owner.requestAuthorization(toShare: [steps], read: [steps])
        let theirs = stepsSample(100, from: 0, to: 60)
        try await owner.save(theirs)

        let (other, _, _) = makeStore(app: ErrorOracleTests.other, .allowAll, in: folder)
        try await other.requestAuthorization(toShare: [steps, workoutType], read: [])
        let person = try HealthPerson(storeDirectory: folder)
        try person.setPermission(app: ErrorOracleTests.other.bundleIdentifier, type: steps, share: true, read: false)
        let workout = run(from: 0)
        try await other.save(workout)
        let added = await error { try await other.addSamples([theirs], to: workout) }
        let saved = await error { try await other.save(theirs) }
        #expect(added != nil && added?.0 == saved?.0 && added?.1 == saved?.1, "\(String(describing: added)) / \(String(describing: saved))")

        // With read permission it could see the sample: it hears whose it is.
        try person.setPermission(app: ErrorOracleTests.other.bundleIdentifier, type: steps, share: true, read: true)
        #expect(await error { try await other.addSamples([theirs], to: workout) }?.0 == .errorAuthorizationDenied)
    }

    @Test func aWorkoutTheAppMayNotReadSelectsNothing() async throws {
        let (owner, _, folder) = makeStore(.allowAll)
        try await owner.requestAuthorization(toShare: [heartRate, workoutType], read: [heartRate, workoutType])
        let workout = run(from: 0)
        try await owner.save(workout)
        try await owner.addSamples([beat(120, at: 60), beat(130, at: 120)], to: workout)

        // May read heart rates, not workouts: the workout's UUID (held from before, or guessed) selects nothing.
        let (reader, _, _) = makeStore(app: ErrorOracleTests.other, .allowAll, in: folder)
        try await reader.requestAuthorization(toShare: [], read: [heartRate, workoutType])
        let person = try HealthPerson(storeDirectory: folder)
        try person.setPermission(app: ErrorOracleTests.other.bundleIdentifier, type: workoutType, share: false, read: false)
        let predicate = HKQuery.predicateForObjects(from: workout)
        func associated() async throws -> (samples: Int, anchored: Int, count: Double?) {
            let samples = try await HKSampleQueryDescriptor(predicates: [.quantitySample(type: heartRate, predicate: predicate)],
                                                            sortDescriptors: []).result(for: reader)
            let anchored = try await HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: heartRate, predicate: predicate)],
                                                                     anchor: nil).result(for: reader)
            let statistics = try? await HKStatisticsQueryDescriptor(predicate: .quantitySample(type: heartRate, predicate: predicate),
                                                                    options: .discreteMax).result(for: reader)
            return (samples.count, anchored.addedSamples.count, statistics?.maximumQuantity()?.doubleValue(for: HKUnit(from: "count/min")))
        }
        let hidden = try await associated()
        #expect(hidden.samples == 0 && hidden.anchored == 0 && hidden.count == nil, "\(hidden)")
        #expect(try await HKSampleQueryDescriptor(predicates: [.quantitySample(type: heartRate)], sortDescriptors: []).result(for: reader).count == 2,
                "the heart rates themselves stay readable")

        try person.setPermission(app: ErrorOracleTests.other.bundleIdentifier, type: workoutType, share: false, read: true)
        let shown = try await associated()
        #expect(shown.samples == 2 && shown.anchored == 2 && shown.count == 130, "\(shown)")
    }
}
