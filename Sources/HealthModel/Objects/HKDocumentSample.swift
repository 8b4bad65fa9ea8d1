public import Foundation

/// The abstract base of samples holding a document (`HKCDADocumentSample` is the one kind HealthKit has).
/// Only its concrete subclasses decode (`NSSecureCoding`).
public class HKDocumentSample: HKSample, @unchecked Sendable {
    /// The sample's document type.
    public var documentType: HKDocumentType { sampleType as! HKDocumentType }
}
