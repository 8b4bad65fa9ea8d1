public import Foundation

/// What the person is asked when an app calls `requestPerObjectReadAuthorization(for:predicate:)`: which objects of a
/// type read object by object (vision prescriptions, the medications the person tracks) the app may read. It lists every matching object, each with
/// whether the app may read it now (by default, those it saved); the answer replaces those choices. The sheet is shown
/// even when nothing matches, so the app cannot learn whether the person has such objects.
public struct ObjectAuthorizationSheet: Sendable {
    /// The app asking.
    public let app: AppManifest
    /// The type asked about (`HKVisionPrescriptionTypeIdentifier`).
    public let typeIdentifier: String
    /// The matching objects, oldest first.
    public let objects: [Candidate]

    /// One object put before the person: a sample (a vision prescription) or a medication the person tracks.
    public struct Candidate: Sendable {
        /// The object's identity on the sheet: the sample's UUID, or the store's UUID of the person's medication.
        public let uuid: UUID
        /// The sample, for a type of samples; `nil` for a medication.
        public let object: HKSample?
        /// The medication, for `HKObjectType.userAnnotatedMedicationType()`; `nil` for a sample.
        public let medication: HKUserAnnotatedMedication?
        /// Whether the app may read it now (the sheet's switch starts so).
        public let allowed: Bool

        public init(object: HKSample, allowed: Bool) {
            self.uuid = object.uuid
            self.object = object
            self.medication = nil
            self.allowed = allowed
        }

        public init(medication: HKUserAnnotatedMedication, uuid: UUID, allowed: Bool) {
            self.uuid = uuid
            self.object = nil
            self.medication = medication
            self.allowed = allowed
        }

        /// The object as people read it: "Glasses prescription, issued 2025-03-01, expires 2027-03-01 (from Optician)",
        /// "Ibuprofen (“Headache pills”), tablet".
        public var summary: String {
            if let object { return ObjectAuthorizationSheet.summary(of: object) }
            return medication?.summary ?? uuid.uuidString
        }
    }

    public init(app: AppManifest, typeIdentifier: String, objects: [Candidate]) {
        self.app = app
        self.typeIdentifier = typeIdentifier
        self.objects = objects
    }

    /// The person's answer.
    public enum Response: Sendable, Hashable {
        /// The app may read these objects (by UUID) among those listed, and none of the others listed. Objects the sheet
        /// did not list are left as they were.
        case allow(Set<UUID>)
        /// The person closed the sheet: nothing changes, and the request fails with `errorUserCanceled`.
        case dismissed
    }

    /// A one-line description of an object on the sheet.
    public static func summary(of object: HKSample) -> String {
        let day = Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!).year().month().day()
        let source = object.sourceRevision.source.name
        guard let prescription = object as? HKVisionPrescription else {
            return "\(object.sampleType.identifier) of \(object.startDate.formatted(day)) (from \(source))"
        }
        var text = prescription.prescriptionType == .contacts ? "Contacts prescription" : "Glasses prescription"
        if let brand = prescription.lensBrand, !brand.isEmpty { text += " (\(brand))" }
        text += ", issued \(prescription.dateIssued.formatted(day))"
        if let expiration = prescription.expirationDate { text += ", expires \(expiration.formatted(day))" }
        return text + " (from \(source))"
    }
}
