import Foundation
import Testing
@testable import HealthModel
@testable import OpenHealthKit

private func resource(_ path: String) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(contentsOf: fhirFixtures.appendingPathComponent(path))) as! [String: Any]
}

private func outcome(_ path: String, _ release: HKFHIRRelease) throws -> FHIRResourceReader.Outcome {
    try FHIRResourceReader.classify(try resource(path), release: release)
}

private func type(_ path: String, _ release: HKFHIRRelease) throws -> HKClinicalTypeIdentifier? {
    if case .record(let type, _) = try outcome(path, release) { return type }
    return nil
}

private func displayName(_ path: String, _ release: HKFHIRRelease) throws -> String? {
    if case .record(_, let name) = try outcome(path, release) { return name }
    return nil
}

private func scratch() -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-clinical-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

private func write(_ object: Any, to url: URL) throws {
    try JSONSerialization.data(withJSONObject: object).write(to: url)
}

@Suite("Clinical records: FHIR mapping")
struct FHIRMappingTests {
    @Test func r4ResourcesMapToTheirClinicalTypes() throws {
        let expected: [(String, HKClinicalTypeIdentifier?)] = [
            ("allergyintolerance-example", .allergyRecord), ("condition-example", .conditionRecord),
            ("condition-example-f201-fever", .conditionRecord), ("coverage-example", .coverageRecord),
            ("diagnosticreport-example-ultrasound", .clinicalNoteRecord), ("diagnosticreport-example-papsmear", .clinicalNoteRecord),
            ("documentreference-example", .clinicalNoteRecord), ("immunization-example", .immunizationRecord),
            ("medicationdispense0301", .medicationRecord), ("medicationrequest0302", .medicationRecord),
            ("medicationstatementexample1", .medicationRecord), ("procedure-example", .procedureRecord),
            ("observation-example-bloodgroup", .labResultRecord), ("observation-example-herd1", .labResultRecord),
            ("observation-example-heart-rate", .vitalSignRecord), ("observation-example-body-temperature", .vitalSignRecord),
            ("observation-example-bloodpressure", .vitalSignRecord),
            ("observation-example-f001-glucose", nil), ("observation-example-alcohol-type", nil), ("explanationofbenefit-example", nil),
        ]
        for (file, clinical) in expected {
            #expect(try type("r4/\(file).json", .r4) == clinical, "\(file)")
        }
        #expect(try outcome("r4/observation-example-alcohol-type.json", .r4) == .ignored("unsupported Observation categories: social-history"))
        #expect(try outcome("r4/patient-example.json", .r4) == .patient(name: "Peter James Chalmers"))
    }

    @Test func dstu2ResourcesMapWithDSTU2sCategorySystem() throws {
        let expected: [(String, HKClinicalTypeIdentifier?)] = [
            ("allergyintolerance-example", .allergyRecord), ("condition-example", .conditionRecord), ("coverage-example", .coverageRecord),
            ("diagnosticreport-example-f001-bloodexam", .clinicalNoteRecord), ("documentreference-example", .clinicalNoteRecord),
            ("immunization-example", .immunizationRecord), ("medicationorder-example-f001-combivent", .medicationRecord),
            ("procedure-example", .procedureRecord), ("observation-example", .vitalSignRecord),
            ("observation-example-f001-glucose", nil), ("observation-example-bloodpressure", nil), ("observation-example-sample-data", nil),
        ]
        for (file, clinical) in expected {
            #expect(try type("dstu2/\(file).canonical.json", .dstu2) == clinical, "\(file)")
        }
        #expect(try type("dstu2/synthetic-medicationstatement-dstu2.json", .dstu2) == .medicationRecord)
        // The R4 system URL does not count in a DSTU2 resource, nor the DSTU2 one in an R4 resource.
        #expect(try type("dstu2/observation-example.canonical.json", .r4) == nil)
    }

    @Test func displayNamesAreWhatTheHealthAppShows() throws {
        #expect(try displayName("r4/allergyintolerance-example.json", .r4) == "Cashew nuts")
        #expect(try displayName("r4/immunization-example.json", .r4) == "Fluvax (Influenza)")
        #expect(try displayName("r4/medicationrequest0302.json", .r4) == "Azithromycin 250mg capsule (product)")
        #expect(try displayName("r4/medicationdispense0301.json", .r4) == "Vancomycin Hydrochloride")
        #expect(try displayName("r4/documentreference-example.json", .r4) == "Outpatient Note")
        #expect(try displayName("r4/coverage-example.json", .r4) == "extended healthcare")
        #expect(try displayName("r4/observation-example-heart-rate.json", .r4) == "Heart rate")
        #expect(try displayName("r4/diagnosticreport-example-papsmear.json", .r4) == "Clinical Note")  // no text or display
        #expect(try displayName("dstu2/medicationorder-example-f001-combivent.canonical.json", .dstu2) == "prescribed medication")
        #expect(try displayName("dstu2/allergyintolerance-example.canonical.json", .dstu2) == "Cashew nuts")
    }

