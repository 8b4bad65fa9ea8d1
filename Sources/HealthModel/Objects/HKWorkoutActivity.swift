public import Foundation

/// One activity of a workout — one leg of a triathlon, one interval of a training plan — with its own
/// configuration, dates, events and statistics.
///
/// ```swift
/// let swim = HKWorkoutConfiguration()
/// swim.activityType = .swimming
/// let leg = HKWorkoutActivity(workoutConfiguration: swim, start: t0, end: t1, metadata: nil)
/// ```
///
/// `NSSecureCoding` (configuration, dates, events, statistics and metadata) and `NSCopying` (the activity itself),
/// as HealthKit's.
public final class HKWorkoutActivity: NSObject, NSSecureCoding, NSCopying, @unchecked Sendable {
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

    // MARK: NSSecureCoding, NSCopying

    private enum Key {
        static let uuid = "uuid"
        static let configuration = "configuration"
        static let startDate = "startDate"
        static let endDate = "endDate"
        static let events = "events"
        static let statistics = "statistics"
        static let metadata = "metadata"
    }

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        coder.encodeUUID(uuid, forKey: Key.uuid)
        coder.encode(configuration, forKey: Key.configuration)
        coder.encodeDate(startDate, forKey: Key.startDate)
        if let endDate { coder.encodeDate(endDate, forKey: Key.endDate) }
        coder.encode(workoutEvents, forKey: Key.events)
        StatisticsCoding.encode(allStatistics, forKey: Key.statistics, with: coder)
        MetadataCoding.encode(metadataValues, forKey: Key.metadata, with: coder)
    }

    public required convenience init?(coder: NSCoder) {
        guard case let (uuid, configuration, start, end, events, statistics, metadata)? = coder.decodeValid("HKWorkoutActivity", {
            let start = try coder.decodeDate(forKey: Key.startDate)
            let end = try coder.decodeDateIfPresent(forKey: Key.endDate)
            if let end, end < start { throw ArchiveError.invalid("the activity ends before it starts") }
            return (try coder.decodeUUID(forKey: Key.uuid), try coder.decode(HKWorkoutConfiguration.self, forKey: Key.configuration), start, end,
                    try coder.decode([HKWorkoutEvent].self, forKey: Key.events), try StatisticsCoding.decode(forKey: Key.statistics, from: coder),
                    try MetadataCoding.decode(forKey: Key.metadata, from: coder))
        }) else { return nil }
        self.init(uuid: uuid, configuration: configuration, start: start, end: end, events: events, statistics: statistics, metadata: metadata)
    }

    /// Activities are immutable: a copy is the activity itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }

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
