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
open class HKAnchoredObjectQuery: HKQuery, @unchecked Sendable {
    // @unchecked: set-once properties; the mutable handler and task are behind Mutexes.

    public typealias Handler = @Sendable (HKAnchoredObjectQuery, [HKSample]?, [HKDeletedObject]?, HKQueryAnchor?, (any Error)?) -> Void

    private let anchor: HKQueryAnchor?
    private let limit: Int
    private let parts: [(HKSampleType, NSPredicate?)]
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
        self.parts = [(type, predicate)]
        self.resultsHandler = resultsHandler
        super.init(objectType: type, predicate: predicate)
    }

    /// One query over several types, each with its own predicate; one anchor covers them all.
    public init(queryDescriptors: [HKQueryDescriptor], anchor: HKQueryAnchor?, limit: Int, resultsHandler: @escaping Handler) {
        self.anchor = anchor
        self.limit = limit
        self.parts = queryDescriptors.map { ($0.sampleType, $0.predicate) }
        self.resultsHandler = resultsHandler
        super.init(objectType: queryDescriptors.first?.sampleType, predicate: queryDescriptors.first?.predicate)
    }

    /// HealthKit's first anchored query, with integer anchors (`HKAnchoredObjectQueryNoAnchor` to start): the samples
    /// added since `anchor`, and the anchor to continue from. It reports no deletions.
    @available(*, deprecated, message: "Use init(type:predicate:anchor:limit:resultsHandler:)")
    public convenience init(
        type: HKSampleType, predicate: NSPredicate?, anchor: Int, limit: Int,
        completionHandler: @escaping @Sendable (HKAnchoredObjectQuery, [HKSample]?, Int, (any Error)?) -> Void
    ) {
        let start = anchor == Int(HKAnchoredObjectQueryNoAnchor) ? nil : HKQueryAnchor(fromValue: anchor)
        self.init(type: type, predicate: predicate, anchor: start, limit: limit) { query, samples, _, next, error in
            completionHandler(query, samples, next.map { Int($0.position.sample) } ?? anchor, error)
        }
    }
}

/// The integer anchor that starts HealthKit's deprecated `HKAnchoredObjectQuery(type:predicate:anchor:limit:completionHandler:)`
/// from the beginning.
public let HKAnchoredObjectQueryNoAnchor: Int32 = 0

extension HKAnchoredObjectQuery: ExecutableQuery {
    func start(on store: HKHealthStore) {
        let plan = Result { try AnchoredPlan(parts, limit: limit) }
        let startPosition = anchor?.position ?? .start
        let started = Task.detached { [self] in
            do {
                try await plan.get().run(on: store, from: startPosition, live: updateHandler != nil) { first in
                    resultsHandler(self, first.samples, first.deleted, HKQueryAnchor(first.position), nil)
                } update: { next in
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
