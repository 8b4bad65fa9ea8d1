public import Foundation

/// One activity of a workout — one leg of a triathlon, one interval of a training plan — with its own
/// configuration, dates, events and statistics.
///
/// ```swift
/// let swim = HKWorkoutConfiguration()
/// swim.activityType = .swimming
/// let leg = HKWorkoutActivity(workoutConfiguration: swim, start: t0, end: t1, metadata: nil)
/// ```
public final class HKWorkoutActivity: NSObject, @unchecked Sendable {
    // @unchecked: immutable `let`s of Sendable values; the configuration is copied in and out.

    public let uuid: UUID
    public let startDate: Date
    public let endDate: Date?
    public let workoutEvents: [HKWorkoutEvent]
    public let allStatistics: [HKQuantityType: HKStatistics]
    package let metadataValues: [String: HKMetadataValue]?
    private let configuration: HKWorkoutConfiguration

    package init(
        uuid: UUID = UUID(), configuration: HKWorkoutConfiguration, start: Date, end: Date?,
        events: [HKWorkoutEvent] = [], statistics: [HKQuantityType: HKStatistics] = [:],
        metadata: [String: HKMetadataValue]?
    ) {
        self.uuid = uuid
        self.configuration = configuration.copy()
        self.startDate = start
        self.endDate = end
        self.workoutEvents = events
        self.allStatistics = statistics
        self.metadataValues = metadata
    }

    /// Creates an activity. An end before the start, or invalid metadata, stops the program, as HealthKit raises.
    public convenience init(workoutConfiguration: HKWorkoutConfiguration, start: Date, end: Date?, metadata: [String: Any]?) {
        let checked = trapOnInvalidArgument {
            try HKWorkoutActivity.check(start: start, end: end, metadata: metadata)
        }
        self.init(configuration: workoutConfiguration, start: start, end: end, metadata: checked)
    }

    /// Creates an activity, or throws `HKError(.errorInvalidArgument)` for an end before the start or invalid metadata.
    public static func validated(
        workoutConfiguration: HKWorkoutConfiguration, start: Date, end: Date?, metadata: [String: Any]? = nil
    ) throws -> HKWorkoutActivity {
        let checked = try check(start: start, end: end, metadata: metadata)
        return HKWorkoutActivity(configuration: workoutConfiguration, start: start, end: end, metadata: checked)
    }

    /// A copy of the activity's configuration.
    public var workoutConfiguration: HKWorkoutConfiguration { configuration.copy() }

    /// The activity's metadata.
    public var metadata: [String: Any]? { metadataValues?.anyDictionary }

    /// The activity's length; zero while it has no end date.
    public var duration: TimeInterval { endDate.map { $0.timeIntervalSince(startDate) } ?? 0 }

    /// The statistics of one quantity type over the activity, if recorded.
    public func statistics(for quantityType: HKQuantityType) -> HKStatistics? { allStatistics[quantityType] }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let rhs = object as? HKWorkoutActivity else { return false }
        let lhs = self
        return lhs.uuid == rhs.uuid
    }
    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(uuid)
        return hasher.finalize()
    }

    private static func check(start: Date, end: Date?, metadata: [String: Any]?) throws -> [String: HKMetadataValue]? {
        try ObjectValidation.checkInterval(start: start, end: end ?? start, of: "a workout activity")
        return try MetadataValidation.validate(metadata)
    }
}
