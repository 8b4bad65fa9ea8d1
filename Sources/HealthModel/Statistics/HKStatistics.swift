public import Foundation

/// The result of a statistics calculation over an interval: sum, minimum, maximum, average, most
/// recent value and duration, merged over all sources and, when asked with `.separateBySource`, per source.
///
/// Getters for statistics that were not asked for return `nil`, as in HealthKit:
///
/// ```swift
/// if let steps = statistics.sumQuantity() {
///     print(steps.doubleValue(for: .count()))
/// }
/// ```
public final class HKStatistics: NSObject, Sendable {
    /// The quantity type the statistics are about.
    public let quantityType: HKQuantityType
    /// The start of the interval.
    public let startDate: Date
    /// The end of the interval.
    public let endDate: Date
    /// The sources, when the statistics were computed separately by source; otherwise `nil`.
    public let sources: [HKSource]?

    package let merged: Values
    package let bySource: [HKSource: Values]

    /// One set of computed statistics. `nil` means "not asked for" or "no data".
    package struct Values: Sendable {
        package var sum: HKQuantity?
        package var minimum: HKQuantity?
        package var maximum: HKQuantity?
        package var average: HKQuantity?
        package var mostRecent: HKQuantity?
        package var mostRecentDateInterval: DateInterval?
        package var duration: HKQuantity?

        package init(
            sum: HKQuantity? = nil, minimum: HKQuantity? = nil, maximum: HKQuantity? = nil, average: HKQuantity? = nil,
            mostRecent: HKQuantity? = nil, mostRecentDateInterval: DateInterval? = nil, duration: HKQuantity? = nil
        ) {
            self.sum = sum
            self.minimum = minimum
            self.maximum = maximum
            self.average = average
            self.mostRecent = mostRecent
            self.mostRecentDateInterval = mostRecentDateInterval
            self.duration = duration
        }
    }

    package init(
        quantityType: HKQuantityType, startDate: Date, endDate: Date,
        merged: Values, bySource: [HKSource: Values]? = nil
    ) {
        self.quantityType = quantityType
        self.startDate = startDate
        self.endDate = endDate
        self.merged = merged
        self.bySource = bySource ?? [:]
        self.sources = bySource.map { $0.keys.sorted { $0.bundleIdentifier < $1.bundleIdentifier } }
    }

    public func sumQuantity() -> HKQuantity? { merged.sum }
    public func sumQuantity(for source: HKSource) -> HKQuantity? { bySource[source]?.sum }
    public func minimumQuantity() -> HKQuantity? { merged.minimum }
    public func minimumQuantity(for source: HKSource) -> HKQuantity? { bySource[source]?.minimum }
    public func maximumQuantity() -> HKQuantity? { merged.maximum }
    public func maximumQuantity(for source: HKSource) -> HKQuantity? { bySource[source]?.maximum }
    public func averageQuantity() -> HKQuantity? { merged.average }
    public func averageQuantity(for source: HKSource) -> HKQuantity? { bySource[source]?.average }
    public func mostRecentQuantity() -> HKQuantity? { merged.mostRecent }
    public func mostRecentQuantity(for source: HKSource) -> HKQuantity? { bySource[source]?.mostRecent }
    public func mostRecentQuantityDateInterval() -> DateInterval? { merged.mostRecentDateInterval }
    public func mostRecentQuantityDateInterval(for source: HKSource) -> DateInterval? { bySource[source]?.mostRecentDateInterval }
    public func duration() -> HKQuantity? { merged.duration }
    public func duration(for source: HKSource) -> HKQuantity? { bySource[source]?.duration }
}
