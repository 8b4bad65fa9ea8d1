public import Foundation

/// One FHIR resource from a health institution, as a read-only sample: an allergy, a condition, a lab result…
/// Its start and end dates are both the time the record was received, not any clinical date (that is in the JSON).
///
/// ```swift
/// for case let record as HKClinicalRecord in samples {
///     print(record.displayName, record.fhirResource?.resourceType ?? "")
/// }
/// ```
///
/// Apps cannot create or save clinical records; the person imports them (`HealthPerson.importClinicalRecords`).
public final class HKClinicalRecord: HKSample, @unchecked Sendable {
    /// The record's clinical type.
    public var clinicalType: HKClinicalType { sampleType as! HKClinicalType }
    /// The name the Health app shows for the record.
    public let displayName: String
    /// The FHIR resource.
    public let fhirResource: HKFHIRResource?

    package init(type: HKClinicalType, displayName: String, fhirResource: HKFHIRResource, received: Date, uuid: UUID = UUID(),
                 sourceRevision: HKSourceRevision = HKObject.unsavedRevision) {
        self.displayName = displayName
        self.fhirResource = fhirResource
        super.init(sampleType: type, start: received, end: received, uuid: uuid, metadata: nil, sourceRevision: sourceRevision, device: nil)
    }
}
