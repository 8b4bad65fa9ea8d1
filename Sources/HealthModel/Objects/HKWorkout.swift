public import Foundation

/// A workout: its activity type, dates, duration, events, activities and statistics
/// (total energy burned, distance, swimming strokes, flights climbed).
///
/// ```swift
/// let run = try HKWorkout.validated(
///     activityType: .running, start: start, end: end,
///     totalEnergyBurned: HKQuantity(unit: .kilocalorie(), doubleValue: 420),
///     totalDistance: HKQuantity(unit: .meterUnit(with: .kilo), doubleValue: 5.1))
/// run.statistics(for: HKQuantityType(.distanceWalkingRunning))?.sumQuantity()  // 5.1 km
/// ```
///
/// The initializers are HealthKit's (deprecated there in favour of `HKWorkoutBuilder`, which OpenHealthKit
/// does not have yet); they stop the program on invalid input, while `validated(…)` throws.
///
/// `NSSecureCoding`, as HealthKit's: the activity type, duration, events (`nil` stays `nil`), activities, statistics
/// (and so the totals), dates and object fields come back as archived.
public final class HKWorkout: HKSample, @unchecked Sendable {
    public let workoutActivityType: HKWorkoutActivityType
    public let workoutEvents: [HKWorkoutEvent]?
    public let workoutActivities: [HKWorkoutActivity]
    /// The time spent working out: the span between start and end less paused time, unless given explicitly.
    public let duration: TimeInterval
    /// The workout's statistics by quantity type.
    public let allStatistics: [HKQuantityType: HKStatistics]

    package init(
        activityType: HKWorkoutActivityType, start: Date, end: Date, duration: TimeInterval,
        events: [HKWorkoutEvent]?, activities: [HKWorkoutActivity] = [], statistics: [HKQuantityType: HKStatistics],
        uuid: UUID = UUID(), metadata: [String: HKMetadataValue]?,
        sourceRevision: HKSourceRevision = HKObject.unsavedRevision, device: HKDevice?
    ) {
        self.workoutActivityType = activityType
        self.workoutEvents = events
        self.workoutActivities = activities
        self.duration = duration
        self.allStatistics = statistics
        super.init(sampleType: HKObjectType.workoutType(), start: start, end: end, uuid: uuid,
                   metadata: metadata, sourceRevision: sourceRevision, device: device)
    }

    /// The statistics of one quantity type over the workout, if recorded.
    public func statistics(for quantityType: HKQuantityType) -> HKStatistics? { allStatistics[quantityType] }

    /// Active energy burned during the workout.
    public var totalEnergyBurned: HKQuantity? { allStatistics[HKQuantityType(.activeEnergyBurned)]?.sumQuantity() }
    /// The distance covered, in the distance type that fits the activity (walking/running, cycling, swimming…).
    public var totalDistance: HKQuantity? {
        allStatistics[HKWorkout.distanceType(for: workoutActivityType)]?.sumQuantity()
    }
    /// Swimming strokes counted during the workout.
    public var totalSwimmingStrokeCount: HKQuantity? { allStatistics[HKQuantityType(.swimmingStrokeCount)]?.sumQuantity() }
    /// Flights of stairs climbed during the workout.
    public var totalFlightsClimbed: HKQuantity? { allStatistics[HKQuantityType(.flightsClimbed)]?.sumQuantity() }

    // MARK: - NSSecureCoding

    private enum Key {
        static let activityType = "workoutActivityType"
        static let duration = "duration"
        static let events = "workoutEvents"
        static let activities = "workoutActivities"
        static let statistics = "statistics"
    }

