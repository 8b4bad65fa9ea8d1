public import Foundation
import HealthStore
import Synchronization

/// Statistics per interval — per day, per hour, per week — anchored at a date and stepping by calendar
/// components in the caller's calendar and time zone (days on DST changes last 23 or 25 hours). Each interval
/// is computed like an `HKStatisticsQuery`; cumulative samples spanning a boundary count in proportion to their
/// overlap. With a `statisticsUpdateHandler` the query keeps running and reports each interval that a later
/// save or delete changes.
///
/// ```swift
/// let query = HKStatisticsCollectionQuery(quantityType: HKQuantityType(.stepCount), quantitySamplePredicate: lastWeek,
///                                         options: .cumulativeSum, anchorDate: midnight,
///                                         intervalComponents: DateComponents(day: 1))
/// query.initialResultsHandler = { _, collection, error in
///     collection?.enumerateStatistics(from: weekAgo, to: now) { day, _ in print(day.sumQuantity() as Any) }
/// }
/// store.execute(query)
/// ```
///
/// The intervals span the predicate's date range (an overlap `predicateForSamples(withStart:end:)`), or the
/// samples' when it sets none.
open class HKStatisticsCollectionQuery: HKQuery, @unchecked Sendable {
    // @unchecked: the handlers and calendar are behind a Mutex; the rest is set once.

    public typealias InitialResultsHandler = @Sendable (HKStatisticsCollectionQuery, HKStatisticsCollection?, (any Error)?) -> Void
    public typealias UpdateHandler = @Sendable (HKStatisticsCollectionQuery, HKStatistics?, HKStatisticsCollection?, (any Error)?) -> Void

    public let anchorDate: Date
    public let options: HKStatisticsOptions
    public let intervalComponents: DateComponents

    private struct Handlers {
        var initial: InitialResultsHandler?
        var update: UpdateHandler?
        var calendar: Calendar = .current
    }
    private let handlers = Mutex(Handlers())
    private let task = Mutex<Task<Void, Never>?>(nil)

    public var initialResultsHandler: InitialResultsHandler? {
        get { handlers.withLock { $0.initial } }
        set { handlers.withLock { $0.initial = newValue } }
    }

    /// Set before executing to keep the query running after its initial results.
    public var statisticsUpdateHandler: UpdateHandler? {
        get { handlers.withLock { $0.update } }
        set { handlers.withLock { $0.update = newValue } }
    }

    /// The calendar (and its time zone) the intervals follow: the caller's current calendar unless set — an
    /// OpenHealthKit addition, since a server answers people in many time zones.
    public var calendar: Calendar {
        get { handlers.withLock { $0.calendar } }
        set { handlers.withLock { $0.calendar = newValue } }
    }

    public init(quantityType: HKQuantityType, quantitySamplePredicate: NSPredicate?, options: HKStatisticsOptions = [],
                anchorDate: Date, intervalComponents: DateComponents) {
        self.anchorDate = anchorDate
        self.options = options
        self.intervalComponents = intervalComponents
        super.init(objectType: quantityType, predicate: quantitySamplePredicate)
    }

    /// A computed collection and the buckets behind it, by interval index (for finding what an update changed).
    package struct Computed: Sendable {
        package let collection: HKStatisticsCollection
        /// The bucket is `nil` where the daemon computed the statistics (it sends the statistics only).
        let byInterval: [Int: (bucket: StatisticsCalculator.Bucket?, statistics: HKStatistics)]

        /// The statistics of the intervals whose values differ from `old`'s, in time order — an interval that lost
        /// all its data (or fell out of the range) is reported empty.
        func changes(since old: Computed, plan: StatisticsPlan, intervals: StatisticsIntervals) -> [HKStatistics] {
            Set(byInterval.keys).union(old.byInterval.keys).sorted().compactMap { k in
                if let before = old.byInterval[k], let after = byInterval[k] {
                    // Buckets where this process computed them; the statistics themselves where the daemon did.
                    let same = before.bucket != nil || after.bucket != nil
                        ? before.bucket == after.bucket
                        : before.statistics.merged == after.statistics.merged && before.statistics.bySource == after.statistics.bySource
                    if same { return nil }
                }
                if let new = byInterval[k] { return new.statistics }
                let interval = intervals.interval(k)
                return plan.statistics(nil, start: interval.start, end: interval.end, sources: [])
            }
        }
    }

    /// The first collection, then — when `live` — the collection again with the statistics each later change
    /// altered (never an empty list), until the task is cancelled. Shared with the descriptor.
    static func run(_ plan: StatisticsPlan, intervals: StatisticsIntervals, on store: HKHealthStore, live: Bool,
                    first: (HKStatisticsCollection) -> Void, update: (HKStatisticsCollection, [HKStatistics]) -> Void) async throws {
        // Changes the app may see of the plan's samples, from the store behind it (in this process or the daemon's
        // observer stream); heard from before the first collection is computed, so none is missed in between.
        var updates = live
            ? try store.backend().observerUpdates(AnchoredPlan(parts: [.init(type: plan.type, filter: plan.filter)], limit: nil)).makeAsyncIterator()
            : nil
        if updates != nil { _ = try await updates?.next() }   // the start
        var current = try await compute(plan, intervals: intervals, on: store)
        guard !Task.isCancelled else { return }
        first(current.collection)
        guard updates != nil else { return }
        while let _ = try await updates?.next() {
            let next = try await compute(plan, intervals: intervals, on: store)
            let changed = next.changes(since: current, plan: plan, intervals: intervals)
            current = next
            guard !changed.isEmpty, !Task.isCancelled else { continue }
            update(next.collection, changed)
        }
    }

