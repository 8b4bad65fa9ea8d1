import Foundation
import HealthStore

/// A statistics query ready to run, shared by the statistics and statistics-collection queries and their
/// descriptors: the type, the compiled predicate, validated options, and the time window the predicate sets.
struct StatisticsPlan: Sendable {
    let type: HKQuantityType
    let filter: SampleFilter?
    let options: HKStatisticsOptions
    /// Where an overlap date-range predicate (`predicateForSamples(withStart:end:)` with no options, alone or in
    /// an AND) bounds the samples: cumulative samples crossing these bounds count only for their inside part.
    let window: (start: Date?, end: Date?)

    init(type: HKQuantityType, predicate: NSPredicate?, options: HKStatisticsOptions) throws {
        try StatisticsCalculator.validate(options, for: type)
        self.type = type
        self.options = options
        let filter = try SampleFilter(optional: predicate)
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

    /// The samples the store's app may see, within the window.
    func load(on store: HKHealthStore, from: Date? = nil, to: Date? = nil) throws -> StatisticsSamples {
        let lower = [from, window.start].compactMap { $0 }.max(), upper = [to, window.end].compactMap { $0 }.min()
        return try store.sampleStore().statisticsSamples(
            of: type, matching: filter, visibleTo: store.configuration.app.bundleIdentifier,
            from: lower?.timeIntervalSinceReferenceDate, to: upper?.timeIntervalSinceReferenceDate)
    }

    /// The calculator for this plan, merging sources as `store` is configured to.
    func calculator(for store: HKHealthStore) -> StatisticsCalculator {
        var calculator = StatisticsCalculator(style: type.aggregationStyle, options: options)
        calculator.mergeMode = store.configuration.statisticsMergeMode
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
