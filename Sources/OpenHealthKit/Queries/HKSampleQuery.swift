public import Foundation
import HealthStore
import Synchronization

/// A one-shot query for samples of a type: narrowed by a predicate, sorted, limited. Run it with
/// `HKHealthStore.execute(_:)`; the results handler runs once, off the caller's thread.
///
/// ```swift
/// let query = HKSampleQuery(sampleType: HKQuantityType(.heartRate),
///                           predicate: HKQuery.predicateForSamples(withStart: today, end: nil),
///                           limit: 100,
///                           sortDescriptors: [NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: false)]) {
///     _, samples, error in
///     ...
/// }
/// store.execute(query)
/// ```
///
/// Privacy: an app that may not read the type gets only its own samples, as if nobody else had data.
open class HKSampleQuery: HKQuery, @unchecked Sendable {
    // @unchecked: the stored properties are set once; the handler is @Sendable; `task` is behind a Mutex.

    /// The most samples to return; `HKObjectQueryNoLimit` (0) for all.
    public let limit: Int
    /// How to sort: by `HKSampleSortIdentifierStartDate` or `HKSampleSortIdentifierEndDate`.
    public let sortDescriptors: [NSSortDescriptor]?
    private let resultsHandler: @Sendable (HKSampleQuery, [HKSample]?, (any Error)?) -> Void
    private let task = Mutex<Task<Void, Never>?>(nil)
    /// Each type with its predicate (one entry unless made from query descriptors).
    private let parts: [(HKSampleType, NSPredicate?)]

    public init(
        sampleType: HKSampleType, predicate: NSPredicate?, limit: Int, sortDescriptors: [NSSortDescriptor]?,
        resultsHandler: @escaping @Sendable (HKSampleQuery, [HKSample]?, (any Error)?) -> Void
    ) {
        self.limit = limit
        self.sortDescriptors = sortDescriptors
        self.resultsHandler = resultsHandler
        self.parts = [(sampleType, predicate)]
        super.init(objectType: sampleType, predicate: predicate)
    }

    /// Samples of several types, each with its own predicate, in one list sorted by start date.
    public convenience init(queryDescriptors: [HKQueryDescriptor], limit: Int,
                            resultsHandler: @escaping @Sendable (HKSampleQuery, [HKSample]?, (any Error)?) -> Void) {
        self.init(queryDescriptors: queryDescriptors, limit: limit, sortDescriptors: [], resultsHandler: resultsHandler)
    }

    /// Samples of several types, each with its own predicate, in one list sorted as `sortDescriptors` say.
    public init(queryDescriptors: [HKQueryDescriptor], limit: Int, sortDescriptors: [NSSortDescriptor],
                resultsHandler: @escaping @Sendable (HKSampleQuery, [HKSample]?, (any Error)?) -> Void) {
        self.limit = limit
        self.sortDescriptors = sortDescriptors
        self.resultsHandler = resultsHandler
        self.parts = queryDescriptors.map { ($0.sampleType, $0.predicate) }
        super.init(objectType: queryDescriptors.first?.sampleType, predicate: queryDescriptors.first?.predicate)
    }
}

extension HKSampleQuery: ExecutableQuery {
    func start(on store: HKHealthStore) {
        let plans = Result { () throws -> [SampleQueryPlan] in
            guard !parts.isEmpty else { throw HKError.invalidArgument("a query needs at least one query descriptor") }
            let order = try SampleQueryPlan.order(sortDescriptors ?? [])
            return try parts.map { try SampleQueryPlan(type: $0.0, predicate: $0.1, limit: limit, order: order) }
        }
        let started = Task.detached { [self] in
            do {
                let samples = try await SampleQueryPlan.run(try plans.get(), on: store)
                guard !Task.isCancelled else { return }
                resultsHandler(self, samples, nil)
            } catch {
                guard !Task.isCancelled else { return }
                resultsHandler(self, nil, error)
            }
        }
        task.withLock { $0 = started }
    }

    func stop() {
        task.withLock { $0?.cancel() }
    }
}
