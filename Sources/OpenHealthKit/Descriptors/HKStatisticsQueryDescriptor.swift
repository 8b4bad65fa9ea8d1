import Foundation

/// An `HKStatisticsQuery` with Swift concurrency.
///
/// ```swift
/// let today = HKQuery.predicateForSamples(withStart: midnight, end: nil)
/// let descriptor = HKStatisticsQueryDescriptor(predicate: .quantitySample(type: HKQuantityType(.stepCount), predicate: today),
///                                              options: .cumulativeSum)
/// let steps = try await descriptor.result(for: store)?.sumQuantity()
/// ```
public struct HKStatisticsQueryDescriptor: HKAsyncQuery, @unchecked Sendable {
    // @unchecked: HKSamplePredicate holds an immutable NSPredicate.

    public var predicate: HKSamplePredicate<HKQuantitySample>
    public var options: HKStatisticsOptions

    public init(predicate: HKSamplePredicate<HKQuantitySample>, options: HKStatisticsOptions) {
        self.predicate = predicate
        self.options = options
    }

    /// The statistics, or nil when no sample the app may see matches.
    public func result(for healthStore: HKHealthStore) async throws -> HKStatistics? {
        guard let type = predicate.sampleType as? HKQuantityType else {
            throw HKError.invalidArgument("statistics need a quantity type; \(predicate.sampleType.identifier) is not one")
        }
        let plan = try StatisticsPlan(type: type, predicate: predicate.nsPredicate, options: options)
        return try await HKStatisticsQuery.statistics(plan, on: healthStore)
    }
}
