public import Foundation

/// The statistics of a collection query, one per interval (see `HKStatisticsCollectionQuery`).
///
/// `statistics()` lists the intervals that have data; `statistics(for:)` and `enumerateStatistics(from:to:with:)`
/// also give the empty ones, whose quantities are `nil` (never 0).
///
/// ```swift
/// collection.enumerateStatistics(from: weekAgo, to: now) { statistics, stop in
///     print(statistics.startDate, statistics.sumQuantity()?.doubleValue(for: .count()) ?? 0)
/// }
/// ```
///
/// Only the intervals with data are held: an empty one is made when asked for, so a collection over a sample in
/// 2020 and one in 9999 holds two hours, not seventy million.
public final class HKStatisticsCollection: NSObject, Sendable {
    private let intervals: StatisticsIntervals
    private let quantityType: HKQuantityType
    private let options: HKStatisticsOptions
    /// The indices of the intervals the query computed (its date range), or `nil` when it had none.
    package let range: ClosedRange<Int>?
    /// The intervals with data, by index, and their indices in time order.
    private let populated: [Int: HKStatistics]
    private let order: [Int]

    init(intervals: StatisticsIntervals, quantityType: HKQuantityType, options: HKStatisticsOptions,
         range: ClosedRange<Int>?, populated: [Int: HKStatistics]) {
        self.intervals = intervals
        self.quantityType = quantityType
        self.options = options
        self.range = range
        self.populated = populated
        self.order = populated.keys.sorted()
    }

    /// The statistics of the intervals that have data, in time order.
    public func statistics() -> [HKStatistics] {
        order.map { populated[$0]! }
    }

    /// The statistics of the interval holding `date`: empty (nil quantities) when it has no data; `nil` when the
    /// interval lies outside the range the query computed.
    public func statistics(for date: Date) -> HKStatistics? {
        let k = intervals.index(containing: date)
        guard let range, range.contains(k) else { return nil }
        return populated[k] ?? empty(k)
    }

    /// Calls `block` with the statistics of every interval from the one holding `startDate` to the one holding
    /// `endDate`, empty ones included; set `stop.pointee = true` to end early.
    public func enumerateStatistics(from startDate: Date, to endDate: Date, with block: (HKStatistics, UnsafeMutablePointer<ObjCBool>) -> Void) {
        guard startDate <= endDate else { return }
        var stop = ObjCBool(false)
        for k in intervals.index(containing: startDate)...intervals.index(containing: endDate) {
            let statistics = populated[k] ?? empty(k)
            withUnsafeMutablePointer(to: &stop) { block(statistics, $0) }
            if stop.boolValue { return }
        }
    }

    /// The sources that contributed to any interval; empty unless the query used `.separateBySource`.
    public func sources() -> Set<HKSource> {
        Set(populated.values.flatMap { $0.sources ?? [] })
    }

    /// Interval `k` with no data: nil quantities (and no sources when separated by source).
    private func empty(_ k: Int) -> HKStatistics {
        let interval = intervals.interval(k)
        return HKStatistics(quantityType: quantityType, startDate: interval.start, endDate: interval.end, merged: .init(),
                            bySource: options.contains(.separateBySource) ? [:] : nil)
    }
}
