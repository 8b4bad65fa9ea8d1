package import Foundation
package import HealthModel

/// A workout's own fields on the wire (`Sample.workout`), both ways: activity type, duration, events, activities and
/// statistics, so a workout read through the daemon equals the one read from an embedded store (its totals are its
/// statistics' sums). Reading what an app saves checks every part as HealthKit's initializers check it.
enum WireWorkout {
    typealias Workout = Components.Schemas.Workout

    /// The parts of a workout beyond a sample's fields.
    struct Parts {
        var activityType: HKWorkoutActivityType
        var duration: TimeInterval
        var events: [HKWorkoutEvent]?
        var activities: [HKWorkoutActivity]
        var statistics: [HKStatistics]
    }

    static func wire(_ workout: HKWorkout) -> Workout {
        Workout(activityType: Int(workout.workoutActivityType.rawValue), duration: workout.duration, events: workout.workoutEvents?.map(wire),
                activities: workout.workoutActivities.isEmpty ? nil : workout.workoutActivities.map(wire),
                statistics: wire(workout.allStatistics))
    }

    /// The parts sent at `pointer`. With `checking` (an app saving) metadata is checked as HealthKit checks an app's;
    /// without (a stored workout coming back) it is taken as it was stored.
    static func parts(_ wire: Workout, at pointer: String, checking: Bool, units: inout [String: HKUnit]) throws -> Parts {
        guard let activityType = UInt(exactly: wire.activityType).flatMap(HKWorkoutActivityType.init) else {
            throw WireFieldError(pointer + "/activityType", "\(wire.activityType) is not an HKWorkoutActivityType")
        }
        guard wire.duration.isFinite, wire.duration >= 0 else { throw WireFieldError(pointer + "/duration", "must be zero or more seconds") }
        let events = try wire.events?.enumerated().map { index, event in
            try self.event(event, at: "\(pointer)/events/\(index)", checking: checking)
        }
        let activities = try (wire.activities ?? []).enumerated().map { index, activity in
            try self.activity(activity, at: "\(pointer)/activities/\(index)", checking: checking, units: &units)
        }
        let statistics = try statistics(wire.statistics, at: pointer + "/statistics", units: &units)
        return Parts(activityType: activityType, duration: wire.duration, events: events, activities: activities, statistics: statistics)
    }

    // MARK: - Parts

    private static func wire(_ event: HKWorkoutEvent) -> Components.Schemas.WorkoutEvent {
        .init(_type: event.type.rawValue, startDate: event.dateInterval.start, endDate: event.dateInterval.end,
              metadata: WireSample.wireMetadata(event.metadataValues).map { .init(additionalProperties: $0) })
    }

    private static func wire(_ activity: HKWorkoutActivity) -> Components.Schemas.WorkoutActivity {
        let configuration = activity.workoutConfiguration
        return .init(
            uuid: activity.uuid.uuidString,
            configuration: .init(activityType: Int(configuration.activityType.rawValue), locationType: configuration.locationType.rawValue,
                                 swimmingLocationType: configuration.swimmingLocationType.rawValue,
                                 lapLength: configuration.lapLength.map(WireSample.wireQuantity)),
            startDate: activity.startDate, endDate: activity.endDate, events: activity.workoutEvents.isEmpty ? nil : activity.workoutEvents.map(wire),
            statistics: wire(activity.allStatistics), metadata: WireSample.wireMetadata(activity.metadataValues).map { .init(additionalProperties: $0) })
    }

    private static func wire(_ statistics: [HKQuantityType: HKStatistics]) -> [Components.Schemas.TypedStatistics]? {
        statistics.isEmpty ? nil : statistics.sorted { $0.key.identifier < $1.key.identifier }.map { type, statistics in
            .init(_type: type.identifier, statistics: WireStatistics.wire(statistics))
        }
    }

