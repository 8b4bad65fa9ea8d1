public import Foundation

/// An `HKVerifiableClinicalRecordQuery` with Swift concurrency: the records the person chooses to share.
///
/// ```swift
/// let records = try await HKVerifiableClinicalRecordQueryDescriptor(recordTypes: [.immunization], sourceTypes: [.smartHealthCard])
///     .result(for: store)
/// ```
public struct HKVerifiableClinicalRecordQueryDescriptor: HKAsyncQuery, @unchecked Sendable {
    // @unchecked: the NSPredicate is immutable once made by HKQuery.

    public var recordTypes: [HKVerifiableClinicalRecordCredentialType]
    public var sourceTypes: [HKVerifiableClinicalRecordSourceType]
    public var predicate: NSPredicate?

    public init(recordTypes: [HKVerifiableClinicalRecordCredentialType], sourceTypes: [HKVerifiableClinicalRecordSourceType],
                predicate: NSPredicate? = nil) {
        self.recordTypes = recordTypes
        self.sourceTypes = sourceTypes
        self.predicate = predicate
    }

    public func result(for healthStore: HKHealthStore) async throws -> [HKVerifiableClinicalRecord] {
        try await HKVerifiableClinicalRecordQuery.share(recordTypes: recordTypes.map(\.rawValue), sourceTypes: sourceTypes.map(\.rawValue),
                                                        predicate: predicate, on: healthStore)
    }
}
