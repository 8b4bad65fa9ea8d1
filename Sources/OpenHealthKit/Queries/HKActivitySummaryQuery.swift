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

    func fetch(on store: HKHealthStore, after revision: Int? = nil) throws -> ActivitySummaryStore.Snapshot {
        try ActivitySummaryStore(database: store.sampleStore().database)
            .summaries(matching: filter, visibleTo: store.configuration.app.bundleIdentifier, after: revision)
    }

    /// The matching summaries, from the store behind `store` (embedded or the daemon).
    func summaries(on store: HKHealthStore) async throws -> [HKActivitySummary] {
        try await store.backend().activitySummaries(matching: filter)
    }

    /// The matching summaries, then — when `live` — the new or changed ones after each write, until the task is
    /// cancelled. Through the daemon the updates do not come yet: after the first results, `live` ends with an error
    /// saying so.
    func run(on store: HKHealthStore, live: Bool,
             first: ([HKActivitySummary]) -> Void, update: ([HKActivitySummary]) -> Void) async throws {
        guard try store.backend() is EmbeddedBackend else {
            let summaries = try await summaries(on: store)
            guard !Task.isCancelled else { return }
            first(summaries)
            if live { throw HKError(.errorHealthDataUnavailable, "activity summary updates do not come through the health daemon yet") }
            return
        }
        let updates = live ? try store.sampleStore().changes.subscribe() : nil
        var snapshot = try fetch(on: store)
        guard !Task.isCancelled else { return }
        first(snapshot.summaries)
        guard let updates else { return }
        for await change in updates where change.touches(ActivitySummaryStore.typeIdentifier) {
            let next = try fetch(on: store, after: snapshot.revision)
            guard !Task.isCancelled else { return }
            snapshot = next
            guard !next.summaries.isEmpty else { continue }
            update(next.summaries)
        }
    }
}
