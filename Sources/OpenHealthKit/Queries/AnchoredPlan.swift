import Foundation
import HealthStore

/// An anchored query ready to run (shared by `HKAnchoredObjectQuery` and its descriptor): the types with their
/// compiled predicates and the limit, all Sendable.
struct AnchoredPlan: Sendable {
    let queries: [QueryPart]
    let limit: Int?

    /// One type and its compiled predicate.
    struct QueryPart: Sendable {
        let type: HKSampleType
        let filter: SampleFilter?
    }

    init(_ parts: [(HKSampleType, NSPredicate?)], limit: Int) throws {
        guard limit >= 0 else { throw HKError.invalidArgument("a query's limit is \(limit); it must be 0 (no limit) or more") }
        guard !parts.isEmpty else { throw HKError.invalidArgument("a query needs at least one query descriptor") }
        self.queries = try parts.map { QueryPart(type: $0.0, filter: try SampleFilter(optional: $0.1)) }
        self.limit = limit == HKObjectQueryNoLimit ? nil : limit
    }

    var typeIdentifiers: Set<String> { Set(queries.map(\.type.identifier)) }

    /// What changed after `position` as the store's app may see it.
    func fetch(on store: HKHealthStore, after position: AnchorPosition, limit: Int?) throws -> AnchoredChanges {
        try store.sampleStore().anchoredChanges(queries.map { ($0.type, $0.filter) }, visibleTo: store.configuration.app.bundleIdentifier,
                                                after: position, limit: limit)
    }

    /// The first answer, then one per later change that the app can see, until the task is cancelled. `first`
    /// and `update` get each answer; updates are unlimited.
    func run(on store: HKHealthStore, from anchor: AnchorPosition, live: Bool,
             first: (AnchoredChanges) -> Void, update: (AnchoredChanges) -> Void) async throws {
        let updates = live ? try store.sampleStore().changes.subscribe() : nil
        var changes = try fetch(on: store, after: anchor, limit: limit)
        guard !Task.isCancelled else { return }
        first(changes)
        guard let updates else { return }
        for await change in updates where !change.touched(among: typeIdentifiers).isEmpty {
            let next = try fetch(on: store, after: changes.position, limit: nil)
            guard !Task.isCancelled else { return }
            guard !next.samples.isEmpty || !next.deleted.isEmpty else { continue }
            changes = next
            update(next)
        }
    }
}