    private static func event(_ wire: Components.Schemas.WorkoutEvent, at pointer: String, checking: Bool) throws -> HKWorkoutEvent {
        guard let type = HKWorkoutEventType(rawValue: wire._type) else {
            throw WireFieldError(pointer + "/type", "\(wire._type) is not an HKWorkoutEventType")
        }
        guard wire.startDate <= wire.endDate else { throw WireFieldError(pointer + "/endDate", "is before startDate") }
        return HKWorkoutEvent(type: type, dateInterval: DateInterval(start: wire.startDate, end: wire.endDate),
                              validatedMetadata: try metadata(wire.metadata?.additionalProperties, at: pointer + "/metadata", checking: checking))
    }

    private static func activity(_ wire: Components.Schemas.WorkoutActivity, at pointer: String, checking: Bool,
                                 units: inout [String: HKUnit]) throws -> HKWorkoutActivity {
        guard let uuid = UUID(wireText: wire.uuid) else { throw WireFieldError(pointer + "/uuid", "\"\(wire.uuid)\" is not a UUID") }
        let wired = wire.configuration
        let configuration = HKWorkoutConfiguration()
        guard let activityType = UInt(exactly: wired.activityType).flatMap(HKWorkoutActivityType.init) else {
            throw WireFieldError(pointer + "/configuration/activityType", "\(wired.activityType) is not an HKWorkoutActivityType")
        }
        configuration.activityType = activityType
        if let raw = wired.locationType {
            guard let location = HKWorkoutSessionLocationType(rawValue: raw) else {
                throw WireFieldError(pointer + "/configuration/locationType", "\(raw) is not an HKWorkoutSessionLocationType")
            }
            configuration.locationType = location
        }
        if let raw = wired.swimmingLocationType {
            guard let location = HKWorkoutSwimmingLocationType(rawValue: raw) else {
                throw WireFieldError(pointer + "/configuration/swimmingLocationType", "\(raw) is not an HKWorkoutSwimmingLocationType")
            }
            configuration.swimmingLocationType = location
        }
        if let lap = wired.lapLength {
            let length = try WireSample.quantity(lap, at: pointer + "/configuration/lapLength", units: &units)
            guard length.is(compatibleWith: .meter()), length.doubleValue.isFinite, length.doubleValue > 0 else {
                throw WireFieldError(pointer + "/configuration/lapLength", "must be a positive length")
            }
            configuration.lapLength = length
        }
        if let end = wire.endDate, end < wire.startDate { throw WireFieldError(pointer + "/endDate", "is before startDate") }
        let events = try (wire.events ?? []).enumerated().map { index, event in
            try self.event(event, at: "\(pointer)/events/\(index)", checking: checking)
        }
        let statistics = try statistics(wire.statistics, at: pointer + "/statistics", units: &units)
        return HKWorkoutActivity(uuid: uuid, configuration: configuration, start: wire.startDate, end: wire.endDate, events: events,
                                 statistics: Dictionary(statistics.map { ($0.quantityType, $0) }, uniquingKeysWith: { first, _ in first }),
                                 metadata: try metadata(wire.metadata?.additionalProperties, at: pointer + "/metadata", checking: checking))
    }

    private static func statistics(_ wires: [Components.Schemas.TypedStatistics]?, at pointer: String,
                                   units: inout [String: HKUnit]) throws -> [HKStatistics] {
        try (wires ?? []).enumerated().map { index, wire in
            guard let type = HKObjectType.type(forIdentifier: wire._type) as? HKQuantityType else {
                throw WireFieldError("\(pointer)/\(index)/type", "\"\(wire._type)\" is not a HealthKit quantity type identifier")
            }
            return try WireStatistics.stored(wire.statistics, type: type, separateBySource: false, at: "\(pointer)/\(index)/statistics",
                                             units: &units)
        }
    }

    private static func metadata(_ values: [String: Components.Schemas.MetadataValue]?, at pointer: String,
                                 checking: Bool) throws -> [String: HKMetadataValue]? {
        guard let values else { return nil }
        if checking { return try MetadataValidation.validate(try WireSample.metadata(values, at: pointer)) }
        var units: [String: HKUnit] = [:]
        return try WireSample.metadata(values, at: pointer, units: &units)
    }
}
