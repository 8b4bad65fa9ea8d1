import Foundation
import Testing
@testable import HealthModel

@Suite("Workouts")
struct HKWorkoutTests {
    let start = t0
    let end = t0.addingTimeInterval(3600)

    @Test func totalsBecomeStatisticsOfTheRightTypes() throws {
        let ride = try HKWorkout.validated(
            activityType: .cycling, start: start, end: end,
            totalEnergyBurned: HKQuantity(unit: .kilocalorie(), doubleValue: 600),
            totalDistance: HKQuantity(unit: .meterUnit(with: .kilo), doubleValue: 25))
        #expect(ride.workoutActivityType == .cycling)
        #expect(ride.duration == 3600)
        #expect(ride.totalEnergyBurned?.doubleValue(for: .kilocalorie()) == 600)
        #expect(ride.totalDistance?.doubleValue(for: .meter()) == 25_000)
        #expect(ride.statistics(for: HKQuantityType(.distanceCycling))?.sumQuantity()?.doubleValue(for: .meter()) == 25_000)
        #expect(ride.statistics(for: HKQuantityType(.distanceWalkingRunning)) == nil)
        #expect(ride.sampleType == HKObjectType.workoutType())
    }

    @Test func durationExcludesPausedTime() throws {
        let pause = HKWorkoutEvent(type: .pause, dateInterval: DateInterval(start: start.addingTimeInterval(600), duration: 0), metadata: nil)
        let resume = HKWorkoutEvent(type: .resume, dateInterval: DateInterval(start: start.addingTimeInterval(900), duration: 0), metadata: nil)
        let run = HKWorkout(activityType: .running, start: start, end: end, workoutEvents: [resume, pause],
                            totalEnergyBurned: nil, totalDistance: nil, metadata: nil)
        #expect(run.duration == 3300)
        #expect(run.workoutEvents?.count == 2)
    }

    @Test func explicitDurationWins() throws {
        let w = HKWorkout(activityType: .yoga, start: start, end: end, duration: 1800, totalEnergyBurned: nil, totalDistance: nil, metadata: nil)
        #expect(w.duration == 1800)
    }

    @Test func negativeDurationIsRejected() {
        #expect {
            _ = try HKWorkout.validated(activityType: .running, start: start, end: end, duration: -5)
        } throws: { error in
            (error as? HKError)?.message.contains("duration is -5.0 s") == true
        }
    }

    @Test func energyInAUnitOfLengthIsRejected() {
        #expect {
            _ = try HKWorkout.validated(activityType: .running, start: start, end: end,
                                        totalEnergyBurned: HKQuantity(unit: .meter(), doubleValue: 5))
        } throws: { error in
            (error as? HKError)?.message.contains("total energy burned is in \"m\"") == true
        }
    }

    @Test func negativeTotalsAreRejected() {
        #expect(throws: HKError(.errorInvalidArgument)) {
            _ = try HKWorkout.validated(activityType: .running, start: start, end: end,
                                        totalDistance: HKQuantity(unit: .meter(), doubleValue: -1))
        }
    }

    @Test func eventsOutsideTheWorkoutAreRejected() {
        let late = HKWorkoutEvent(type: .lap, dateInterval: DateInterval(start: end.addingTimeInterval(1), duration: 10), metadata: nil)
        #expect(throws: HKError(.errorInvalidArgument)) {
            _ = try HKWorkout.validated(activityType: .running, start: start, end: end, workoutEvents: [late])
        }
    }

    @Test func swimmingStrokesAndFlightsAreKept() throws {
        let swim = HKWorkout(activityType: .swimming, start: start, end: end, workoutEvents: nil,
                             totalEnergyBurned: nil, totalDistance: HKQuantity(unit: .yard(), doubleValue: 1000),
                             totalSwimmingStrokeCount: HKQuantity(unit: .count(), doubleValue: 800), device: nil, metadata: nil)
        #expect(swim.totalSwimmingStrokeCount?.doubleValue(for: .count()) == 800)
        #expect(swim.statistics(for: HKQuantityType(.distanceSwimming))?.sumQuantity()?.doubleValue(for: .meter()) == 914.4)
        let climb = try HKWorkout.validated(activityType: .stairClimbing, start: start, end: end,
                                            totalFlightsClimbed: HKQuantity(unit: .count(), doubleValue: 30))
        #expect(climb.totalFlightsClimbed?.doubleValue(for: .count()) == 30)
    }

    @Test func activitiesCopyTheirConfiguration() throws {
        let configuration = HKWorkoutConfiguration()
        configuration.activityType = .swimming
        configuration.swimmingLocationType = .pool
        let activity = try HKWorkoutActivity.validated(workoutConfiguration: configuration, start: start, end: end)
        configuration.activityType = .running
        #expect(activity.workoutConfiguration.activityType == .swimming)
        #expect(activity.duration == 3600)
        #expect(throws: HKError(.errorInvalidArgument)) {
            _ = try HKWorkoutActivity.validated(workoutConfiguration: configuration, start: end, end: start)
        }
    }

    @Test func eventMetadataIsValidated() {
        #expect(throws: HKError(.errorInvalidArgument)) {
            _ = try HKWorkoutEvent.validated(type: .marker, dateInterval: DateInterval(start: start, duration: 0), metadata: ["x": [1]])
        }
    }
}
