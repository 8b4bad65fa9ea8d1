public import Foundation
import HealthStore
import Synchronization

/// Statistics over all matching samples of a quantity type: a sum for cumulative types (sources merged by the
/// person's priority order, or each source on its own with `.separateBySource`), average / minimum / maximum for
/// discrete types, and `mostRecent` / `duration` for either.
///
/// ```swift
/// let today = HKQuery.predicateForSamples(withStart: midnight, end: midnight.addingTimeInterval(86_400))
/// let query = HKStatisticsQuery(quantityType: HKQuantityType(.stepCount), quantitySamplePredicate: today,
///                               options: .cumulativeSum) { _, statistics, error in
///     print(statistics?.sumQuantity()?.doubleValue(for: .count()) ?? 0)
/// }
/// store.execute(query)
/// ```
///
/// With an overlap date range (`predicateForSamples(withStart:end:)` with no options), samples crossing its
/// bounds count only for the part inside. The statistics are `nil` when no sample the app may see matches.
/// Options that do not suit the type's aggregation style (a sum of heart rates) are `errorInvalidArgument`
/// carrying HealthKit's message.
open class HKStatisticsQuery: HKQuery, @unchecked Sendable {
    // @unchecked: set-once properties; the handler is @Sendable; `task` is behind a Mutex.

    private let options: HKStatisticsOptions
    private let completionHandler: @Sendable (HKStatisticsQuery, HKStatistics?, (any Error)?) -> Void
    private let task = Mutex<Task<Void, Never>?>(nil)

    public init(
        quantityType: HKQuantityType, quantitySamplePredicate: NSPredicate?, options: HKStatisticsOptions = [],
        completionHandler: @escaping @Sendable (HKStatisticsQuery, HKStatistics?, (any Error)?) -> Void
    ) {
        self.options = options
        self.completionHandler = completionHandler
        super.init(objectType: quantityType, predicate: quantitySamplePredicate)
    }

    /// Computes the statistics where the store's backend computes them: in this process, or in the daemon (shared with
    /// `HKStatisticsQueryDescriptor`).
    static func statistics(_ plan: StatisticsPlan, on store: HKHealthStore) async throws -> HKStatistics? {
        try await store.backend().statistics(plan, mergeMode: store.configuration.statisticsMergeMode)
    }

    /// The statistics of the samples an app may see (`nil` when there are none), merged by `mergeMode`.
    static func statistics(_ plan: StatisticsPlan, loaded: StatisticsSamples, mergeMode: HKStatisticsMergeMode) -> HKStatistics? {
        guard !loaded.samples.isEmpty else { return nil }
        let firstStart = loaded.samples.map(\.start).min()!, lastEnd = loaded.samples.map(\.end).max()!
        let start = plan.window.start?.timeIntervalSinceReferenceDate ?? firstStart
        let end = plan.window.end?.timeIntervalSinceReferenceDate ?? lastEnd
        // Date ranges that contradict each other (AND of 10:00–10:30 and 11:00–12:00) leave no time to count in.
        guard start <= end else { return nil }
        // The last border lies just past `end` when the window comes from the data, so samples ending there count.
        let borders = [start, plan.window.end == nil ? end.nextUp : end]
        let bucket = plan.calculator(mergeMode: mergeMode).compute(loaded.samples, borders: borders).first
        return plan.statistics(bucket, start: Date(timeIntervalSinceReferenceDate: start), end: Date(timeIntervalSinceReferenceDate: end),
                               sources: loaded.sources)
    }
}

extension HKStatisticsQuery: ExecutableQuery {
    func start(on store: HKHealthStore) {
        let plan = Result { try StatisticsPlan(type: objectType as! HKQuantityType, predicate: predicate, options: options) }
        let started = Task.detached { [self] in
            do {
                let statistics = try await Self.statistics(try plan.get(), on: store)
                guard !Task.isCancelled else { return }
                // As HealthKit: no sample the app may see matches, so no statistics and errorNoData, whatever the reason.
                guard let statistics else {
                    return completionHandler(self, nil, HKError(.errorNoData, "No data available for the specified predicate."))
                }
                completionHandler(self, statistics, nil)
            } catch {
                guard !Task.isCancelled else { return }
                completionHandler(self, nil, error)
            }
        }
        task.withLock { $0 = started }
    }

    func stop() {
        task.withLock { $0?.cancel() }
    }
}
