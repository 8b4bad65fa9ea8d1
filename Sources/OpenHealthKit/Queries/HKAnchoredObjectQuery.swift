public import Foundation
import HealthStore
import Synchronization

/// Samples added and objects deleted since an anchor, with the anchor to continue from; with an
/// `updateHandler`, it keeps running and reports each later save or delete of its type.
///
/// ```swift
/// let query = HKAnchoredObjectQuery(type: HKQuantityType(.stepCount), predicate: nil, anchor: savedAnchor,
///                                   limit: HKObjectQueryNoLimit) { _, added, deleted, anchor, error in
///     savedAnchor = anchor
/// }
/// query.updateHandler = { _, added, deleted, anchor, error in savedAnchor = anchor }
/// store.execute(query)
/// ```
///
/// Privacy: without read permission the query sees only the app's own samples and tombstones, and its anchors
/// advance only over those.
public final class HKAnchoredObjectQuery: HKQuery, @unchecked Sendable {
    // @unchecked: set-once properties; the mutable handler and task are behind Mutexes.

    public typealias Handler = @Sendable (HKAnchoredObjectQuery, [HKSample]?, [HKDeletedObject]?, HKQueryAnchor?, (any Error)?) -> Void

    private let anchor: HKQueryAnchor?
    private let limit: Int
    private let resultsHandler: Handler
    private let handler = Mutex<Handler?>(nil)
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// Called after the first results for every later change, until the query is stopped. Set it before executing.
    public var updateHandler: Handler? {
        get { handler.withLock { $0 } }
        set { handler.withLock { $0 = newValue } }
    }

    public init(type: HKSampleType, predicate: NSPredicate?, anchor: HKQueryAnchor?, limit: Int, resultsHandler: @escaping Handler) {
        self.anchor = anchor
        self.limit = limit
        self.resultsHandler = resultsHandler
        super.init(objectType: type, predicate: predicate)
    }
}

extension HKAnchoredObjectQuery: ExecutableQuery {
    func start(on store: HKHealthStore) {
        let type = objectType as! HKSampleType
        let limit = self.limit
        let filter = Result { () throws -> SampleFilter? in
            guard limit >= 0 else { throw HKError.invalidArgument("a query's limit is \(limit); it must be 0 (no limit) or more") }
            return try SampleFilter(optional: predicate)
        }
        let startPosition = anchor?.position ?? .start
        let started = Task.detached { [self] in
            do {
                let filter = try filter.get()
                let updates = updateHandler == nil ? nil : try store.sampleStore().changes.subscribe()
                let fetch = { (position: AnchorPosition, limit: Int?) throws -> AnchoredChanges in
                    try store.sampleStore().anchoredChanges([(type, filter)], visibleTo: store.configuration.app.bundleIdentifier,
                                                            after: position, limit: limit)
                }
                var changes = try fetch(startPosition, limit == HKObjectQueryNoLimit ? nil : limit)
                guard !Task.isCancelled else { return }
                resultsHandler(self, changes.samples, changes.deleted, HKQueryAnchor(changes.position), nil)
                guard let updates else { return }
                for await types in updates where types.contains(type.identifier) {
                    let next = try fetch(changes.position, nil)
                    guard !Task.isCancelled else { return }
                    guard !next.samples.isEmpty || !next.deleted.isEmpty else { continue }
                    changes = next
                    updateHandler?(self, next.samples, next.deleted, HKQueryAnchor(next.position), nil)
                }
            } catch {
                guard !Task.isCancelled else { return }
                resultsHandler(self, nil, nil, nil, error)
            }
        }
        task.withLock { $0 = started }
    }

    func stop() {
        task.withLock { $0?.cancel() }
    }
}
