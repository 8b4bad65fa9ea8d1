import Foundation
import HealthModel
import OpenHealthKit
import Testing
import TestSupport

private let workoutType = HKObjectType.workoutType()
private let effort = HKQuantityType(.workoutEffortScore)
private let estimated = HKQuantityType(.estimatedWorkoutEffortScore)
private let heartRate = HKQuantityType(.heartRate)
private let start = Date(timeIntervalSinceReferenceDate: 800_000_000)

private func score(_ value: Double, type: HKQuantityType = effort) -> HKQuantitySample {
    HKQuantitySample(type: type, quantity: HKQuantity(unit: .appleEffortScore(), doubleValue: value), start: start, end: start.addingTimeInterval(3600))
}

private func leg(_ kind: HKWorkoutActivityType, minutes: Double, from offset: Double) -> HKWorkoutActivity {
    let configuration = HKWorkoutConfiguration()
    configuration.activityType = kind
    let from = start.addingTimeInterval(offset * 60)
    return HKWorkoutActivity(configuration: configuration, start: from, end: from.addingTimeInterval(minutes * 60), events: [], statistics: [:], metadata: nil)
}

private func duathlon() -> HKWorkout {
    HKWorkout(activityType: .swimBikeRun, start: start, end: start.addingTimeInterval(3600), duration: 3600, events: nil,
              activities: [leg(.running, minutes: 20, from: 0), leg(.cycling, minutes: 40, from: 20)], statistics: [:], metadata: nil, device: nil)
}

private func effortStore(_ session: AppSession, app: AppManifest = .steps) async throws -> HKHealthStore {
    let store = try await session.app(app, answering: .allowAll)
    let types: Set<HKSampleType> = [workoutType, effort, estimated, heartRate]
    try await store.requestAuthorization(toShare: types, read: types)
    return store
}

private func values(_ store: HKHealthStore, _ type: HKQuantityType = effort, _ predicate: NSPredicate?) async throws -> [Double] {
    try await run(store, type: type, predicate: predicate).map { ($0 as! HKQuantitySample).quantity.doubleValue(for: .appleEffortScore()) }.sorted()
}

private func failure(_ body: () async throws -> Bool) async -> HKError? {
    do { _ = try await body(); return nil } catch let error as HKError { return error } catch { return nil }
}

