public import Foundation
import HealthStore
import Synchronization

/// Correlations (blood pressure, food) found by their own predicate and by predicates on their members: a
/// correlation is returned only when its predicate and, for every entry of `samplePredicates`, at least one
/// member of that type match.
///
/// ```swift
/// let high = HKQuery.predicateForSamples(withStart: weekAgo, end: nil)   // on the members
/// let query = HKCorrelationQuery(type: HKCorrelationType(.bloodPressure), predicate: nil,
///                                samplePredicates: [HKQuantityType(.bloodPressureSystolic): high]) { _, correlations, _ in
///     print(correlations?.count ?? 0)
/// }
/// ```
///
/// A key that is not a member type of the correlation is `errorInvalidArgument`.
open class HKCorrelationQuery: HKQuery, @unchecked Sendable {
    // @unchecked: set-once properties (immutable predicates); `task` is behind a Mutex.

    public let correlationType: HKCorrelationType
    public let samplePredicates: [HKSampleType: NSPredicate]?
    private let completion: @Sendable (HKCorrelationQuery, [HKCorrelation]?, (any Error)?) -> Void
    private let task = Mutex<Task<Void, Never>?>(nil)

    public init(type correlationType: HKCorrelationType, predicate: NSPredicate?, samplePredicates: [HKSampleType: NSPredicate]?,
                completion: @escaping @Sendable (HKCorrelationQuery, [HKCorrelation]?, (any Error)?) -> Void) {
        self.correlationType = correlationType
        self.samplePredicates = samplePredicates
        self.completion = completion
        super.init(objectType: correlationType, predicate: predicate)
    }

    /// The correlation predicate and the member predicates as one filter.
    private func filter() throws -> SampleFilter? {
        var parts: [SampleFilter] = []
        if let own = try SampleFilter(optional: predicate) { parts.append(own) }
        for (type, memberPredicate) in samplePredicates ?? [:] {
            guard correlationType.memberTypeIdentifiers.contains(type.identifier) else {
                throw HKError.invalidArgument("\(type.identifier) is not a member type of \(correlationType.identifier)")
            }
            parts.append(.correlationMember(type: type.identifier, filter: try SampleFilter(memberPredicate)))
        }
        return parts.isEmpty ? nil : parts.count == 1 ? parts[0] : .and(parts)
    }
}

extension HKCorrelationQuery: ExecutableQuery {
    func start(on store: HKHealthStore) {
        let filter = Result { try self.filter() }, type = correlationType
        let started = Task.detached { [self] in
            do {
                let correlations = try await store.backend().samples(of: type, matching: try filter.get(), order: [], limit: nil)
                guard !Task.isCancelled else { return }
                completion(self, correlations.compactMap { $0 as? HKCorrelation }, nil)
            } catch {
                guard !Task.isCancelled else { return }
                completion(self, nil, error)
            }
        }
        task.withLock { $0 = started }
    }

    func stop() {
        task.withLock { $0?.cancel() }
    }
}
