import Foundation
import Testing
@testable import HealthModel

/// Workouts archive their events, activities and statistics with them.
@Suite("Workout coding")
struct WorkoutCodingTests {
    typealias F = CodingFixtures

    static func swimConfiguration() -> HKWorkoutConfiguration {
        let configuration = HKWorkoutConfiguration()
        configuration.activityType = .swimming
        configuration.locationType = .outdoor
        configuration.swimmingLocationType = .pool
        configuration.lapLength = HKQuantity(unit: .meter(), doubleValue: 25)
        return configuration
    }

    static func statistics(_ identifier: HKQuantityTypeIdentifier, _ unit: HKUnit, sum: Double) -> HKStatistics {
        HKStatistics(quantityType: HKQuantityType(identifier), startDate: F.start, endDate: F.end,
                     merged: .init(sum: HKQuantity(unit: unit, doubleValue: sum)))
    }

    static func workout() -> HKWorkout {
        let pause = HKWorkoutEvent(type: .pause, dateInterval: DateInterval(start: F.start.addingTimeInterval(60), duration: 0),
                                   validatedMetadata: nil)
        let lap = HKWorkoutEvent(type: .lap, dateInterval: DateInterval(start: F.start.addingTimeInterval(90), duration: 45.5),
                                 validatedMetadata: ["lap": .integer(2), "stroke": .quantity(HKQuantity(unit: .count(), doubleValue: 14))])
        let swim = HKWorkoutActivity(
            configuration: swimConfiguration(), start: F.start, end: F.start.addingTimeInterval(600), events: [lap],
            statistics: [HKQuantityType(.distanceSwimming): statistics(.distanceSwimming, .meter(), sum: 750)],
            metadata: ["leg": .string("swim")])
        let run = HKWorkoutActivity(configuration: HKWorkoutConfiguration(), start: F.start.addingTimeInterval(600), end: nil, metadata: nil)
        return HKWorkout(
            activityType: .swimming, start: F.start, end: F.end, duration: 1_111.25, events: [pause, lap], activities: [swim, run],
            statistics: [
                HKQuantityType(.activeEnergyBurned): statistics(.activeEnergyBurned, .kilocalorie(), sum: 420.5),
                HKQuantityType(.distanceSwimming): statistics(.distanceSwimming, .meter(), sum: 1_500),
                HKQuantityType(.swimmingStrokeCount): statistics(.swimmingStrokeCount, .count(), sum: 612),
            ],
            metadata: F.everyKindOfMetadata, sourceRevision: F.revision, device: F.device)
    }

    @Test func aWorkoutComesBackWithItsEventsActivitiesAndStatistics() throws {
        let workout = Self.workout()
        let back = try #require(try roundTrip(workout))
        #expect(back == workout && back.workoutActivityType == .swimming && back.duration == 1_111.25)
        #expect(back.workoutEvents == workout.workoutEvents && back.workoutEvents?.last?.metadataValues == workout.workoutEvents?.last?.metadataValues)
        #expect(back.workoutActivities == workout.workoutActivities)
        #expect(Set(back.allStatistics.keys) == Set(workout.allStatistics.keys))
        #expect(identical(back.totalEnergyBurned, workout.totalEnergyBurned) && identical(back.totalDistance, workout.totalDistance))
        #expect(identical(back.totalSwimmingStrokeCount, workout.totalSwimmingStrokeCount) && back.totalFlightsClimbed == nil)
        #expect(identical(back.metadataValues, F.everyKindOfMetadata) && back.device == F.device && back.sampleType == HKObjectType.workoutType())
    }

    @Test func aWorkoutsActivitiesKeepTheirOwnFields() throws {
        let workout = Self.workout()
        let back = try #require(try roundTrip(workout))
        let (swim, run) = (back.workoutActivities[0], back.workoutActivities[1])
        #expect(swim.workoutConfiguration == Self.swimConfiguration() && swim.endDate == F.start.addingTimeInterval(600))
        #expect(swim.workoutEvents == workout.workoutActivities[0].workoutEvents && swim.metadataValues == ["leg": .string("swim")])
        #expect(identical(swim.statistics(for: HKQuantityType(.distanceSwimming))?.sumQuantity(), HKQuantity(unit: .meter(), doubleValue: 750)))
        #expect(run.endDate == nil && run.duration == 0 && run.allStatistics.isEmpty && run.workoutEvents.isEmpty && run.metadataValues == nil)
    }

    @Test func aWorkoutWithoutEventsKeepsNone() throws {
        let workout = HKWorkout(activityType: .running, start: F.start, end: F.end)
        let back = try #require(try roundTrip(workout))
        #expect(back.workoutEvents == nil && back.workoutActivities.isEmpty && back.allStatistics.isEmpty && back.duration == workout.duration)
    }

    @Test func eventsAndActivitiesComeBackOnTheirOwn() throws {
        let workout = Self.workout()
        for event in workout.workoutEvents ?? [] {
            let back = try #require(try roundTrip(event))
            #expect(back == event && back.type == event.type && back.dateInterval == event.dateInterval)
        }
        let activity = workout.workoutActivities[0]
        let back = try #require(try roundTrip(activity))
        #expect(back == activity && back.startDate == activity.startDate && back.workoutConfiguration == activity.workoutConfiguration)
    }

    @Test func aConfigurationComesBackAndCopiesIndependently() throws {
        let configuration = Self.swimConfiguration()
        let back = try #require(try roundTrip(configuration))
        #expect(back == configuration && identical(back.lapLength, configuration.lapLength))
        #expect(try #require(try roundTrip(HKWorkoutConfiguration())) == HKWorkoutConfiguration())
        let copy = try #require(configuration.copy(with: nil) as? HKWorkoutConfiguration)
        #expect(copy == configuration && copy !== configuration)
        copy.activityType = .running
        #expect(configuration.activityType == .swimming)
    }

    @Test func aNegativeDurationOrUnknownActivityTypeDoesNotDecode() throws {
        let workout = HKWorkout(activityType: .running, start: F.start, end: F.end)
        #expect(decoded(HKWorkout.self, from: try forgedArchive(of: workout, replacing: ["duration": -1.0])) == nil)
        #expect(decoded(HKWorkout.self, from: try forgedArchive(of: workout, replacing: ["workoutActivityType": 99_999])) == nil)
    }

    @Test func anEventWithANegativeDurationDoesNotDecode() throws {
        let event = HKWorkoutEvent(type: .lap, dateInterval: DateInterval(start: F.start, duration: 5), validatedMetadata: nil)
        #expect(decoded(HKWorkoutEvent.self, from: try forgedArchive(of: event, replacing: ["dateDuration": -5.0])) == nil)
        #expect(decoded(HKWorkoutEvent.self, from: try forgedArchive(of: event, replacing: ["type": 0])) == nil)
    }

    @Test func copyingAWorkoutOrItsPartsGivesThemselves() {
        let workout = Self.workout()
        #expect(workout.copy() as? HKWorkout === workout)
        #expect(workout.workoutEvents?[0].copy() as? HKWorkoutEvent === workout.workoutEvents?[0])
        #expect(workout.workoutActivities[0].copy() as? HKWorkoutActivity === workout.workoutActivities[0])
    }
}
