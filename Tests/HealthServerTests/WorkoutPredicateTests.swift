import Foundation
import HealthModel
import OpenHealthKit
import Testing
import TestSupport

private let workoutType = HKObjectType.workoutType()
private let energyType = HKQuantityType(.activeEnergyBurned)
private let steps = HKQuantityType(.stepCount)
private let heartRate = HKQuantityType(.heartRate)
private let now = Date(timeIntervalSinceReferenceDate: 800_000_000)

/// A store of the session whose app may write and read workouts, steps, heart rate and active energy.
private func workoutStore(_ session: AppSession, app: AppManifest = .steps) async throws -> HKHealthStore {
    let store = try await session.app(app, answering: .allowAll)
    let types: Set<HKSampleType> = [workoutType, steps, heartRate, energyType]
    try await store.requestAuthorization(toShare: types, read: types)
    return store
}

private func uuids(_ store: HKHealthStore, _ type: HKSampleType, _ predicate: NSPredicate) async throws -> Set<UUID> {
    Set(try await run(store, type: type, predicate: predicate).map(\.uuid))
}

/// An activity of `kind` from `start` for `minutes`, with `kcal` of active energy when given.
private func activity(_ kind: HKWorkoutActivityType, start: Double, minutes: Double, kcal: Double? = nil) -> HKWorkoutActivity {
    let configuration = HKWorkoutConfiguration()
    configuration.activityType = kind
    let from = now.addingTimeInterval(start * 60), to = from.addingTimeInterval(minutes * 60)
    var statistics: [HKQuantityType: HKStatistics] = [:]
    if let kcal {
        statistics[energyType] = HKStatistics(quantityType: energyType, startDate: from, endDate: to,
                                              merged: .init(sum: HKQuantity(unit: .kilocalorie(), doubleValue: kcal)))
    }
    return HKWorkoutActivity(configuration: configuration, start: from, end: to, events: [], statistics: statistics, metadata: nil)
}

private func multisport(_ activities: [HKWorkoutActivity]) -> HKWorkout {
    HKWorkout(activityType: .swimBikeRun, start: activities.first!.startDate, end: activities.last!.endDate!,
              duration: activities.last!.endDate!.timeIntervalSince(activities.first!.startDate),
              events: nil, activities: activities, statistics: [:], metadata: nil, device: nil)
}

