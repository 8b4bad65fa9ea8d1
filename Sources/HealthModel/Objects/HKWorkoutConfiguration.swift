public import Foundation

/// How a workout (or one activity of it) is configured: its activity type, indoor or outdoor, and for
/// swimming the location and lap length. Mutable, like Apple's; copy it before sharing across tasks.
///
/// ```swift
/// let configuration = HKWorkoutConfiguration()
/// configuration.activityType = .swimming
/// configuration.swimmingLocationType = .pool
/// configuration.lapLength = HKQuantity(unit: .meter(), doubleValue: 25)
/// ```
///
/// `NSSecureCoding` (every property) and `NSCopying` (an independent copy, since it is mutable), as HealthKit's.
public final class HKWorkoutConfiguration: NSObject, NSSecureCoding, NSCopying {
    public var activityType: HKWorkoutActivityType = .other
    public var locationType: HKWorkoutSessionLocationType = .unknown
    public var swimmingLocationType: HKWorkoutSwimmingLocationType = .unknown
    public var lapLength: HKQuantity?

    public override init() { super.init() }

    /// An independent copy, typed (``copy(with:)`` returns the same as `Any`).
    package func copy() -> HKWorkoutConfiguration { duplicate() }

    /// The copy both ``copy()`` and ``copy(with:)`` return (`copy()` inside `copy(with:)` would be NSObject's,
    /// which calls `copy(with:)` again).
    private func duplicate() -> HKWorkoutConfiguration {
        let copy = HKWorkoutConfiguration()
        copy.activityType = activityType
        copy.locationType = locationType
        copy.swimmingLocationType = swimmingLocationType
        copy.lapLength = lapLength
        return copy
    }

    // MARK: NSSecureCoding, NSCopying

    private enum Key {
        static let activityType = "activityType"
        static let locationType = "locationType"
        static let swimmingLocationType = "swimmingLocationType"
        static let lapLength = "lapLength"
    }

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        coder.encodeEnum(activityType, forKey: Key.activityType)
        coder.encodeEnum(locationType, forKey: Key.locationType)
        coder.encodeEnum(swimmingLocationType, forKey: Key.swimmingLocationType)
        coder.encodeIfPresent(lapLength, forKey: Key.lapLength)
    }

    public required convenience init?(coder: NSCoder) {
        guard case let (activityType, locationType, swimmingLocationType, lapLength)? = coder.decodeValid("HKWorkoutConfiguration", {
            (try coder.decodeEnum(HKWorkoutActivityType.self, forKey: Key.activityType),
             try coder.decodeEnum(HKWorkoutSessionLocationType.self, forKey: Key.locationType),
             try coder.decodeEnum(HKWorkoutSwimmingLocationType.self, forKey: Key.swimmingLocationType),
             try coder.decodeIfPresent(HKQuantity.self, forKey: Key.lapLength))
        }) else { return nil }
        self.init()
        (self.activityType, self.locationType, self.swimmingLocationType, self.lapLength) = (activityType, locationType, swimmingLocationType, lapLength)
    }

    /// The configuration is mutable: a copy is a new configuration with the same values.
    public func copy(with zone: NSZone? = nil) -> Any { duplicate() }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let rhs = object as? HKWorkoutConfiguration else { return false }
        let lhs = self
        return lhs.activityType == rhs.activityType && lhs.locationType == rhs.locationType
            && lhs.swimmingLocationType == rhs.swimmingLocationType && lhs.lapLength == rhs.lapLength
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(activityType)
        hasher.combine(locationType)
        hasher.combine(swimmingLocationType)
        return hasher.finalize()
    }
}
