public import Foundation

/// The abstract type of samples: data with a start and an end date.
///
/// ```swift
/// let types: Set<HKSampleType> = [HKQuantityType(.stepCount), HKObjectType.workoutType()]
/// ```
public class HKSampleType: HKObjectType, @unchecked Sendable {
    /// Whether samples of this type have a maximum duration. OpenHealthKit restricts no type's duration.
    public var isMaximumDurationRestricted: Bool { false }

    /// The maximum duration of a sample of this type. Only valid when ``isMaximumDurationRestricted``;
    /// like HealthKit, asking otherwise is a programming error.
    public var maximumAllowedDuration: TimeInterval {
        preconditionFailure("\(identifier) has no maximum allowed duration; check isMaximumDurationRestricted first")
    }

    /// Whether samples of this type have a minimum duration. OpenHealthKit restricts no type's duration.
    public var isMinimumDurationRestricted: Bool { false }

    /// The minimum duration of a sample of this type. Only valid when ``isMinimumDurationRestricted``.
    public var minimumAllowedDuration: TimeInterval {
        preconditionFailure("\(identifier) has no minimum allowed duration; check isMinimumDurationRestricted first")
    }

    /// Whether the person may ask for this type's estimates to be recalibrated
    /// (`HKHealthStore.recalibrateEstimates(sampleType:date:)`): true for six-minute-walk distance, as in HealthKit.
    public var allowsRecalibrationForEstimates: Bool {
        identifier == HKQuantityTypeIdentifier.sixMinuteWalkTestDistance.rawValue
    }
}
