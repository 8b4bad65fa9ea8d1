/// How a workout (or one activity of it) is configured: its activity type, indoor or outdoor, and for
/// swimming the location and lap length. Mutable, like Apple's; copy it before sharing across tasks.
///
/// ```swift
/// let configuration = HKWorkoutConfiguration()
/// configuration.activityType = .swimming
/// configuration.swimmingLocationType = .pool
/// configuration.lapLength = HKQuantity(unit: .meter(), doubleValue: 25)
/// ```
public final class HKWorkoutConfiguration: Hashable {
    public var activityType: HKWorkoutActivityType = .other
    public var locationType: HKWorkoutSessionLocationType = .unknown
    public var swimmingLocationType: HKWorkoutSwimmingLocationType = .unknown
    public var lapLength: HKQuantity?

    public init() {}

    package func copy() -> HKWorkoutConfiguration {
        let copy = HKWorkoutConfiguration()
        copy.activityType = activityType
        copy.locationType = locationType
        copy.swimmingLocationType = swimmingLocationType
        copy.lapLength = lapLength
        return copy
    }

    public static func == (lhs: HKWorkoutConfiguration, rhs: HKWorkoutConfiguration) -> Bool {
        lhs.activityType == rhs.activityType && lhs.locationType == rhs.locationType
            && lhs.swimmingLocationType == rhs.swimmingLocationType && lhs.lapLength == rhs.lapLength
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(activityType)
        hasher.combine(locationType)
        hasher.combine(swimmingLocationType)
    }
}
