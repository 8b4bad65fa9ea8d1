public import Foundation
import HealthStore
import Synchronization

/// The medications the person tracks and shared with the app, each with what they set for it (HealthKit's
/// `HKUserAnnotatedMedicationQuery`, iOS 26). The results handler is called once per medication, in the order the person
/// added them, then once more with `done` true and no medication; on a failure, once with the error.
///
/// ```swift
/// let active = HKQuery.predicateForUserAnnotatedMedications(isArchived: false)
/// let query = HKUserAnnotatedMedicationQuery(predicate: active, limit: HKObjectQueryNoLimit) { _, medication, done, error in
///     if let medication { print(medication.medication.displayText) }
/// }
/// store.execute(query)
/// ```
///
/// An app sees exactly the medications the person chose for it on the sheet of
/// `requestPerObjectReadAuthorization(for: HKObjectType.userAnnotatedMedicationType(), predicate:)`: without any, the query
/// finds none, as if the person tracked none. Only `predicateForUserAnnotatedMedications(isArchived:)` and
/// `(hasSchedule:)` (and their AND / OR / NOT) are accepted; any other predicate is `errorInvalidArgument`.
open class HKUserAnnotatedMedicationQuery: HKQuery, @unchecked Sendable {
    // @unchecked: set-once properties; the handler is @Sendable; `task` is behind a Mutex.

    public typealias ResultsHandler = @Sendable (HKUserAnnotatedMedicationQuery, HKUserAnnotatedMedication?, Bool, (any Error)?) -> Void

    /// At most this many medications (`HKObjectQueryNoLimit`: all).
    public let limit: Int
    private let resultsHandler: ResultsHandler
    private let task = Mutex<Task<Void, Never>?>(nil)

    public init(predicate: NSPredicate?, limit: Int, resultsHandler: @escaping ResultsHandler) {
        self.limit = limit
        self.resultsHandler = resultsHandler
        super.init(objectType: HKObjectType.userAnnotatedMedicationType(), predicate: predicate)
    }

    /// The matching medications the app may read (shared with the descriptor), from this process's store or the daemon.
    static func medications(predicate: NSPredicate?, limit: Int?, on store: HKHealthStore) async throws -> [HKUserAnnotatedMedication] {
        if let limit, limit < 0 { throw HKError.invalidArgument("a query's limit must be 0 (no limit) or more, not \(limit)") }
        let filter = try SampleFilter(optional: predicate)
        _ = try filter?.medicationSQL()  // reject sample predicates before anything runs
        return try await store.backend().userAnnotatedMedications(matching: filter, limit: limit == 0 ? nil : limit)
    }
}

extension HKUserAnnotatedMedicationQuery: ExecutableQuery {
    func start(on store: HKHealthStore) {
        let predicate = UncheckedPredicate(predicate), limit = limit
        let started = Task.detached { [self] in
            do {
                let medications = try await Self.medications(predicate: predicate.value, limit: limit, on: store)
                for medication in medications {
                    guard !Task.isCancelled else { return }
                    resultsHandler(self, medication, false, nil)
                }
                guard !Task.isCancelled else { return }
                resultsHandler(self, nil, true, nil)
            } catch {
                guard !Task.isCancelled else { return }
                resultsHandler(self, nil, true, error)
            }
        }
        task.withLock { $0 = started }
    }

    func stop() {
        task.withLock { $0?.cancel() }
    }
}
