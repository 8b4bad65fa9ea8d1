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
public final class HKWorkoutConfiguration: NSObject {
    public var activityType: HKWorkoutActivityType = .other
    public var locationType: HKWorkoutSessionLocationType = .unknown
    public var swimmingLocationType: HKWorkoutSwimmingLocationType = .unknown
    public var lapLength: HKQuantity?

    public override init() { super.init() }

    package func copy() -> HKWorkoutConfiguration {
        let copy = HKWorkoutConfiguration()
        copy.activityType = activityType
        copy.locationType = locationType
        copy.swimmingLocationType = swimmingLocationType
        copy.lapLength = lapLength
        return copy
    }

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