/// Samples added to workouts and the predicates that find them, workout activity predicates and legacy totals, on both
/// backends (through the daemon, `addSamples(_:to:)` is one atomic call and the predicates travel as compiled filters).
@Suite("Workout association and activity predicates, embedded and through the daemon")
struct WorkoutPredicateTests {
    @Test(arguments: Backend.allCases) @available(*, deprecated)
    func samplesAddedToAWorkoutAreSavedAndFoundByTheWorkoutPredicate(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await workoutStore(session)
            let workout = HKWorkout(activityType: .running, start: now, end: now.addingTimeInterval(1800))
            let other = HKWorkout(activityType: .walking, start: now.addingTimeInterval(3600), end: now.addingTimeInterval(4000))
            try await store.save([workout, other])
            let alreadySaved = HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: 900), start: now, end: now.addingTimeInterval(600))
            try await store.save(alreadySaved)
            let new = HKQuantitySample(type: heartRate, quantity: HKQuantity(unit: .count().unitDivided(by: .minute()), doubleValue: 150),
                                       start: now.addingTimeInterval(60), end: now.addingTimeInterval(60))
            let unrelated = HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: 5), start: now, end: now.addingTimeInterval(60))
            try await store.save(unrelated)

            try await store.addSamples([alreadySaved, new], to: workout)
            #expect(try await uuids(store, steps, HKQuery.predicateForObjects(from: workout)) == [alreadySaved.uuid])
            #expect(try await uuids(store, heartRate, HKQuery.predicateForObjects(from: workout)) == [new.uuid], "the new sample was saved too")
            #expect(try await uuids(store, steps, HKQuery.predicateForObjects(from: other)).isEmpty)
            let notInRun = NSCompoundPredicate(notPredicateWithSubpredicate: HKQuery.predicateForObjects(from: workout))
            #expect(try await uuids(store, steps, notInRun) == [unrelated.uuid])

            // Deleting the workout drops the links, not the samples.
            try await store.delete(workout)
            #expect(try await uuids(store, steps, HKQuery.predicateForObjects(from: workout)).isEmpty)
            #expect(try await run(store, type: steps).count == 2)
        }
    }

    @Test(arguments: Backend.allCases) @available(*, deprecated)
    func addingIsAllOrNothingAndOnlyForTheAppsOwnWorkoutsAndSamples(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let mine = try await workoutStore(session)
            var otherApp = AppManifest.steps
            otherApp.bundleIdentifier = "com.example.other"
            let theirs = try await workoutStore(session, app: otherApp)
            let myRun = HKWorkout(activityType: .running, start: now, end: now.addingTimeInterval(1800))
            let theirRun = HKWorkout(activityType: .running, start: now, end: now.addingTimeInterval(1800))
            try await mine.save(myRun)
            try await theirs.save(theirRun)
            let theirSteps = HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: 10), start: now, end: now)
            try await theirs.save(theirSteps)
            let fresh = HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: 20), start: now, end: now)

            func code(_ body: () async throws -> Void) async -> HKError.Code? {
                do { try await body(); return nil } catch { return (error as? HKError)?.code }
            }
            #expect(await code { try await mine.addSamples([fresh], to: theirRun) } == .errorAuthorizationDenied)
            #expect(await code { try await mine.addSamples([fresh, theirSteps], to: myRun) } == .errorAuthorizationDenied)
            let unsaved = HKWorkout(activityType: .yoga, start: now, end: now.addingTimeInterval(600))
            #expect(await code { try await mine.addSamples([fresh], to: unsaved) } == .errorInvalidArgument)
            #expect(await code { try await mine.addSamples([unsaved], to: myRun) } == .errorInvalidArgument)
            #expect(try await run(mine, type: steps).map(\.uuid) == [theirSteps.uuid], "the refused batches saved nothing")

            let done: Bool = await withCheckedContinuation { continuation in
                mine.add([fresh], to: myRun) { success, _ in continuation.resume(returning: success) }
            }
            #expect(done)
            #expect(try await uuids(mine, steps, HKQuery.predicateForObjects(from: myRun)) == [fresh.uuid])
        }
    }

    @Test(arguments: Backend.allCases)
    func workoutsAreFoundByTheirActivities(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await workoutStore(session)
            let triathlon = multisport([activity(.swimming, start: 0, minutes: 20, kcal: 200), activity(.cycling, start: 25, minutes: 60, kcal: 600),
                                        activity(.running, start: 90, minutes: 40, kcal: 450)])
            let duathlon = multisport([activity(.running, start: 300, minutes: 15, kcal: 150), activity(.cycling, start: 320, minutes: 30, kcal: 280)])
            try await store.save([triathlon, duathlon])

            func workouts(_ activityPredicate: NSPredicate) async throws -> Set<UUID> {
                try await uuids(store, workoutType, HKQuery.predicateForWorkouts(activityPredicate: activityPredicate))
            }
            #expect(try await workouts(HKQuery.predicateForWorkoutActivities(workoutActivityType: .swimming)) == [triathlon.uuid])
            #expect(try await workouts(HKQuery.predicateForWorkoutActivities(operatorType: .greaterThan, duration: 45 * 60)) == [triathlon.uuid])
            let hardRide = NSCompoundPredicate(andPredicateWithSubpredicates: [
                HKQuery.predicateForWorkoutActivities(workoutActivityType: .cycling),
                HKQuery.predicateForWorkoutActivities(operatorType: .greaterThanOrEqualTo, quantityType: energyType,
                                                      sumQuantity: HKQuantity(unit: .kilocalorie(), doubleValue: 500)),
            ])
            #expect(try await workouts(hardRide) == [triathlon.uuid])
            // One activity must satisfy the whole compound: no duathlon leg is both a run and 30 minutes long.
            let longRun = NSCompoundPredicate(andPredicateWithSubpredicates: [
                HKQuery.predicateForWorkoutActivities(workoutActivityType: .running),
                HKQuery.predicateForWorkoutActivities(operatorType: .greaterThanOrEqualTo, duration: 30 * 60),
            ])
            #expect(try await workouts(longRun) == [triathlon.uuid])
            let late = HKQuery.predicateForWorkoutActivities(start: now.addingTimeInterval(280 * 60), end: nil, options: .strictStartDate)
            #expect(try await workouts(late) == [duathlon.uuid])
            // In memory, evaluate(with:) agrees.
            let wrapped = HKQuery.predicateForWorkouts(activityPredicate: hardRide)
            #expect(wrapped.evaluate(with: triathlon) && !wrapped.evaluate(with: duathlon))
        }
    }

    @Test(arguments: Backend.allCases)
    func activityPredicatesMustBeWrappedAndHoldNothingElse(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await workoutStore(session)
            try await store.save(multisport([activity(.running, start: 0, minutes: 10)]))
            let bare = HKQuery.predicateForWorkoutActivities(workoutActivityType: .running)
            await #expect(throws: HKError.self) { try await run(store, type: workoutType, predicate: bare) }
            let mixed = NSCompoundPredicate(andPredicateWithSubpredicates: [bare, HKQuery.predicateForSamples(withStart: now, end: nil)])
            await #expect(throws: HKError.self) { try await run(store, type: workoutType, predicate: HKQuery.predicateForWorkouts(activityPredicate: mixed)) }
            let wrongUnit = HKQuery.predicateForWorkoutActivities(operatorType: .greaterThan, quantityType: energyType,
                                                                  sumQuantity: HKQuantity(unit: .meter(), doubleValue: 1))
            await #expect(throws: HKError.self) {
                try await run(store, type: workoutType, predicate: HKQuery.predicateForWorkouts(activityPredicate: wrongUnit))
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func legacyTotalsFindWorkoutsBySwimmingStrokesAndFlightsClimbed(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await workoutStore(session)
            let strokes = HKQuantityType(.swimmingStrokeCount)
            let swim = HKWorkout(activityType: .swimming, start: now, end: now.addingTimeInterval(1800), duration: 1800, events: nil, activities: [],
                                 statistics: [strokes: HKStatistics(quantityType: strokes, startDate: now, endDate: now.addingTimeInterval(1800),
                                                                    merged: .init(sum: HKQuantity(unit: .count(), doubleValue: 640)))],
                                 metadata: nil, device: nil)
            try await store.save([swim, HKWorkout(activityType: .swimming, start: now, end: now.addingTimeInterval(600))])
            let many = HKQuery.predicateForWorkouts(with: .greaterThan, totalSwimmingStrokeCount: HKQuantity(unit: .count(), doubleValue: 500))
            #expect(try await uuids(store, workoutType, many) == [swim.uuid])
            let climbed = HKQuery.predicateForWorkouts(with: .greaterThan, totalFlightsClimbed: HKQuantity(unit: .count(), doubleValue: 0))
            #expect(try await uuids(store, workoutType, climbed).isEmpty)
        }
    }
}
