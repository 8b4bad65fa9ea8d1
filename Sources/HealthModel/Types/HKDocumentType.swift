/// A type of sample holding a clinical document, such as a CDA document.
///
/// ```swift
/// let cda = HKDocumentType(.CDA)
/// ```
public final class HKDocumentType: HKSampleType, @unchecked Sendable {
    /// Creates the document type for an identifier; an unknown identifier is a programming error.
    public convenience init(_ identifier: HKDocumentTypeIdentifier) {
        guard let info = HealthCatalog.otherType(identifier.rawValue), info.kind == "document" else {
            preconditionFailure("Unknown document type identifier \"\(identifier.rawValue)\"")
        }
        self.init(identifier: info.identifier)
    }
}