    @Test func theShapeOfAResourceTellsItsRelease() throws {
        #expect(FHIRResourceReader.detectRelease(try resource("dstu2/medicationorder-example-f001-combivent.canonical.json")) == .dstu2)
        #expect(FHIRResourceReader.detectRelease(try resource("r4/medicationrequest0302.json")) == .r4)
        #expect(FHIRResourceReader.detectRelease(try resource("dstu2/observation-example.canonical.json")) == .dstu2)
        #expect(FHIRResourceReader.detectRelease(try resource("r4/observation-example-heart-rate.json")) == .r4)
        #expect(FHIRResourceReader.detectRelease(try resource("dstu2/allergyintolerance-example.canonical.json")) == .dstu2)
        #expect(FHIRResourceReader.detectRelease(try resource("r4/allergyintolerance-example.json")) == .r4)
    }

    @Test func enteredInErrorAndTwoSupportedCategoriesInOneCodingMakeNoRecord() throws {
        var wrong = try resource("r4/condition-example.json")
        wrong["verificationStatus"] = ["coding": [["system": "http://terminology.hl7.org/CodeSystem/condition-ver-status", "code": "entered-in-error"]]]
        #expect(try FHIRResourceReader.classify(wrong, release: .r4) == .ignored("Condition is marked entered-in-error"))
        var both = try resource("r4/observation-example-heart-rate.json")
        let system = FHIRResourceReader.r4CategorySystem
        both["category"] = [["coding": [["system": system, "code": "vital-signs"], ["system": system, "code": "laboratory"]]]]
        #expect(try FHIRResourceReader.classify(both, release: .r4) == .ignored("More than 1 supported Observation category in same R4 coding"))
        both["category"] = [["coding": [["system": system, "code": "laboratory"]]], ["coding": [["system": system, "code": "vital-signs"]]]]
        #expect(try FHIRResourceReader.classify(both, release: .r4) == .record(.vitalSignRecord, displayName: "Heart rate"))
    }

    @Test func fhirVersionsParseAndKnowTheirRelease() throws {
        #expect(try HKFHIRVersion(fromVersionString: "4.0.1").fhirRelease == .r4)
        #expect(try HKFHIRVersion(fromVersionString: "1.0.2").fhirRelease == .dstu2)
        #expect(try HKFHIRVersion(fromVersionString: "3.0.2").fhirRelease == .unknown)
        #expect(HKFHIRVersion.primaryDSTU2().stringRepresentation == "1.0.2" && HKFHIRVersion.primaryR4().stringRepresentation == "4.0.1")
        #expect(throws: HKError.self) { try HKFHIRVersion(fromVersionString: "R4") }
        #expect(throws: HKError.self) { try HKFHIRVersion(fromVersionString: "4..1") }
    }
}

@Suite("Clinical records: the person's import (apps read them on both backends in HealthServerTests)")
struct ClinicalRecordTests {
    @Test func syntheaBundlesImportTheirRecordsAndReportWhatTheyIgnore() throws {
        let person = try HealthPerson(storeDirectory: scratch())
        let r4 = try person.importClinicalRecords(at: fhirFixtures.appendingPathComponent("synthea/r4-Edward_Gulgowski_43481611-2459-44f5-ab20-4b142dac160f.json"),
                                                  provider: "Synthea General")
        #expect(r4.rejected.isEmpty)
        #expect(r4.patients == 1)
        let count = { (type: HKClinicalTypeIdentifier) in try person.clinicalRecords(of: HKClinicalType(type)).count }
        #expect(try count(.conditionRecord) == 4 && count(.medicationRecord) == 3 && count(.immunizationRecord) == 6)
        #expect(try count(.procedureRecord) == 3 && count(.labResultRecord) == 14 && count(.vitalSignRecord) == 15)
        #expect(try count(.clinicalNoteRecord) == 1)
        #expect(r4.ignored.filter { $0.message.hasPrefix("unsupported Observation categories: survey") }.count == 3)
        #expect(r4.ignored.contains { $0.resourceType == "Encounter" && $0.message.contains("no clinical record type") })

        let dstu2 = try person.importClinicalRecords(at: fhirFixtures.appendingPathComponent("synthea/dstu2-Boyle_Gonzalo_40.json"),
                                                     provider: "Synthea Legacy")
        // This bundle's procedures, prescriptions, immunizations and care plan have neither an id nor a fullUrl: each
        // is reported by its entry, and the rest land.
        #expect(dstu2.rejected.count == 11 && dstu2.rejected.allSatisfy { $0.message.hasSuffix("resource has no id") })
        #expect(dstu2.rejected.map(\.entry) == [5, 6, 17, 18, 26, 37, 40, 41, 42, 48, 49])
        let legacy = try person.clinicalRecords().filter { $0.sourceRevision.source.name == "Synthea Legacy" }
        #expect(legacy.filter { $0.clinicalType == HKClinicalType(.vitalSignRecord) }.count == 13)
        #expect(legacy.filter { $0.clinicalType == HKClinicalType(.labResultRecord) }.count == 8)
        #expect(legacy.filter { $0.clinicalType == HKClinicalType(.conditionRecord) }.count == 2)
        #expect(legacy.allSatisfy { $0.fhirResource?.fhirVersion == .primaryDSTU2() })
        #expect(dstu2.ignored.filter { $0.message.contains("social-history") }.count == 6)
    }

