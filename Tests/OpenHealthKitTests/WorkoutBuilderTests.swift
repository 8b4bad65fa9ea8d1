import Foundation
import Testing
@testable import HealthStore
@testable import OpenHealthKit

@Suite("HKWorkoutBuilder")
struct WorkoutBuilderTests {
    let distance = HKQuantityType(.distanceWalkingRunning)
    let energy = HKQuantityType(.activeEnergyBurned)

    func authorizedStore() async throws -> HKHealthStore {
        let (store, _, _) = makeStore(.allowAll)
        try await store.requestAuthorization(toShare: [HKObjectType.workoutType(), distance, energy, heartRate],
                                             read: [HKObjectType.workoutType(), distance, energy, heartRate])
        return store
    }

    func quantity(_ type: HKQuantityType, _ value: Double, _ unit: HKUnit, from: TimeInterval, to: TimeInterval) -> HKQuantitySample {
        HKQuantitySample(type: type, quantity: HKQuantity(unit: unit, doubleValue: value),
                         start: now.addingTimeInterval(from), end: now.addingTimeInterval(to))
    }

    func outdoorRun() -> HKWorkoutConfiguration {
        let configuration = HKWorkoutConfiguration()
        configuration.activityType = .running
        configuration.locationType = .outdoor
        return configuration
    }

    func savedWorkouts(_ store: HKHealthStore) throws -> [HKWorkout] {
        try store.sampleStore().samples(ofType: HKObjectType.workoutType(), visibleTo: AppManifest.stepsApp.bundleIdentifier)
            .compactMap { $0 as? HKWorkout }
    }

    @Test func aRunBuiltStepByStepIsSavedWithItsSamplesTotalsPausesAndMetadata() async throws {
        let store = try await authorizedStore()
        let builder = HKWorkoutBuilder(healthStore: store, configuration: outdoorRun(), device: nil)
        try await builder.beginCollection(at: now)
        let samples = [
            quantity(distance, 1200, .meter(), from: 0, to: 600), quantity(distance, 1.3, .meterUnit(with: .kilo), from: 900, to: 1500),
            quantity(energy, 90, .kilocalorie(), from: 0, to: 600), quantity(energy, 110, .kilocalorie(), from: 900, to: 1500),
            quantity(heartRate, 150, .count().unitDivided(by: .minute()), from: 300, to: 300),
            quantity(heartRate, 170, .count().unitDivided(by: .minute()), from: 1200, to: 1200),
        ]
        try await builder.addSamples(samples)
        try await builder.addWorkoutEvents([
            HKWorkoutEvent(type: .pause, dateInterval: DateInterval(start: now.addingTimeInterval(600), duration: 0), metadata: nil),
            HKWorkoutEvent(type: .resume, dateInterval: DateInterval(start: now.addingTimeInterval(900), duration: 0), metadata: nil),
        ])
        try await builder.addMetadata(["plan": "tempo"])
        #expect(builder.elapsedTime(at: now.addingTimeInterval(1000)) == 700)
        try await builder.endCollection(at: now.addingTimeInterval(1500))
        let workout = try #require(try await builder.finishWorkout())

        #expect(workout.workoutActivityType == .running)
        #expect(workout.duration == 1200)  // 25 minutes less the 5-minute pause
        #expect(workout.totalDistance?.doubleValue(for: .meter()) == 2500)
        #expect(workout.totalEnergyBurned?.doubleValue(for: .kilocalorie()) == 200)
        let pulse = try #require(workout.statistics(for: heartRate))
        #expect(pulse.minimumQuantity()?.doubleValue(for: .count().unitDivided(by: .minute())) == 150)
        #expect(pulse.maximumQuantity()?.doubleValue(for: .count().unitDivided(by: .minute())) == 170)
        #expect(workout.metadata?["plan"] as? String == "tempo")
        #expect(workout.metadata?[HKMetadataKeyIndoorWorkout] as? Bool == false)

        let saved = try #require(try savedWorkouts(store).first)
        #expect(saved.uuid == workout.uuid && saved.totalDistance == workout.totalDistance && saved.duration == 1200)
        let associated = try store.sampleStore().samples(
            ofType: distance, matching: try SampleFilter(HKQuery.predicateForObjects(from: workout)),
            visibleTo: AppManifest.stepsApp.bundleIdentifier)
        #expect(Set(associated.map(\.uuid)) == Set(samples.prefix(2).map(\.uuid)))
    }

