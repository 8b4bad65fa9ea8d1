/// How a date predicate treats samples that straddle its bounds, with HealthKit's bit values.
/// Without options a sample matches when it overlaps the interval at all.
///
/// ```swift
/// let predicate = HKQuery.predicateForSamples(withStart: start, end: end, options: [.strictStartDate])
/// ```
public struct HKQueryOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// The sample must start within the interval.
    public static let strictStartDate = HKQueryOptions(rawValue: 1 << 0)
    /// The sample must end within the interval.
    public static let strictEndDate = HKQueryOptions(rawValue: 1 << 1)
}
