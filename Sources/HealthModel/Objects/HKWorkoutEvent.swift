public import Foundation

/// Something that happened during a workout: a pause, a resume, a lap, a segment, a marker.
///
/// ```swift
/// let lap = HKWorkoutEvent(type: .lap, dateInterval: DateInterval(start: t0, duration: 90), metadata: nil)
/// ```
///
/// `NSSecureCoding` (type, interval and metadata, exactly) and `NSCopying` (the event itself), as HealthKit's.
public final class HKWorkoutEvent: NSObject, NSSecureCoding, NSCopying, @unchecked Sendable {
    // @unchecked: immutable `let`s; metadata is held as Sendable HKMetadataValues.

    /// The kind of event.
    public let type: HKWorkoutEventType
    /// When the event happened; zero-length for instants such as a pause.
    public let dateInterval: DateInterval
    package let metadataValues: [String: HKMetadataValue]?

    package init(type: HKWorkoutEventType, dateInterval: DateInterval, validatedMetadata: [String: HKMetadataValue]?) {
        self.type = type
        self.dateInterval = dateInterval
        self.metadataValues = validatedMetadata
    }

    /// Creates an event. Invalid metadata stops the program, as HealthKit raises.
    public convenience init(type: HKWorkoutEventType, dateInterval: DateInterval, metadata: [String: Any]?) {
        let checked = trapOnInvalidArgument { try MetadataValidation.validate(metadata) }
        self.init(type: type, dateInterval: dateInterval, validatedMetadata: checked)
    }

    /// Creates an instant event.
    @available(*, deprecated, message: "Use init(type:dateInterval:metadata:)")
    public convenience init(type: HKWorkoutEventType, date: Date) {
        self.init(type: type, dateInterval: DateInterval(start: date, duration: 0), validatedMetadata: nil)
    }

    /// Creates an instant event with metadata.
    @available(*, deprecated, message: "Use init(type:dateInterval:metadata:)")
    public convenience init(type: HKWorkoutEventType, date: Date, metadata: [String: Any]) {
        self.init(type: type, dateInterval: DateInterval(start: date, duration: 0), metadata: metadata)
    }

    /// Creates an event, or throws `HKError(.errorInvalidArgument)` for metadata HealthKit does not allow.
    public static func validated(type: HKWorkoutEventType, dateInterval: DateInterval, metadata: [String: Any]? = nil) throws -> HKWorkoutEvent {
        HKWorkoutEvent(type: type, dateInterval: dateInterval, validatedMetadata: try MetadataValidation.validate(metadata))
    }

    /// The event's metadata.
    public var metadata: [String: Any]? { metadataValues?.anyDictionary }

    /// The event's start.
    @available(*, deprecated, renamed: "dateInterval.start")
    public var date: Date { dateInterval.start }

    // MARK: NSSecureCoding, NSCopying

    private enum Key {
        static let type = "type"
        static let dateInterval = "date"
        static let metadata = "metadata"
    }

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        coder.encodeEnum(type, forKey: Key.type)
        coder.encodeDateInterval(dateInterval, forKey: Key.dateInterval)
        MetadataCoding.encode(metadataValues, forKey: Key.metadata, with: coder)
    }

    public required convenience init?(coder: NSCoder) {
        guard case let (type, interval, metadata)? = coder.decodeValid("HKWorkoutEvent", {
            (try coder.decodeEnum(HKWorkoutEventType.self, forKey: Key.type), try coder.decodeDateInterval(forKey: Key.dateInterval),
             try MetadataCoding.decode(forKey: Key.metadata, from: coder))
        }) else { return nil }
        self.init(type: type, dateInterval: interval, validatedMetadata: metadata)
    }

    /// Events are immutable: a copy is the event itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let rhs = object as? HKWorkoutEvent else { return false }
        let lhs = self
        return lhs.type == rhs.type && lhs.dateInterval == rhs.dateInterval && lhs.metadataValues == rhs.metadataValues
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(type)
        hasher.combine(dateInterval)
        return hasher.finalize()
    }
}