    @Test func activitiesGetTheirOwnStatisticsAndMayNotOverlap() async throws {
        let store = try await authorizedStore()
        let builder = HKWorkoutBuilder(healthStore: store, configuration: outdoorRun(), device: nil)
        try await builder.beginCollection(at: now)
        let warmUp = HKWorkoutActivity(workoutConfiguration: outdoorRun(), start: now, end: nil, metadata: nil)
        try await builder.addWorkoutActivity(warmUp)
        try await builder.updateActivity(uuid: warmUp.uuid, end: now.addingTimeInterval(600))
        let main = HKWorkoutActivity(workoutConfiguration: outdoorRun(), start: now.addingTimeInterval(600), end: nil, metadata: nil)
        try await builder.addWorkoutActivity(main)
        let overlapping = HKWorkoutActivity(workoutConfiguration: outdoorRun(), start: now.addingTimeInterval(300), end: nil, metadata: nil)
        await #expect(throws: HKError(.errorInvalidArgument)) { try await builder.addWorkoutActivity(overlapping) }
        try await builder.addSamples([quantity(distance, 1000, .meter(), from: 0, to: 600),
                                      quantity(distance, 4000, .meter(), from: 600, to: 1800)])
        try await builder.endCollection(at: now.addingTimeInterval(1800))
        let workout = try #require(try await builder.finishWorkout())

        #expect(workout.workoutActivities.map(\.uuid) == [warmUp.uuid, main.uuid])
        #expect(workout.workoutActivities[0].statistics(for: distance)?.sumQuantity()?.doubleValue(for: .meter()) == 1000)
        #expect(workout.workoutActivities[1].endDate == now.addingTimeInterval(1800))  // an open activity ends with the workout
        #expect(workout.workoutActivities[1].statistics(for: distance)?.sumQuantity()?.doubleValue(for: .meter()) == 4000)
        #expect(workout.totalDistance?.doubleValue(for: .meter()) == 5000)
    }

    @Test func misuseIsRefusedWithTheReasonAndSavesNothing() async throws {
        let store = try await authorizedStore()
        let builder = HKWorkoutBuilder(healthStore: store, configuration: outdoorRun(), device: nil)
        await #expect(throws: HKError(.errorInvalidArgument)) { try await builder.addSamples([quantity(distance, 1, .meter(), from: 0, to: 1)]) }
        try await builder.beginCollection(at: now)
        await #expect(throws: HKError(.errorInvalidArgument)) { try await builder.beginCollection(at: now) }
        await #expect(throws: HKError(.errorInvalidArgument)) {
            try await builder.addSamples([quantity(distance, 1, .meter(), from: -60, to: 1)])  // before the start
        }
        let sample = quantity(distance, 1, .meter(), from: 0, to: 60)
        try await builder.addSamples([sample])
        await #expect(throws: HKError(.errorInvalidArgument)) { try await builder.addSamples([sample]) }  // twice
        await #expect(throws: HKError(.errorInvalidArgument)) { _ = try await builder.finishWorkout() }  // not ended
        await #expect(throws: HKError(.errorInvalidArgument)) { try await builder.endCollection(at: now.addingTimeInterval(30)) }
        do {
            try await builder.endCollection(at: now.addingTimeInterval(-1))
            Issue.record("ending before the start was accepted")
        } catch let error as HKError {
            #expect(error.code == .errorInvalidArgument && error.localizedDescription.contains("before it starts"))
        }
        #expect(try savedWorkouts(store).isEmpty)
        #expect(try store.sampleStore().samples(ofType: distance, visibleTo: AppManifest.stepsApp.bundleIdentifier).isEmpty)

        try await builder.endCollection(at: now.addingTimeInterval(60))
        _ = try await builder.finishWorkout()
        await #expect(throws: HKError(.errorInvalidArgument)) { _ = try await builder.finishWorkout() }
        #expect(try savedWorkouts(store).count == 1)
    }

    @Test func aDiscardedWorkoutKeepsNothing() async throws {
        let store = try await authorizedStore()
        let builder = HKWorkoutBuilder(healthStore: store, configuration: outdoorRun(), device: nil)
        try await builder.beginCollection(at: now)
        try await builder.addSamples([quantity(distance, 500, .meter(), from: 0, to: 60)])
        builder.discardWorkout()
        await #expect(throws: HKError(.errorInvalidArgument)) { try await builder.endCollection(at: now.addingTimeInterval(60)) }
        #expect(builder.startDate == nil && builder.allStatistics.isEmpty)
        #expect(try savedWorkouts(store).isEmpty)
        #expect(try store.sampleStore().samples(ofType: distance, visibleTo: AppManifest.stepsApp.bundleIdentifier).isEmpty)
    }

    @Test func anAppThatMayNotShareWorkoutsCannotBeginOne() async throws {
        let (store, _, _) = makeStore(.allowAll)
        let builder = HKWorkoutBuilder(healthStore: store, configuration: outdoorRun(), device: nil)
        await #expect(throws: HKError(.errorAuthorizationNotDetermined)) { try await builder.beginCollection(at: now) }

        let (denied, _, _) = makeStore(.denyAll)
        try await denied.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [])
        let refused = HKWorkoutBuilder(healthStore: denied, configuration: outdoorRun(), device: nil)
        await #expect(throws: HKError(.errorAuthorizationDenied)) { try await refused.beginCollection(at: now) }
    }

    @Test func theCompletionHandlerFormsReportSuccessAndErrors() async throws {
        let store = try await authorizedStore()
        let builder = HKWorkoutBuilder(healthStore: store, configuration: outdoorRun(), device: nil)
        let began: (Bool, (any Error)?) = await withCheckedContinuation { done in
            builder.beginCollection(withStart: now) { ok, error in done.resume(returning: (ok, error)) }
        }
        #expect(began.0 && began.1 == nil)
        let ended: (Bool, (any Error)?) = await withCheckedContinuation { done in
            builder.endCollection(withEnd: now.addingTimeInterval(-5)) { ok, error in done.resume(returning: (ok, error)) }
        }
        #expect(!ended.0 && (ended.1 as? HKError)?.code == .errorInvalidArgument)
    }
}