/// Workout effort (iOS 18) on both backends: a score is saved by relating it to its workout, found by
/// `predicateForWorkoutEffortSamplesRelated`, unrelated again, and checked as HealthKit checks it.
@Suite("Workout effort, on both backends")
struct WorkoutEffortTests {
    @Test(arguments: Backend.allCases)
    func aScoreIsSavedByRelatingItToItsWorkoutAndFoundByThePredicate(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await effortStore(session)
            let workout = duathlon()
            try await store.save(workout)
            let rating = score(7)
            // As in HealthKit, `save` refuses an effort score: relating it is what saves it.
            let refused = await failure { try await store.save(rating); return true }
            #expect(refused?.code == .errorInvalidArgument && refused?.message.contains("relateWorkoutEffortSample") == true, "\(String(describing: refused))")
            // Nor does adding it to the workout as one of its samples.
            let added = await failure { try await store.addSamples([rating], to: workout); return true }
            #expect(added?.code == .errorInvalidArgument && added?.message.contains("relateWorkoutEffortSample") == true, "\(String(describing: added))")
            #expect(try await store.relateWorkoutEffortSample(rating, with: workout, activity: nil))
            #expect(try await values(store, effort, HKQuery.predicateForWorkoutEffortSamplesRelated(workout: workout, activity: nil)) == [7])
            // Not an association of `add(_:to:)`: the workout's objects do not include it.
            #expect(try await values(store, effort, HKQuery.predicateForObjects(from: workout)) == [])
            // Relating it again to the same workout changes nothing.
            #expect(try await store.relateWorkoutEffortSample(rating, with: workout, activity: nil))
            #expect(try await values(store, effort, nil) == [7])

            #expect(try await store.unrelateWorkoutEffortSample(rating, from: workout, activity: nil))
            #expect(try await values(store, effort, HKQuery.predicateForWorkoutEffortSamplesRelated(workout: workout, activity: nil)) == [])
            #expect(try await values(store, effort, nil) == [7], "unrelating keeps the sample")
            let again = await failure { try await store.unrelateWorkoutEffortSample(rating, from: workout, activity: nil) }
            #expect(again?.code == .errorInvalidArgument)
        }
    }

    @Test(arguments: Backend.allCases)
    func aScoreRatesOneActivityOfAWorkout(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await effortStore(session)
            let workout = duathlon()
            try await store.save(workout)
            let (run, ride) = (workout.workoutActivities[0], workout.workoutActivities[1])
            // The completion-handler forms, off the caller's thread.
            let related: Bool = await withCheckedContinuation { done in
                store.relateWorkoutEffortSample(score(5), with: workout, activity: run) { ok, _ in done.resume(returning: ok) }
            }
            #expect(related)
            #expect(try await store.relateWorkoutEffortSample(score(8, type: estimated), with: workout, activity: ride))
            #expect(try await values(store, effort, HKQuery.predicateForWorkoutEffortSamplesRelated(workout: workout, activity: run)) == [5])
            #expect(try await values(store, effort, HKQuery.predicateForWorkoutEffortSamplesRelated(workout: workout, activity: ride)) == [])
            #expect(try await values(store, estimated, HKQuery.predicateForWorkoutEffortSamplesRelated(workout: workout, activity: ride)) == [8])
            // Without an activity: every score of the workout.
            #expect(try await values(store, effort, HKQuery.predicateForWorkoutEffortSamplesRelated(workout: workout, activity: nil)) == [5])
            let elsewhere = leg(.rowing, minutes: 5, from: 0)
            let notItsActivity = await failure { try await store.relateWorkoutEffortSample(score(3), with: workout, activity: elsewhere) }
            #expect(notItsActivity?.code == .errorInvalidArgument && notItsActivity?.message.contains("has no activity") == true)
        }
    }

    @Test(arguments: Backend.allCases)
    func onlyAnEffortScoreFromZeroToTenRatesAWorkout(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await effortStore(session)
            let workout = HKWorkout(activityType: .running, start: start, end: start.addingTimeInterval(1800))
            try await store.save(workout)
            let tooHigh = await failure { try await store.relateWorkoutEffortSample(score(11), with: workout, activity: nil) }
            #expect(tooHigh?.code == .errorInvalidArgument && tooHigh?.message.contains("from 0 to 10") == true, "\(String(describing: tooHigh))")
            let pulse = HKQuantitySample(type: heartRate, quantity: HKQuantity(unit: .count().unitDivided(by: .minute()), doubleValue: 150), start: start, end: start)
            let notEffort = await failure { try await store.relateWorkoutEffortSample(pulse, with: workout, activity: nil) }
            #expect(notEffort?.code == .errorInvalidArgument && notEffort?.message.contains("rate a workout's effort") == true)
            #expect(try await values(store, effort, nil) == [], "nothing was saved")
        }
    }

    @Test(arguments: Backend.allCases)
    func anotherAppsWorkoutItMayNotReadIsAnsweredAsOneThatDoesNotExist(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let owner = try await effortStore(session, app: .other)
            let theirs = HKWorkout(activityType: .running, start: start, end: start.addingTimeInterval(1800))
            try await owner.save(theirs)
            // This app may write effort scores, and read them, but was denied reading workouts.
            let app = try await session.app(.steps, answering: .init(default: .allow, read: [workoutType.identifier: .deny]))
            try await app.requestAuthorization(toShare: [effort], read: [workoutType, effort])
            let hidden = await failure { try await app.relateWorkoutEffortSample(score(6), with: theirs, activity: nil) }
            let absent = await failure {
                try await app.relateWorkoutEffortSample(score(6), with: HKWorkout(activityType: .running, start: start, end: start), activity: nil)
            }
            #expect(hidden?.code == .errorInvalidArgument && absent?.code == .errorInvalidArgument)
            #expect(hidden?.message.replacingOccurrences(of: theirs.uuid.uuidString, with: "…") == absent?.message.replacing(/[0-9A-F-]{36}/, with: "…"),
                    "\(String(describing: hidden)) / \(String(describing: absent))")
            // Without share permission for the score's type, nothing is related.
            let other = try await session.app(.init(bundleIdentifier: "com.example.third", name: "Third", shareUsageDescription: "Reads.",
                                                  updateUsageDescription: "Rates your workouts."), answering: .init(default: .deny))
            try await other.requestAuthorization(toShare: [effort], read: [])
            let denied = await failure { try await other.relateWorkoutEffortSample(score(6), with: theirs, activity: nil) }
            #expect(denied?.code == .errorAuthorizationDenied, "\(String(describing: denied))")
        }
    }
}
