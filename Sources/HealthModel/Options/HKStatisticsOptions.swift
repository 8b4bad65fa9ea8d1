/// Which statistics a statistics query computes, with HealthKit's bit values.
/// Cumulative types take `.cumulativeSum`; discrete types take `.discreteAverage`, `.discreteMin`,
/// `.discreteMax`; `.mostRecent`, `.duration` and `.separateBySource` go with either.
///
/// ```swift
/// let options: HKStatisticsOptions = [.discreteAverage, .discreteMax, .separateBySource]
/// ```
public struct HKStatisticsOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let separateBySource = HKStatisticsOptions(rawValue: 1 << 0)
    public static let discreteAverage = HKStatisticsOptions(rawValue: 1 << 1)
    public static let discreteMin = HKStatisticsOptions(rawValue: 1 << 2)
    public static let discreteMax = HKStatisticsOptions(rawValue: 1 << 3)
    public static let cumulativeSum = HKStatisticsOptions(rawValue: 1 << 4)
    public static let mostRecent = HKStatisticsOptions(rawValue: 1 << 5)
    @available(*, deprecated, renamed: "mostRecent")
    public static let discreteMostRecent = HKStatisticsOptions(rawValue: 1 << 5)
    public static let duration = HKStatisticsOptions(rawValue: 1 << 6)
}
