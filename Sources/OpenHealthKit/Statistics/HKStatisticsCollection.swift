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
public final class HKStatisticsCollection: NSObject, Sendable {
    private let intervals: StatisticsIntervals
    private let quantityType: HKQuantityType
    private let options: HKStatisticsOptions
    /// The index of the first computed interval, and the computed intervals' statistics in order.
    private let firstIndex: Int
    private let computed: [HKStatistics]
    private let populated: [Bool]

    init(intervals: StatisticsIntervals, quantityType: HKQuantityType, options: HKStatisticsOptions,
         firstIndex: Int, computed: [HKStatistics], populated: [Bool]) {
        self.intervals = intervals
        self.quantityType = quantityType
        self.options = options
        self.firstIndex = firstIndex
        self.computed = computed
        self.populated = populated
    }

    /// The statistics of the intervals that have data, in time order.
    public func statistics() -> [HKStatistics] {
        zip(computed, populated).filter(\.1).map(\.0)
    }

    /// The statistics of the interval holding `date`: empty (nil quantities) when it has no data; `nil` when the
    /// interval lies outside the range the query computed.
    public func statistics(for date: Date) -> HKStatistics? {
        let k = intervals.index(containing: date) - firstIndex
        return computed.indices.contains(k) ? computed[k] : nil
    }

    /// Calls `block` with the statistics of every interval from the one holding `startDate` to the one holding
    /// `endDate`, empty ones included; set `stop.pointee = true` to end early.
    public func enumerateStatistics(from startDate: Date, to endDate: Date, with block: (HKStatistics, UnsafeMutablePointer<ObjCBool>) -> Void) {
        guard startDate <= endDate else { return }
        var stop = ObjCBool(false)
        for k in intervals.index(containing: startDate)...intervals.index(containing: endDate) {
            let position = k - firstIndex
            let statistics: HKStatistics
            if computed.indices.contains(position) {
                statistics = computed[position]
            } else {
                let interval = intervals.interval(k)
                statistics = HKStatistics(quantityType: quantityType, startDate: interval.start, endDate: interval.end, merged: .init(),
                                          bySource: options.contains(.separateBySource) ? [:] : nil)
            }
            withUnsafeMutablePointer(to: &stop) { block(statistics, $0) }
            if stop.boolValue { return }
        }
    }

    /// The sources that contributed to any interval; empty unless the query used `.separateBySource`.
    public func sources() -> Set<HKSource> {
        Set(computed.flatMap { $0.sources ?? [] })
    }
}
