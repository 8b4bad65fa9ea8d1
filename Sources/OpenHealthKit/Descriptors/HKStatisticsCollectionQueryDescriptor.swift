public import Foundation

/// An `HKStatisticsCollectionQuery` with Swift concurrency: `result(for:)` once, or `results(for:)` for the
/// collection and then, after each change, the collection again with the intervals that changed.
///
/// ```swift
/// let daily = HKStatisticsCollectionQueryDescriptor(predicate: .quantitySample(type: HKQuantityType(.stepCount)),
///                                                   options: .cumulativeSum, anchorDate: midnight,
///                                                   intervalComponents: DateComponents(day: 1))
/// for try await update in daily.results(for: store) {
///     print(update.updatedStatistics?.count ?? 0, "days changed")
/// }
/// ```
public struct HKStatisticsCollectionQueryDescriptor: HKAsyncQuery, HKAsyncSequenceQuery, @unchecked Sendable {
    // @unchecked: HKSamplePredicate holds an immutable NSPredicate.

    public var predicate: HKSamplePredicate<HKQuantitySample>
    public var options: HKStatisticsOptions
    public var anchorDate: Date
    public var intervalComponents: DateComponents
    /// The calendar the intervals follow (an OpenHealthKit addition; the current calendar by default).
    public var calendar: Calendar = .current

    public init(predicate: HKSamplePredicate<HKQuantitySample>, options: HKStatisticsOptions, anchorDate: Date,
                intervalComponents: DateComponents) {
        self.predicate = predicate
        self.options = options
        self.anchorDate = anchorDate
        self.intervalComponents = intervalComponents
    }

    /// The whole collection, and the statistics that changed (nil for the first answer).
    public struct Result: Sendable {
        public let statisticsCollection: HKStatisticsCollection
        public let updatedStatistics: [HKStatistics]?
    }

    public struct Results: AsyncSequence, Sendable {
        public typealias Element = Result
        let live: LiveResults<Result>

        /// Steps through the results as they come.
        public struct Iterator: AsyncIteratorProtocol {
            var base: AsyncThrowingStream<Result, any Error>.AsyncIterator
            public mutating func next() async throws -> Result? { try await base.next() }
        }

        public func makeAsyncIterator() -> Iterator { Iterator(base: live.makeStream().makeAsyncIterator()) }
    }

    private func plan() throws -> (StatisticsPlan, StatisticsIntervals) {
        guard let type = predicate.sampleType as? HKQuantityType else {
            throw HKError.invalidArgument("statistics need a quantity type; \(predicate.sampleType.identifier) is not one")
        }
        return (try StatisticsPlan(type: type, predicate: predicate.nsPredicate, options: options),
                try StatisticsIntervals(anchor: anchorDate, components: intervalComponents, calendar: calendar))
    }

    public func result(for healthStore: HKHealthStore) async throws -> HKStatisticsCollection {
        let (plan, intervals) = try plan()
        return try await HKStatisticsCollectionQuery.compute(plan, intervals: intervals, on: healthStore).collection
    }

    public func results(for healthStore: HKHealthStore) -> Results {
        let descriptor = self
        return Results(live: LiveResults { continuation in
            let (plan, intervals) = try descriptor.plan()
            try await HKStatisticsCollectionQuery.run(plan, intervals: intervals, on: healthStore, live: true) {
                continuation.yield(Result(statisticsCollection: $0, updatedStatistics: nil))
            } update: {
                continuation.yield(Result(statisticsCollection: $0, updatedStatistics: $1))
            }
        })
    }
}
