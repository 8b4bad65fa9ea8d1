public import Foundation
import HealthStore
import Synchronization

/// The person's activity summaries — one per day, with the move, exercise and stand rings and their goals. With an
/// `updateHandler`, it keeps running and reports each new or changed summary that matches.
///
/// ```swift
/// var start = calendar.dateComponents([.era, .year, .month, .day], from: weekAgo)
/// start.calendar = calendar
/// var end = calendar.dateComponents([.era, .year, .month, .day], from: .now)
/// end.calendar = calendar
/// let query = HKActivitySummaryQuery(predicate: HKQuery.predicate(forActivitySummariesBetweenStart: start, end: end)) { _, summaries, error in
///     for summary in summaries ?? [] { print(summary.activeEnergyBurned) }
/// }
/// query.updateHandler = { _, changed, _ in print("\(changed?.count ?? 0) days changed") }
/// store.execute(query)
/// ```
///
/// Summaries come in day order. An app without read permission for `HKObjectType.activitySummaryType()` gets an
/// empty list and never an update — as if the person had no summaries. Only activity summary predicates (and their
/// AND / OR / NOT) are accepted; any other is `errorInvalidArgument`.
open class HKActivitySummaryQuery: HKQuery, @unchecked Sendable {
    // @unchecked: set-once properties; the mutable handler and task are behind Mutexes.

    public typealias Handler = @Sendable (HKActivitySummaryQuery, [HKActivitySummary]?, (any Error)?) -> Void

    private let resultsHandler: Handler
    private let handler = Mutex<Handler?>(nil)
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// Called after the first results with the summaries that were added or changed, until the query is stopped.
    /// Set it before executing.
    public var updateHandler: Handler? {
        get { handler.withLock { $0 } }
        set { handler.withLock { $0 = newValue } }
    }

    public init(predicate: NSPredicate?, resultsHandler handler: @escaping Handler) {
        self.resultsHandler = handler
        super.init(objectType: HKObjectType.activitySummaryType(), predicate: predicate)
    }
}

extension HKActivitySummaryQuery: ExecutableQuery {
    func start(on store: HKHealthStore) {
        let plan = Result { try ActivitySummaryPlan(predicate: predicate) }
        let started = Task.detached { [self] in
            var answered = false
            do {
                try await plan.get().run(on: store, live: updateHandler != nil) { first in
                    answered = true
                    resultsHandler(self, first, nil)
                } update: { changed in
                    updateHandler?(self, changed, nil)
                }
            } catch {
                guard !Task.isCancelled else { return }
                // Once the results were given, a failure is the updates' to report.
                if answered { updateHandler?(self, nil, error) } else { resultsHandler(self, nil, error) }
            }
        }
        task.withLock { $0 = started }
    }

    func stop() {
        task.withLock { $0?.cancel() }
    }
}

/// An activity summary query ready to run (shared by `HKActivitySummaryQuery` and its descriptor).
struct ActivitySummaryPlan: Sendable {
    let filter: SampleFilter?

    init(predicate: NSPredicate?) throws {
        filter = try SampleFilter(optional: predicate)
        _ = try filter?.activitySummarySQL()  // reject sample predicates before anything runs
    }

    /// The matching summaries, from the store behind `store` (embedded or the daemon).
    func summaries(on store: HKHealthStore) async throws -> [HKActivitySummary] {
        try await store.backend().activitySummaries(matching: filter)
    }

    /// The matching summaries, then — when `live` — the new or changed ones after each write, until the task is
    /// cancelled (from the engine in this process, or the daemon's stream).
    func run(on store: HKHealthStore, live: Bool,
             first: ([HKActivitySummary]) -> Void, update: ([HKActivitySummary]) -> Void) async throws {
        guard live else {
            let summaries = try await summaries(on: store)
            guard !Task.isCancelled else { return }
            return first(summaries)
        }
        var answered = false
        for try await summaries in try store.backend().activitySummaryUpdates(matching: filter) {
            guard !Task.isCancelled else { return }
            if answered { update(summaries) } else { first(summaries) }
            answered = true
        }
    }
}
