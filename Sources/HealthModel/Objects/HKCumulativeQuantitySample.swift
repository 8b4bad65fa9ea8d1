/// A quantity sample of a cumulative type (steps, energy, distance…), whose values add up.
///
/// ```swift
/// if let steps = sample as? HKCumulativeQuantitySample { print(steps.sumQuantity) }
/// ```
///
/// `NSSecureCoding` as ``HKQuantitySample``; the type must be cumulative.
public final class HKCumulativeQuantitySample: HKQuantitySample, @unchecked Sendable {
    /// The sum of the quantities the sample covers (its ``HKQuantitySample/quantity``).
    public var sumQuantity: HKQuantity { quantity }
}
