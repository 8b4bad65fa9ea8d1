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

    /// One answer as the app gets it: what changed, and the sealed anchor to continue from.
    struct Answer: Sendable {
        let samples: [HKSample]
        let deleted: [HKDeletedObject]
        /// Where the next query continues (never shown to the app).
        let position: AnchorPosition
        /// The anchor the app gets for `position`.
        let anchor: HKQueryAnchor
        /// The integer anchor of the deprecated API for `position`.
        let integerAnchor: Int
    }

    /// What changed after `anchor` (from the start when nil) as the store's app may see it, once.
    func fetch(on store: HKHealthStore, after anchor: HKQueryAnchor?) throws -> Answer {
        let seal = try store.sampleStore().anchorSeal(for: store.configuration.app.bundleIdentifier)
        return try fetch(on: store, after: try anchor?.position(opening: seal) ?? .start, limit: limit, seal: seal)
    }

    private func fetch(on store: HKHealthStore, after position: AnchorPosition, limit: Int?, seal: AnchorSeal) throws -> Answer {
        let changes = try store.sampleStore().anchoredChanges(queries.map { ($0.type, $0.filter) },
                                                              visibleTo: store.configuration.app.bundleIdentifier,
                                                              after: position, limit: limit)
        return Answer(samples: changes.samples, deleted: changes.deleted, position: changes.position,
                      anchor: HKQueryAnchor(.sealed(seal.seal(changes.position))),
                      integerAnchor: seal.value(ofSample: changes.position.sample))
    }

    /// The first answer, then one per later change that the app can see, until the task is cancelled. `first`
    /// and `update` get each answer; updates are unlimited.
    func run(on store: HKHealthStore, from anchor: HKQueryAnchor?, live: Bool,
             first: (Answer) -> Void, update: (Answer) -> Void) async throws {
        let seal = try store.sampleStore().anchorSeal(for: store.configuration.app.bundleIdentifier)
        let start = try anchor?.position(opening: seal) ?? .start
        let updates = live ? try store.sampleStore().changes.subscribe() : nil
        var answer = try fetch(on: store, after: start, limit: limit, seal: seal)
        guard !Task.isCancelled else { return }
        first(answer)
        guard let updates else { return }
        for await change in updates where !change.touched(among: typeIdentifiers).isEmpty {
            let next = try fetch(on: store, after: answer.position, limit: nil, seal: seal)
            guard !Task.isCancelled else { return }
            guard !next.samples.isEmpty || !next.deleted.isEmpty else { continue }
            answer = next
            update(next)
        }
    }
}
