import Foundation
package import HealthStore

/// A statistics query ready to run, shared by the statistics and statistics-collection queries and their
/// descriptors, in an app or in the daemon: the type, the compiled predicate, validated options, and the time window
/// the predicate sets.
package struct StatisticsPlan: Sendable {
    package let type: HKQuantityType
    package let filter: SampleFilter?
    package let options: HKStatisticsOptions
    /// Where an overlap date-range predicate (`predicateForSamples(withStart:end:)` with no options, alone or in
    /// an AND) bounds the samples: cumulative samples crossing these bounds count only for their inside part.
    let window: (start: Date?, end: Date?)

    init(type: HKQuantityType, predicate: NSPredicate?, options: HKStatisticsOptions) throws {
        try self.init(type: type, filter: try SampleFilter(optional: predicate), options: options)
    }

    /// A plan from a predicate compiled already (the daemon's, from the app's request).
    package init(type: HKQuantityType, filter: SampleFilter?, options: HKStatisticsOptions) throws {
        try StatisticsCalculator.validate(options, for: type)
        self.type = type
        self.options = options
        self.filter = filter
        self.window = filter.map(Self.window(of:)) ?? (nil, nil)
    }

    private static func window(of filter: SampleFilter) -> (start: Date?, end: Date?) {
        switch filter {
        case .dateRange(let start, let end, let options) where options.isEmpty:
            return (start, end)
        case .and(let parts):
            var result: (start: Date?, end: Date?) = (nil, nil)
            for part in parts {
                let (start, end) = window(of: part)
                if let start { result.start = max(result.start ?? start, start) }
                if let end { result.end = min(result.end ?? end, end) }
            }
            return result
        default:
            return (nil, nil)
        }
    }

    /// The samples `app` may see, within the window.
    func load(from samples: SampleStore, app: String) throws -> StatisticsSamples {
        try samples.statisticsSamples(of: type, matching: filter, visibleTo: app,
                                      from: window.start?.timeIntervalSinceReferenceDate, to: window.end?.timeIntervalSinceReferenceDate)
    }

    /// The calculator for this plan, merging sources by `mergeMode`.
    func calculator(mergeMode: HKStatisticsMergeMode) -> StatisticsCalculator {
        var calculator = StatisticsCalculator(style: type.aggregationStyle, options: options)
        calculator.mergeMode = mergeMode
        if type.aggregationStyle == .discreteEquivalentContinuousLevel {
            let decibels = HKUnit.decibelAWeightedSoundPressureLevel()
            calculator.toLevel = { (try? decibels.fromBase($0)) ?? 0 }
            calculator.fromLevel = { (try? decibels.toBase($0)) ?? 0 }
        }
        return calculator
    }

    /// The public statistics object for one computed bucket.
    func statistics(_ bucket: StatisticsCalculator.Bucket?, start: Date, end: Date, sources: [HKSource]) -> HKStatistics {
        let unit = type.canonicalUnit
        func quantity(_ base: Double?) -> HKQuantity? {
            guard let base, let value = try? unit.fromBase(base) else { return nil }
            return HKQuantity(unit: unit, doubleValue: value)
        }
        func values(_ v: StatisticsCalculator.Values) -> HKStatistics.Values {
            HKStatistics.Values(
                sum: quantity(v.sum), minimum: quantity(v.minimum), maximum: quantity(v.maximum), average: quantity(v.average),
                mostRecent: quantity(v.mostRecent?.value),
                mostRecentDateInterval: v.mostRecent.map {
                    DateInterval(start: Date(timeIntervalSinceReferenceDate: $0.start), end: Date(timeIntervalSinceReferenceDate: $0.end))
                },
                duration: v.duration.map { HKQuantity(unit: .second(), doubleValue: $0) })
        }
        var bySource: [HKSource: HKStatistics.Values]?
        if options.contains(.separateBySource) {
            bySource = [:]
            for (rank, v) in bucket?.bySource ?? [:] where rank < sources.count { bySource![sources[rank]] = values(v) }
        }
        return HKStatistics(quantityType: type, startDate: start, endDate: end,
                            merged: bucket?.merged.map(values) ?? HKStatistics.Values(), bySource: bySource)
    }
}
