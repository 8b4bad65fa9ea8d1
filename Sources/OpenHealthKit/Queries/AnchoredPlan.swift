import Foundation
package import HealthStore

/// An anchored query ready to run (shared by `HKAnchoredObjectQuery` and its descriptor, in an app or in the daemon):
/// the types with their compiled predicates and the limit, all Sendable.
package struct AnchoredPlan: Sendable {
    package let queries: [QueryPart]
    package let limit: Int?

    /// One type and its compiled predicate.
    package struct QueryPart: Sendable {
        package let type: HKSampleType
        package let filter: SampleFilter?

        package init(type: HKSampleType, filter: SampleFilter?) {
            self.type = type
            self.filter = filter
        }
    }

    init(_ parts: [(HKSampleType, NSPredicate?)], limit: Int) throws {
        guard limit >= 0 else { throw HKError.invalidArgument("a query's limit is \(limit); it must be 0 (no limit) or more") }
        guard !parts.isEmpty else { throw HKError.invalidArgument("a query needs at least one query descriptor") }
        self.queries = try parts.map { QueryPart(type: $0.0, filter: try SampleFilter(optional: $0.1)) }
        self.limit = limit == HKObjectQueryNoLimit ? nil : limit
    }

    /// A plan of compiled parts (the daemon's, from an app's request).
    package init(parts: [QueryPart], limit: Int?) {
        self.queries = parts
        self.limit = limit
    }

    var typeIdentifiers: Set<String> { Set(queries.map(\.type.identifier)) }

    /// One answer as the app gets it: what changed, and the sealed anchor to continue from.
    package struct Answer: Sendable {
        package let samples: [HKSample]
        package let deleted: [HKDeletedObject]
        /// Where the next query continues (never shown to the app); `nil` when the daemon answered.
        let position: AnchorPosition?
        /// The anchor the app gets for `position`.
        package let anchor: HKQueryAnchor
        /// The integer anchor of the deprecated API for `position`.
        package let integerAnchor: Int

        init(samples: [HKSample], deleted: [HKDeletedObject], position: AnchorPosition?, anchor: HKQueryAnchor, integerAnchor: Int) {
            self.samples = samples
            self.deleted = deleted
            self.position = position
            self.anchor = anchor
            self.integerAnchor = integerAnchor
        }
    }

    /// What changed after `anchor` (from the start when nil) as the store's app may see it, once: in this process or
    /// in the daemon, as the store's backend answers.
    func fetch(on store: HKHealthStore, after anchor: HKQueryAnchor?) async throws -> Answer {
        try await store.backend().anchoredChanges(self, after: anchor)
    }

    /// What changed after `position` as `app` may see it, with the anchor sealed for it.
    func fetch(from samples: SampleStore, app: String, after position: AnchorPosition, limit: Int?, seal: AnchorSeal) throws -> Answer {
        let changes = try samples.anchoredChanges(queries.map { ($0.type, $0.filter) }, visibleTo: app, after: position, limit: limit)
        return Answer(samples: changes.samples, deleted: changes.deleted, position: changes.position,
                      anchor: HKQueryAnchor(.sealed(seal.seal(changes.position))),
                      integerAnchor: seal.value(ofSample: changes.position.sample))
    }

    /// The first answer, then one per later change that the app can see, until the task is cancelled. `first`
    /// and `update` get each answer; updates are unlimited.
    func run(on store: HKHealthStore, from anchor: HKQueryAnchor?, live: Bool,
             first: (Answer) -> Void, update: (Answer) -> Void) async throws {
        guard live else {
            let answer = try await fetch(on: store, after: anchor)
            guard !Task.isCancelled else { return }
            return first(answer)
        }
        var isFirst = true
        for try await answer in try store.backend().anchoredUpdates(self, after: anchor) {
            guard !Task.isCancelled else { return }
            if isFirst { first(answer) } else { update(answer) }
            isFirst = false
        }
    }
}