    public override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encodeEnum(workoutActivityType, forKey: Key.activityType)
        coder.encode(duration, forKey: Key.duration)
        coder.encodeIfPresent(workoutEvents, forKey: Key.events)
        coder.encode(workoutActivities, forKey: Key.activities)
        StatisticsCoding.encode(allStatistics, forKey: Key.statistics, with: coder)
    }

    public required convenience init?(coder: NSCoder) {
        guard case let (sample, activityType, duration, events, activities, statistics)? = coder.decodeValid("HKWorkout", {
            let duration = try coder.decodeFiniteDouble(forKey: Key.duration)
            guard duration >= 0 else { throw ArchiveError.invalid("a workout's duration is \(duration) s") }
            return (try CodedSampleFields(coder: coder), try coder.decodeEnum(HKWorkoutActivityType.self, forKey: Key.activityType), duration,
                    try coder.decodeIfPresent([HKWorkoutEvent].self, forKey: Key.events),
                    try coder.decode([HKWorkoutActivity].self, forKey: Key.activities),
                    try StatisticsCoding.decode(forKey: Key.statistics, from: coder))
        }) else { return nil }
        self.init(activityType: activityType, start: sample.start, end: sample.end, duration: duration, events: events, activities: activities,
                  statistics: statistics, uuid: sample.object.uuid, metadata: sample.object.metadata,
                  sourceRevision: sample.object.sourceRevision, device: sample.object.device)
    }

    // MARK: - HealthKit's initializers (trap on invalid input)

    public convenience init(activityType: HKWorkoutActivityType, start: Date, end: Date) {
        self.init(activityType: activityType, start: start, end: end, workoutEvents: nil,
                  totalEnergyBurned: nil, totalDistance: nil, device: nil, metadata: nil)
    }

    public convenience init(
        activityType: HKWorkoutActivityType, start: Date, end: Date, workoutEvents: [HKWorkoutEvent]?,
        totalEnergyBurned: HKQuantity?, totalDistance: HKQuantity?, metadata: [String: Any]?
    ) {
        self.init(activityType: activityType, start: start, end: end, workoutEvents: workoutEvents,
                  totalEnergyBurned: totalEnergyBurned, totalDistance: totalDistance, device: nil, metadata: metadata)
    }

    public convenience init(
        activityType: HKWorkoutActivityType, start: Date, end: Date, workoutEvents: [HKWorkoutEvent]?,
        totalEnergyBurned: HKQuantity?, totalDistance: HKQuantity?, device: HKDevice?, metadata: [String: Any]?
    ) {
        let parts = trapOnInvalidArgument {
            try HKWorkout.check(Parts(activityType: activityType, start: start, end: end, events: workoutEvents,
                                      energy: totalEnergyBurned, distance: totalDistance, metadata: metadata))
        }
        self.init(parts, device: device)
    }

    public convenience init(
        activityType: HKWorkoutActivityType, start: Date, end: Date, duration: TimeInterval,
        totalEnergyBurned: HKQuantity?, totalDistance: HKQuantity?, metadata: [String: Any]?
    ) {
        self.init(activityType: activityType, start: start, end: end, duration: duration,
                  totalEnergyBurned: totalEnergyBurned, totalDistance: totalDistance, device: nil, metadata: metadata)
    }

    public convenience init(
        activityType: HKWorkoutActivityType, start: Date, end: Date, duration: TimeInterval,
        totalEnergyBurned: HKQuantity?, totalDistance: HKQuantity?, device: HKDevice?, metadata: [String: Any]?
    ) {
        let parts = trapOnInvalidArgument {
            try HKWorkout.check(Parts(activityType: activityType, start: start, end: end, duration: duration,
                                      energy: totalEnergyBurned, distance: totalDistance, metadata: metadata))
        }
        self.init(parts, device: device)
    }

    public convenience init(
        activityType: HKWorkoutActivityType, start: Date, end: Date, workoutEvents: [HKWorkoutEvent]?,
        totalEnergyBurned: HKQuantity?, totalDistance: HKQuantity?, totalSwimmingStrokeCount: HKQuantity?,
        device: HKDevice?, metadata: [String: Any]?
    ) {
        let parts = trapOnInvalidArgument {
            try HKWorkout.check(Parts(activityType: activityType, start: start, end: end, events: workoutEvents,
                                      energy: totalEnergyBurned, distance: totalDistance,
                                      strokes: totalSwimmingStrokeCount, metadata: metadata))
        }
        self.init(parts, device: device)
    }

    public convenience init(
        activityType: HKWorkoutActivityType, start: Date, end: Date, workoutEvents: [HKWorkoutEvent]?,
        totalEnergyBurned: HKQuantity?, totalDistance: HKQuantity?, totalFlightsClimbed: HKQuantity?,
        device: HKDevice?, metadata: [String: Any]?
    ) {
        let parts = trapOnInvalidArgument {
            try HKWorkout.check(Parts(activityType: activityType, start: start, end: end, events: workoutEvents,
                                      energy: totalEnergyBurned, distance: totalDistance,
                                      flights: totalFlightsClimbed, metadata: metadata))
        }
        self.init(parts, device: device)
    }

    // MARK: - Throwing factory

    /// Creates a workout, or throws `HKError(.errorInvalidArgument)` naming the problem: an end before the start,
    /// a negative or non-finite duration, totals in units of the wrong kind or negative, events outside the
    /// workout, or metadata HealthKit does not allow. Without `duration`, the duration is the span less paused time.
    public static func validated(
        activityType: HKWorkoutActivityType, start: Date, end: Date, duration: TimeInterval? = nil,
        workoutEvents: [HKWorkoutEvent]? = nil, totalEnergyBurned: HKQuantity? = nil, totalDistance: HKQuantity? = nil,
        totalSwimmingStrokeCount: HKQuantity? = nil, totalFlightsClimbed: HKQuantity? = nil,
        device: HKDevice? = nil, metadata: [String: Any]? = nil
    ) throws -> HKWorkout {
        let parts = try check(Parts(
            activityType: activityType, start: start, end: end, duration: duration, events: workoutEvents,
            energy: totalEnergyBurned, distance: totalDistance, strokes: totalSwimmingStrokeCount,
            flights: totalFlightsClimbed, metadata: metadata))
        return HKWorkout(parts, device: device)
    }

    /// A whole workout as another process assembled it (a builder's: events, activities, statistics of any types), checked
    /// as `validated(…)` checks the totals: a valid interval, a finite duration of zero or more, events and activities
    /// within the workout, each activity's events within the activity, statistics of quantity types with finite values
    /// in their units (sums not negative), metadata HealthKit allows. Throws `HKError(.errorInvalidArgument)` naming
    /// the problem. The daemon builds what an app saves through it with this.
    package static func checked(
        activityType: HKWorkoutActivityType, start: Date, end: Date, duration: TimeInterval, events: [HKWorkoutEvent]?,
        activities: [HKWorkoutActivity], statistics: [HKStatistics], uuid: UUID, metadata: [String: Any]?, device: HKDevice?
    ) throws -> HKWorkout {
        try ObjectValidation.checkInterval(start: start, end: end, of: "a workout")
        guard duration.isFinite, duration >= 0 else {
            throw HKError.invalidArgument("a workout's duration is \(duration) s; it must be zero or more")
        }
        try checkEvents(events ?? [], within: DateInterval(start: start, end: end), of: "the workout")
        var activityIDs = Set<UUID>()
        for activity in activities {
            guard activityIDs.insert(activity.uuid).inserted else { throw HKError.invalidArgument("the workout holds activity \(activity.uuid) twice") }
            let activityEnd = activity.endDate ?? activity.startDate
            try ObjectValidation.checkInterval(start: activity.startDate, end: activityEnd, of: "a workout activity")
            guard activity.startDate >= start, activityEnd <= end else {
                throw HKError.invalidArgument("workout activity \(activity.uuid) lies outside the workout")
            }
            try checkEvents(activity.workoutEvents, within: DateInterval(start: activity.startDate, end: activityEnd), of: "its activity")
            try checkStatistics(Array(activity.allStatistics.values))
            _ = try MetadataValidation.validate(activity.metadataValues?.anyDictionary)
        }
        let byType = try checkStatistics(statistics)
        return HKWorkout(activityType: activityType, start: start, end: end, duration: duration, events: events, activities: activities,
                         statistics: byType, uuid: uuid, metadata: try MetadataValidation.validate(metadata), device: device)
    }

    private static func checkEvents(_ events: [HKWorkoutEvent], within interval: DateInterval, of what: String) throws {
        for event in events {
            try ObjectValidation.checkInterval(start: event.dateInterval.start, end: event.dateInterval.end, of: "a workout event")
            guard event.dateInterval.start >= interval.start, event.dateInterval.end <= interval.end else {
                throw HKError.invalidArgument("a workout event (\(event.type)) at \(event.dateInterval.start.formatted(.iso8601)) lies outside \(what)")
            }
        }
    }

    /// Statistics by type, each type once, every value finite and in the type's unit, sums and durations not negative.
    @discardableResult
    private static func checkStatistics(_ statistics: [HKStatistics]) throws -> [HKQuantityType: HKStatistics] {
        var byType: [HKQuantityType: HKStatistics] = [:]
        for item in statistics {
            guard byType.updateValue(item, forKey: item.quantityType) == nil else {
                throw HKError.invalidArgument("the workout holds two statistics of \(item.quantityType.identifier)")
            }
            let values = item.merged
            for quantity in [values.sum, values.minimum, values.maximum, values.average, values.mostRecent].compactMap({ $0 }) {
                try ObjectValidation.checkQuantity(quantity, for: item.quantityType)
            }
            if let sum = values.sum, sum.doubleValue < 0 {
                throw HKError.invalidArgument("the workout's \(item.quantityType.identifier) sum is negative (\(sum))")
            }
            try ObjectValidation.checkQuantity(values.duration, named: "the workout's \(item.quantityType.identifier) duration", compatibleWith: .second())
        }
        return byType
    }

    // MARK: - Validation

    /// The arguments of every initializer, gathered so one check serves them all.
    private struct Parts {
        var activityType: HKWorkoutActivityType
        var start: Date
        var end: Date
        var duration: TimeInterval?
        var events: [HKWorkoutEvent]?
        var energy: HKQuantity?
        var distance: HKQuantity?
        var strokes: HKQuantity?
        var flights: HKQuantity?
        var metadata: [String: Any]?
        var checkedMetadata: [String: HKMetadataValue]?
    }

    private convenience init(_ parts: Parts, device: HKDevice?) {
        var statistics: [HKQuantityType: HKStatistics] = [:]
        let totals: [(HKQuantityType, HKQuantity?)] = [
            (HKQuantityType(.activeEnergyBurned), parts.energy),
            (HKWorkout.distanceType(for: parts.activityType), parts.distance),
            (HKQuantityType(.swimmingStrokeCount), parts.strokes),
            (HKQuantityType(.flightsClimbed), parts.flights),
        ]
        for case let (type, total?) in totals {
            statistics[type] = HKStatistics(quantityType: type, startDate: parts.start, endDate: parts.end,
                                            merged: .init(sum: total))
        }
        let duration = parts.duration ?? HKWorkout.activeDuration(start: parts.start, end: parts.end, events: parts.events)
        self.init(activityType: parts.activityType, start: parts.start, end: parts.end, duration: duration,
                  events: parts.events, statistics: statistics, metadata: parts.checkedMetadata, device: device)
    }

    private static func check(_ parts: Parts) throws -> Parts {
        var parts = parts
        try ObjectValidation.checkInterval(start: parts.start, end: parts.end, of: "a workout")
        if let duration = parts.duration {
            guard duration.isFinite, duration >= 0 else {
                throw HKError.invalidArgument("a workout's duration is \(duration) s; it must be zero or more")
            }
        }
        let totals: [(String, HKQuantity?, HKUnit)] = [
            ("total energy burned", parts.energy, .kilocalorie()),
            ("total distance", parts.distance, .meter()),
            ("total swimming stroke count", parts.strokes, .count()),
            ("total flights climbed", parts.flights, .count()),
        ]
        for (name, quantity, unit) in totals {
            try ObjectValidation.checkQuantity(quantity, named: "a workout's \(name)", compatibleWith: unit)
            if let quantity, quantity.doubleValue < 0 {
                throw HKError.invalidArgument("a workout's \(name) is negative (\(quantity))")
            }
        }
        for event in parts.events ?? [] {
            guard event.dateInterval.start >= parts.start, event.dateInterval.end <= parts.end else {
                throw HKError.invalidArgument(
                    "a workout event (\(event.type)) at \(event.dateInterval.start.formatted(.iso8601)) lies outside the workout"
                )
            }
        }
        parts.checkedMetadata = try MetadataValidation.validate(parts.metadata)
        return parts
    }

    /// The span from start to end less the time between pause and resume events (a pause with no resume lasts to the end).
    package static func activeDuration(start: Date, end: Date, events: [HKWorkoutEvent]?) -> TimeInterval {
        var paused: TimeInterval = 0
        var pausedSince: Date?
        for event in (events ?? []).sorted(by: { $0.dateInterval.start < $1.dateInterval.start }) {
            switch event.type {
            case .pause, .motionPaused:
                if pausedSince == nil { pausedSince = event.dateInterval.start }
            case .resume, .motionResumed:
                if let since = pausedSince {
                    paused += event.dateInterval.start.timeIntervalSince(since)
                    pausedSince = nil
                }
            default:
                break
            }
        }
        if let since = pausedSince { paused += end.timeIntervalSince(since) }
        return max(0, end.timeIntervalSince(start) - paused)
    }

    /// The distance quantity type a workout of this activity records its distance in.
    package static func distanceType(for activityType: HKWorkoutActivityType) -> HKQuantityType {
        switch activityType {
        case .cycling, .handCycling: HKQuantityType(.distanceCycling)
        case .swimming: HKQuantityType(.distanceSwimming)
        case .wheelchairWalkPace, .wheelchairRunPace: HKQuantityType(.distanceWheelchair)
        case .downhillSkiing, .snowboarding, .snowSports: HKQuantityType(.distanceDownhillSnowSports)
        case .crossCountrySkiing: HKQuantityType(.distanceCrossCountrySkiing)
        case .paddleSports: HKQuantityType(.distancePaddleSports)
        case .rowing: HKQuantityType(.distanceRowing)
        case .skatingSports: HKQuantityType(.distanceSkatingSports)
        default: HKQuantityType(.distanceWalkingRunning)
        }
    }
}
