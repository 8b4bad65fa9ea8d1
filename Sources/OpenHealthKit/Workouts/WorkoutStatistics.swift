import Foundation
import HealthStore

/// The statistics of a workout (or one of its activities) computed from the quantity samples added to its builder,
/// with the store's own calculator: sums for cumulative types, average, minimum, maximum and most recent for the
/// others. Samples crossing the window's borders count for their inside part, as in a statistics query.
enum WorkoutStatistics {
    static func compute(_ samples: [HKSample], from start: Date, to end: Date, store: HKHealthStore) -> [HKQuantityType: HKStatistics] {
        var byType: [HKQuantityType: [HKQuantitySample]] = [:]
        for case let sample as HKQuantitySample in samples where sample.endDate >= start && sample.startDate <= end {
            byType[sample.quantityType, default: []].append(sample)
        }
        var result: [HKQuantityType: HKStatistics] = [:]
        for (type, typed) in byType {
            let options: HKStatisticsOptions = type.aggregationStyle == .cumulative
                ? .cumulativeSum : [.discreteAverage, .discreteMin, .discreteMax, .mostRecent]
            guard let plan = try? StatisticsPlan(type: type, predicate: nil, options: options) else { continue }
            let calculatorSamples = typed.enumerated().compactMap { index, sample -> StatisticsCalculator.Sample? in
                guard let value = try? sample.quantity.unit.toBase(sample.quantity.doubleValue) else { return nil }
                return StatisticsCalculator.Sample(start: sample.startDate.timeIntervalSinceReferenceDate,
                                                   end: sample.endDate.timeIntervalSinceReferenceDate,
                                                   value: value, sourceRank: 0, savedAt: Double(index))
            }
            let bucket = plan.calculator(mergeMode: store.configuration.statisticsMergeMode).compute(
                calculatorSamples, borders: [start.timeIntervalSinceReferenceDate, end.timeIntervalSinceReferenceDate]).first
            result[type] = plan.statistics(bucket, start: start, end: end, sources: [])
        }
        return result
    }

    /// The end of the collection so far, for statistics before it has ended: the latest sample end, or `start`.
    static func lastEnd(_ samples: [HKSample], after start: Date) -> Date {
        samples.map(\.endDate).max().map { max($0, start) } ?? start
    }
}
