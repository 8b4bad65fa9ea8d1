/// A quantity sample of a cumulative type (steps, energy, distance…), whose values add up.
///
/// ```swift
/// if let steps = sample as? HKCumulativeQuantitySample { print(steps.sumQuantity) }
/// ```
///
/// `NSSecureCoding` as ``HKQuantitySample``; the type must be cumulative.
public class HKCumulativeQuantitySample: HKQuantitySample, @unchecked Sendable {
    /// The sum of the quantities the sample covers (its ``HKQuantitySample/quantity``).
    public var sumQuantity: HKQuantity { quantity }
}

/// HealthKit's first class for series of cumulative quantities (iOS 12), replaced in iOS 13 by
/// ``HKCumulativeQuantitySample`` with a ``HKQuantitySample/count`` above 1 — which is what the store returns for a
/// series (`HKQuantitySeriesSampleBuilder`), as HealthKit does since iOS 13. Kept so code that names it compiles.
@available(*, deprecated, message: "Use HKCumulativeQuantitySample")
public final class HKCumulativeQuantitySeriesSample: HKCumulativeQuantitySample, @unchecked Sendable {
    /// The sum of the series' quantities.
    @available(*, deprecated, renamed: "sumQuantity")
    public var sum: HKQuantity { sumQuantity }
}
