/// A type of sample grouping other samples, such as a blood pressure reading (systolic + diastolic)
/// or a food (its nutrients).
///
/// ```swift
/// let bloodPressure = HKCorrelationType(.bloodPressure)
/// ```
public final class HKCorrelationType: HKSampleType, @unchecked Sendable {
    /// Creates the correlation type for an identifier; an unknown identifier is a programming error.
    public convenience init(_ identifier: HKCorrelationTypeIdentifier) {
        guard let info = HealthCatalog.otherType(identifier.rawValue), info.kind == "correlation" else {
            preconditionFailure("Unknown correlation type identifier \"\(identifier.rawValue)\"")
        }
        self.init(identifier: info.identifier)
    }

    /// Identifiers of the sample types a correlation of this type may hold.
    package var memberTypeIdentifiers: Set<String> {
        HealthCatalog.correlationMemberTypes(identifier) ?? []
    }
}