    /// Computes the collection where the store's backend computes it: in this process, or in the daemon (shared with
    /// `HKStatisticsCollectionQueryDescriptor`).
    static func compute(_ plan: StatisticsPlan, intervals: StatisticsIntervals, on store: HKHealthStore) async throws -> Computed {
        try await store.backend().statisticsCollection(plan, intervals: intervals, mergeMode: store.configuration.statisticsMergeMode)
    }

    /// The collection of the samples an app may see, merged by `mergeMode`.
    static func compute(_ plan: StatisticsPlan, intervals: StatisticsIntervals, loaded: StatisticsSamples,
                        mergeMode: HKStatisticsMergeMode) -> Computed {
        let ref = { (t: Double) in Date(timeIntervalSinceReferenceDate: t) }
        let rangeStart = plan.window.start ?? loaded.samples.map(\.start).min().map(ref)
        // The range's end: the window's (exclusive) or the latest instant any sample touches.
        let lastTouched = loaded.samples.map { max($0.end, $0.start) }.max().map(ref)
        guard let rangeStart, let rangeEnd = plan.window.end ?? lastTouched, rangeStart <= rangeEnd else {
            let empty = HKStatisticsCollection(intervals: intervals, quantityType: plan.type, options: plan.options,
                                               range: nil, populated: [:])
            return Computed(collection: empty, byInterval: [:])
        }
        let first = intervals.index(containing: rangeStart)
        var last = intervals.index(containing: rangeEnd)
        if plan.window.end != nil, intervals.start(of: last) == rangeEnd, last > first { last -= 1 }
        if plan.window.end == nil, intervals.start(of: last) == rangeEnd, last > first,
           !loaded.samples.contains(where: { ref($0.start) == rangeEnd }) {
            last -= 1  // samples ending exactly on a boundary do not open the next interval
        }
        // Only the intervals a sample reaches are computed: the empty ones between are made when asked for, so a
        // sample in 9999 costs one more interval, not every hour up to it.
        let runs = intervals.runs(touchedBy: touchedSpans(loaded.samples, plan: plan, from: rangeStart, to: rangeEnd), within: first...last)
        // Borders of each run's intervals; between two runs, one gap bucket nothing falls in.
        var borders: [Double] = [], interval: [Int?] = []
        for (n, run) in runs.enumerated() {
            if n > 0 { interval.append(nil) }
            for k in run {
                borders.append(intervals.start(of: k).timeIntervalSinceReferenceDate)
                interval.append(k)
            }
            borders.append(intervals.start(of: run.upperBound + 1).timeIntervalSinceReferenceDate)
        }
        if let start = plan.window.start, !borders.isEmpty { borders[0] = max(borders[0], start.timeIntervalSinceReferenceDate) }
        if let end = plan.window.end, !borders.isEmpty { borders[borders.count - 1] = min(borders[borders.count - 1], end.timeIntervalSinceReferenceDate) }
        let buckets = plan.calculator(mergeMode: mergeMode).compute(loaded.samples, borders: borders)
        var byInterval: [Int: (StatisticsCalculator.Bucket?, HKStatistics)] = [:]
        var populated: [Int: HKStatistics] = [:]
        for (offset, bucket) in buckets.enumerated() where bucket.merged != nil {
            guard let k = interval[offset] else { continue }
            let dates = intervals.interval(k)
            let statistics = plan.statistics(bucket, start: dates.start, end: dates.end, sources: loaded.sources)
            populated[k] = statistics
            byInterval[k] = (bucket, statistics)
        }
        let collection = HKStatisticsCollection(intervals: intervals, quantityType: plan.type, options: plan.options,
                                                range: first...last, populated: populated)
        return Computed(collection: collection, byInterval: byInterval)
    }

    /// What of each sample can reach an interval within `[from, to]`: its whole span for sums and durations; for
    /// the other statistics, which count a sample in the interval of its start, that instant.
    private static func touchedSpans(_ samples: [StatisticsCalculator.Sample], plan: StatisticsPlan, from: Date, to: Date) -> [(start: Date, end: Date)] {
        let spanning = plan.type.aggregationStyle == .cumulative || plan.options.contains(.duration)
        let (lower, upper) = (from.timeIntervalSinceReferenceDate, to.timeIntervalSinceReferenceDate)
        return samples.compactMap { sample in
            let ref = { (t: Double) in Date(timeIntervalSinceReferenceDate: t) }
            guard spanning, sample.end > sample.start else {
                return sample.start >= lower && sample.start <= upper ? (ref(sample.start), ref(sample.start)) : nil
            }
            guard sample.end > lower, sample.start <= upper else { return nil }
            return (ref(max(sample.start, lower)), ref(min(sample.end, upper)))
        }
    }
}

extension HKStatisticsCollectionQuery: ExecutableQuery {
    func start(on store: HKHealthStore) {
        let type = objectType as! HKQuantityType
        let setup = Result { () throws -> (StatisticsPlan, StatisticsIntervals) in
            (try StatisticsPlan(type: type, predicate: predicate, options: options),
             try StatisticsIntervals(anchor: anchorDate, components: intervalComponents, calendar: calendar))
        }
        let started = Task.detached { [self] in
            do {
                let (plan, intervals) = try setup.get()
                try await Self.run(plan, intervals: intervals, on: store, live: statisticsUpdateHandler != nil) { collection in
                    initialResultsHandler?(self, collection, nil)
                } update: { collection, changed in
                    for statistics in changed { statisticsUpdateHandler?(self, statistics, collection, nil) }
                }
            } catch {
                guard !Task.isCancelled else { return }
                if let handler = initialResultsHandler { handler(self, nil, error) }
                else { statisticsUpdateHandler?(self, nil, nil, error) }
            }
        }
        task.withLock { $0 = started }
    }

    func stop() {
        task.withLock { $0?.cancel() }
    }
}
