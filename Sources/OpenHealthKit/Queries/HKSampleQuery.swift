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
public final class HKSampleQuery: HKQuery, @unchecked Sendable {
    // @unchecked: the stored properties are set once; the handler is @Sendable; `task` is behind a Mutex.

    /// The most samples to return; `HKObjectQueryNoLimit` (0) for all.
    public let limit: Int
    /// How to sort: by `HKSampleSortIdentifierStartDate` or `HKSampleSortIdentifierEndDate`.
    public let sortDescriptors: [NSSortDescriptor]?
    private let resultsHandler: @Sendable (HKSampleQuery, [HKSample]?, (any Error)?) -> Void
    private let task = Mutex<Task<Void, Never>?>(nil)

    public init(
        sampleType: HKSampleType, predicate: NSPredicate?, limit: Int, sortDescriptors: [NSSortDescriptor]?,
        resultsHandler: @escaping @Sendable (HKSampleQuery, [HKSample]?, (any Error)?) -> Void
    ) {
        self.limit = limit
        self.sortDescriptors = sortDescriptors
        self.resultsHandler = resultsHandler
        super.init(objectType: sampleType, predicate: predicate)
    }
}

extension HKSampleQuery: ExecutableQuery {
    func start(on store: HKHealthStore) {
        let plan = Result { try SampleQueryPlan(type: objectType as! HKSampleType, predicate: predicate, limit: limit,
                                                order: try SampleQueryPlan.order(sortDescriptors ?? [])) }
        let started = Task.detached { [self] in
            do {
                let samples = try plan.get().run(on: store)
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
