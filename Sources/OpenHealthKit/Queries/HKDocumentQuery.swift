public import Foundation
import HealthStore
import Synchronization

/// Health documents (CDA) matching a predicate, delivered in batches: the handler runs once per batch, the last one
/// with `done` true (once with an empty list when nothing matches).
///
/// ```swift
/// let query = HKDocumentQuery(documentType: HKDocumentType(.CDA), predicate: nil, limit: HKObjectQueryNoLimit,
///                             sortDescriptors: nil, includeDocumentData: false) { _, documents, done, error in
///     for case let sample as HKCDADocumentSample in documents ?? [] { print(sample.document?.title ?? "") }
/// }
/// store.execute(query)
/// ```
///
/// Without `includeDocumentData`, each document comes with its title and names but `documentData` nil. Predicates
/// are the sample predicates (`predicateForSamples`, sources, UUIDs, metadata…); HealthKit's format-string
/// predicates on CDA key paths cannot be compiled and are `errorInvalidArgument`. Privacy as `HKSampleQuery`.
open class HKDocumentQuery: HKQuery, @unchecked Sendable {
    // @unchecked: set-once properties; the handler is @Sendable; `task` is behind a Mutex.

    public typealias ResultsHandler = @Sendable (HKDocumentQuery, [HKDocumentSample]?, Bool, (any Error)?) -> Void

    /// The most documents to return; `HKObjectQueryNoLimit` (0) for all.
    public let limit: Int
    /// How to sort: by `HKSampleSortIdentifierStartDate` or `HKSampleSortIdentifierEndDate` (start date, ascending,
    /// when nil).
    public let sortDescriptors: [NSSortDescriptor]?
    /// Whether each document carries its XML.
    public let includeDocumentData: Bool
    private let resultsHandler: ResultsHandler
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// Documents per handler call.
    static let batchSize = 50

    public init(documentType: HKDocumentType, predicate: NSPredicate?, limit: Int, sortDescriptors: [NSSortDescriptor]?,
                includeDocumentData: Bool, resultsHandler: @escaping ResultsHandler) {
        self.limit = limit
        self.sortDescriptors = sortDescriptors
        self.includeDocumentData = includeDocumentData
        self.resultsHandler = resultsHandler
        super.init(objectType: documentType, predicate: predicate)
    }
}

extension HKDocumentQuery: ExecutableQuery {
    func start(on store: HKHealthStore) {
        let plan = Result {
            try SampleQueryPlan(type: objectType as! HKSampleType, predicate: predicate, limit: limit,
                                order: try SampleQueryPlan.order(sortDescriptors ?? []))
        }
        let started = Task.detached { [self] in
            do {
                var documents = try await plan.get().run(on: store).compactMap { $0 as? HKCDADocumentSample }
                if !includeDocumentData { documents = documents.map { $0.withoutDocumentData() } }
                guard !documents.isEmpty else {
                    guard !Task.isCancelled else { return }
                    return resultsHandler(self, [], true, nil)
                }
                for start in stride(from: 0, to: documents.count, by: Self.batchSize) {
                    guard !Task.isCancelled else { return }
                    let end = min(start + Self.batchSize, documents.count)
                    resultsHandler(self, Array(documents[start..<end]), end == documents.count, nil)
                }
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
