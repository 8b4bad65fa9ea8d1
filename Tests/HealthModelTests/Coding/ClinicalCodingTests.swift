import Foundation
import Testing
@testable import HealthModel

/// Clinical records, verifiable records and CDA documents archive what was read from them.
@Suite("Clinical coding")
struct ClinicalCodingTests {
    typealias F = CodingFixtures

    static let resource = HKFHIRResource(
        resourceType: .observation, identifier: "obs-42", data: Data(#"{"resourceType":"Observation","id":"obs-42"}"#.utf8),
        sourceURL: URL(string: "https://fhir.example.org/r4/Observation/obs-42"), fhirVersion: .primaryR4())

    @Test func aClinicalRecordComesBackWithItsFHIRResource() throws {
        let record = HKClinicalRecord(type: HKClinicalType(.labResultRecord), displayName: "Hemoglobin A1c", fhirResource: Self.resource,
                                      received: F.start, sourceRevision: F.revision)
        let back = try #require(try roundTrip(record))
        #expect(back == record && back.clinicalType == HKClinicalType(.labResultRecord) && back.displayName == "Hemoglobin A1c")
        let resource = try #require(back.fhirResource)
        #expect(resource == Self.resource && resource.data == Self.resource.data && resource.sourceURL == Self.resource.sourceURL)
        #expect(resource.fhirVersion.fhirRelease == .r4 && back.startDate == F.start && back.endDate == F.start)
    }

    @Test func aFHIRResourceWithoutURLAndItsVersionComeBack() throws {
        let resource = HKFHIRResource(resourceType: .immunization, identifier: "imm-1", data: Data("{}".utf8), sourceURL: nil,
                                      fhirVersion: .primaryDSTU2())
        #expect(try roundTrip(resource) == resource)
        let version = try HKFHIRVersion(fromVersionString: "3.0.2")
        #expect(try roundTrip(version) == version)
    }

    @Test func aVerifiableRecordComesBackWithItsSubject() throws {
        let subject = HKVerifiableClinicalRecordSubject(fullName: "Jane Q. Public", dateOfBirthComponents: DateComponents(year: 1961, month: 1))
        let record = HKVerifiableClinicalRecord(
            recordTypes: ["https://smarthealth.cards#health-card", "https://smarthealth.cards#immunization"],
            issuerIdentifier: "https://spec.smarthealth.cards/examples/issuer", subject: subject, issuedDate: F.start,
            relevantDate: F.start.addingTimeInterval(-86_400), expirationDate: F.end, itemNames: ["COVID-19 vaccine", "COVID-19 vaccine"],
            sourceType: .smartHealthCard, dataRepresentation: Data("eyJ.payload.sig".utf8), imported: F.end, sourceRevision: F.revision)
        let back = try #require(try roundTrip(record))
        #expect(back == record && back.recordTypes == record.recordTypes && back.issuerIdentifier == record.issuerIdentifier)
        #expect(back.subject == subject && back.subject.dateOfBirthComponents == DateComponents(year: 1961, month: 1))
        #expect(back.issuedDate == record.issuedDate && back.relevantDate == record.relevantDate && back.expirationDate == F.end)
        #expect(back.itemNames == record.itemNames && back.sourceType == .smartHealthCard && back.dataRepresentation == record.dataRepresentation)
        #expect(back.startDate == F.end && back.sampleType.identifier == HKVerifiableClinicalRecord.sampleTypeIdentifier)
    }

    @Test func aSubjectWithoutDateOfBirthKeepsNone() throws {
        let subject = HKVerifiableClinicalRecordSubject(fullName: "No Birthday", dateOfBirthComponents: nil)
        #expect(try #require(try roundTrip(subject)).dateOfBirthComponents == nil)
        let empty = HKVerifiableClinicalRecordSubject(fullName: "Empty", dateOfBirthComponents: DateComponents())
        #expect(try #require(try roundTrip(empty)).dateOfBirthComponents == DateComponents())
    }

    @Test func aCDADocumentSampleComesBackWithItsDocument() throws {
        for data in [Data("<ClinicalDocument/>".utf8), nil] {
            let document = HKCDADocument(documentData: data, title: "Continuity of Care Document", patientName: "Jane Public",
                                         authorName: "Dr. Who", custodianName: "General Hospital")
            let sample = HKCDADocumentSample(document: document, start: F.start, end: F.end, metadata: nil, device: F.device)
            let back = try #require(try roundTrip(sample))
            let backDocument = try #require(back.document)
            #expect(back == sample && back.documentType == HKDocumentType(.CDA) && back.endDate == F.end && back.device == F.device)
            #expect(backDocument.documentData == data && backDocument.title == document.title && backDocument.patientName == document.patientName)
            #expect(backDocument.authorName == document.authorName && backDocument.custodianName == document.custodianName)
        }
    }

    @Test func aRecordWhoseStartAndEndDifferDoesNotDecode() throws {
        let record = HKClinicalRecord(type: HKClinicalType(.labResultRecord), displayName: "A1c", fhirResource: Self.resource, received: F.start)
        let data = try forgedArchive(of: record, replacing: ["endDate": F.end.timeIntervalSinceReferenceDate])
        #expect(decoded(HKClinicalRecord.self, from: data) == nil)
    }

    @Test func copyingClinicalValuesGivesThemselves() {
        #expect(Self.resource.copy() as? HKFHIRResource === Self.resource)
        #expect(Self.resource.fhirVersion.copy() as? HKFHIRVersion === Self.resource.fhirVersion)
    }
}
