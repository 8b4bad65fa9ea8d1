public import Foundation
import HealthStore
import Synchronization

/// The person's verifiable health records (SMART Health Cards) of some types, shared with the app once: the matching
/// records are put before the person (the store's presenter), who chooses which to share. Closing the sheet fails
/// the query with `errorUserCanceled`. The sheet is shown even when nothing matches (the person sees that there is
/// nothing to share): an app cannot tell "no such records" from "none shared", by the answer or by how soon it comes.
///
/// ```swift
/// let query = HKVerifiableClinicalRecordQuery(recordTypes: ["https://smarthealth.cards#immunization"], predicate: nil) {
///     _, records, error in
///     for record in records ?? [] { verify(record.dataRepresentation) }
/// }
/// store.execute(query)
/// ```
///
/// The app must declare a clinical usage description (`NSHealthClinicalHealthRecordsShareUsageDescription`).
open class HKVerifiableClinicalRecordQuery: HKQuery, @unchecked Sendable {
    // @unchecked: set-once properties; the handler is @Sendable; `task` is behind a Mutex.

    public typealias ResultsHandler = @Sendable (HKVerifiableClinicalRecordQuery, [HKVerifiableClinicalRecord]?, (any Error)?) -> Void

    /// The `vc.type` URIs asked for (a record matches when it has one of them).
    public let recordTypes: [String]
    /// The source types asked for (all when empty).
    public let sourceTypes: [HKVerifiableClinicalRecordSourceType]
    private let resultsHandler: ResultsHandler
    private let task = Mutex<Task<Void, Never>?>(nil)

    public convenience init(recordTypes: [String], predicate: NSPredicate?, resultsHandler: @escaping ResultsHandler) {
        self.init(recordTypes: recordTypes, sourceTypes: [], predicate: predicate, resultsHandler: resultsHandler)
    }

    public init(recordTypes: [String], sourceTypes: [HKVerifiableClinicalRecordSourceType], predicate: NSPredicate?,
                resultsHandler: @escaping ResultsHandler) {
        self.recordTypes = recordTypes
        self.sourceTypes = sourceTypes
        self.resultsHandler = resultsHandler
        super.init(objectType: nil, predicate: predicate)
    }

    /// Finds the matching records and lets the person choose (shared with the descriptor): in this process or in the
    /// daemon, as the store's backend answers.
    static func share(recordTypes: [String], sourceTypes: [String], predicate: NSPredicate?, on store: HKHealthStore) async throws -> [HKVerifiableClinicalRecord] {
        let filter = try SampleFilter(optional: predicate)
        return try await store.backend().verifiableRecords(types: recordTypes, sourceTypes: sourceTypes, matching: filter)
    }
}

extension HKVerifiableClinicalRecordQuery: ExecutableQuery {
    func start(on store: HKHealthStore) {
        let predicate = UncheckedPredicate(predicate), recordTypes = recordTypes, sourceTypes = sourceTypes.map(\.rawValue)
        let started = Task.detached { [self] in
            do {
                let records = try await Self.share(recordTypes: recordTypes, sourceTypes: sourceTypes, predicate: predicate.value, on: store)
                guard !Task.isCancelled else { return }
                resultsHandler(self, records, nil)
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
