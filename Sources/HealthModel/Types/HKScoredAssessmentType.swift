/// A type of scored questionnaire sample, such as GAD-7 or PHQ-9.
///
/// ```swift
/// let gad7 = HKScoredAssessmentType(.GAD7)
/// ```
public final class HKScoredAssessmentType: HKSampleType, @unchecked Sendable {
    /// Creates the scored assessment type for an identifier; an unknown identifier is a programming error.
    public convenience init(_ identifier: HKScoredAssessmentTypeIdentifier) {
        guard let info = HealthCatalog.otherType(identifier.rawValue), info.kind == "scored-assessment" else {
            preconditionFailure("Unknown scored assessment type identifier \"\(identifier.rawValue)\"")
        }
        self.init(identifier: info.identifier)
    }
}
