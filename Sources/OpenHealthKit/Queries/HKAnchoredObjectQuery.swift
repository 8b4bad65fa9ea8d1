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
/// advance only over those. Anchors are sealed for the app (`HKQueryAnchor`): they count nothing it cannot see.
open class HKAnchoredObjectQuery: HKQuery, @unchecked Sendable {
    // @unchecked: set-once properties; the mutable handler and task are behind Mutexes.

    public typealias Handler = @Sendable (HKAnchoredObjectQuery, [HKSample]?, [HKDeletedObject]?, HKQueryAnchor?, (any Error)?) -> Void

    private let anchor: HKQueryAnchor?
    private let limit: Int
    private let parts: [(HKSampleType, NSPredicate?)]
    private let resultsHandler: Handler
    private let handler = Mutex<Handler?>(nil)
    private let task = Mutex<Task<Void, Never>?>(nil)
    /// The deprecated API's integer anchor for the first results.
    let integerAnchor = Mutex<Int?>(nil)

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
        self.init(type: type, predicate: predicate, anchor: start, limit: limit) { query, samples, _, _, error in
            completionHandler(query, samples, query.integerAnchor.withLock { $0 } ?? anchor, error)
        }
    }
}

/// The integer anchor that starts HealthKit's deprecated `HKAnchoredObjectQuery(type:predicate:anchor:limit:completionHandler:)`
/// from the beginning.
public let HKAnchoredObjectQueryNoAnchor: Int32 = 0

extension HKAnchoredObjectQuery: ExecutableQuery {
    func start(on store: HKHealthStore) {
        let plan = Result { try AnchoredPlan(parts, limit: limit) }
        let started = Task.detached { [self] in
            do {
                try await plan.get().run(on: store, from: anchor, live: updateHandler != nil) { first in
                    integerAnchor.withLock { $0 = first.integerAnchor }
                    resultsHandler(self, first.samples, first.deleted, first.anchor, nil)
                } update: { next in
                    updateHandler?(self, next.samples, next.deleted, next.anchor, nil)
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