    @Test func anAppleHealthExportBringsEachRecordWithItsInstitutionVersionAndReceivedDate() throws {
        let person = try HealthPerson(storeDirectory: scratch())
        let summary = try person.importClinicalRecords(at: fhirFixtures.appendingPathComponent("apple-health-export-sample/apple_health_export"))
        #expect(summary.rejected.isEmpty, "\(summary.rejected)")
        #expect(summary.patients >= 1)
        let records = try person.clinicalRecords()
        #expect(records.count + summary.ignored.count + summary.patients == 13)
        let heartRate = try #require(records.first { $0.fhirResource?.identifier == "heart-rate" })
        #expect(heartRate.sourceRevision.source.name == "Example Health System (R4)")
        #expect(heartRate.clinicalType == HKClinicalType(.vitalSignRecord))
        #expect(heartRate.fhirResource?.sourceURL?.absoluteString == "https://fhir.example.org/api/FHIR/R4/Observation/heart-rate")
        #expect(heartRate.fhirResource?.fhirVersion == .primaryR4())
        #expect(heartRate.startDate == Date(timeIntervalSince1970: 1_709_313_302) && heartRate.endDate == heartRate.startDate)  // 2024-03-01 09:15:02 -0800
        #expect(Set(records.compactMap { $0.fhirResource?.fhirVersion.fhirRelease }) == [.r4, .dstu2])

        // The same export again adds nothing.
        let again = try person.importClinicalRecords(at: fhirFixtures.appendingPathComponent("apple-health-export-sample/apple_health_export"))
        let count = try person.clinicalRecords().count
        #expect(again.added == 0 && again.unchanged == summary.added && count == records.count)
    }

    @Test func badFilesAndEntriesAreReportedWithTheirPlaceWhileGoodOnesLand() throws {
        let input = scratch()
        try Data("{\"resourceType\": \"Condition\", \"id\": ".utf8).write(to: input.appendingPathComponent("a-broken.json"))
        try write(["resourceType": "Foo", "id": "1"], to: input.appendingPathComponent("b-foo.json"))
        try write(["resourceType": "Condition", "code": ["text": "No id"]], to: input.appendingPathComponent("c-noid.json"))
        let dstu2Order = try resource("dstu2/medicationorder-example-f001-combivent.canonical.json")
        try write(["resourceType": "Bundle", "type": "collection", "entry": [
            ["resource": try resource("r4/observation-example-heart-rate.json")],
            ["resource": dstu2Order],
            ["resource": try resource("r4/immunization-example.json")],
        ]], to: input.appendingPathComponent("d-mixed-bundle.json"))
        try write(try resource("r4/procedure-example.json"), to: input.appendingPathComponent("e-procedure.json"))

        let person = try HealthPerson(storeDirectory: scratch())
        let summary = try person.importClinicalRecords(at: input, provider: "Mixed Sources")
        #expect(summary.files == 5)
        #expect(summary.added == 3)  // heart rate, immunization, procedure
        let rejected = summary.rejected.map { "\($0.file)|\($0.entry.map(String.init) ?? "-")" }
        #expect(rejected == ["a-broken.json|-", "b-foo.json|-", "c-noid.json|-", "d-mixed-bundle.json|1"])
        #expect(summary.rejected[0].message.hasPrefix("not valid JSON") && summary.rejected[0].message.hasSuffix("(line 1, column 37)"))
        #expect(summary.rejected[1].message == "\"Foo\" is not a FHIR resource type")
        #expect(summary.rejected[2].message == "the Condition resource has no id")
        #expect(summary.rejected[3].message.contains("DSTU2 but the Bundle is R4"))
        #expect(try person.clinicalRecords().map(\.displayName).sorted() == ["Appendectomy", "Fluvax (Influenza)", "Heart rate"])
    }
}
