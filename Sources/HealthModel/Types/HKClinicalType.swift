/// A type of clinical record (FHIR resource) from a health institution, such as lab results or immunizations.
/// Clinical types are read-only to apps.
///
/// ```swift
/// let labs = HKClinicalType(.labResultRecord)
/// ```
public final class HKClinicalType: HKSampleType, @unchecked Sendable {
    /// Creates the clinical type for an identifier; an unknown identifier is a programming error.
    public convenience init(_ identifier: HKClinicalTypeIdentifier) {
        guard let info = HealthCatalog.otherType(identifier.rawValue), info.kind == "clinical" else {
            preconditionFailure("Unknown clinical type identifier \"\(identifier.rawValue)\"")
        }
        self.init(identifier: info.identifier)
    }
}
