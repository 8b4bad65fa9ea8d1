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
///
/// `NSSecureCoding`, as HealthKit's: the clinical type, display name and FHIR resource come back with the sample.
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

    // MARK: NSSecureCoding

    private enum Key {
        static let displayName = "displayName"
        static let fhirResource = "fhirResource"
    }

    public override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(displayName, forKey: Key.displayName)
        coder.encodeIfPresent(fhirResource, forKey: Key.fhirResource)
    }

    public required convenience init?(coder: NSCoder) {
        guard case let (sample, type, name, resource)? = coder.decodeValid("HKClinicalRecord", {
            let sample = try CodedSampleFields(coder: coder)
            guard sample.start == sample.end else { throw ArchiveError.invalid("a clinical record's start and end are both when it was received") }
            return (sample, try CodedSampleFields.sampleType(HKClinicalType.self, from: coder), try coder.decode(String.self, forKey: Key.displayName),
                    try coder.decode(HKFHIRResource.self, forKey: Key.fhirResource))
        }) else { return nil }
        self.init(type: type, displayName: name, fhirResource: resource, received: sample.start, uuid: sample.object.uuid,
                  sourceRevision: sample.object.sourceRevision)
    }
}
