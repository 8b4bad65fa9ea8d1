import Foundation
import Testing
@testable import HealthStore
@testable import OpenHealthKit

/// A folder holding `export.xml` with `body` inside `<HealthData>`, and the given sidecar files (the export suites share it).
func exportFolder(_ body: String, files: [String: String] = [:]) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-kept-\(UUID().uuidString)/apple_health_export")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="2026-11-01 09:00:00 +0100"/>
        \(body)
        </HealthData>
        """
    try Data(xml.utf8).write(to: folder.appendingPathComponent("export.xml"))
    for (path, text) in files {
        let file = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }
    return folder
}

private func freshPerson() throws -> HealthPerson {
    try HealthPerson(storeDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("ohk-kept-store-\(UUID().uuidString)"))
}

/// The electrocardiogram CSV format.md shows (ECG app 1.90), shortened to four voltages.
private let ecg = """
    Name,Jane Appleseed
    Date of Birth,"Jun 12, 2006"
    Recorded Date,2023-03-04 20:55:07 -0500
    Classification,Sinus Rhythm
    Symptoms,
    Software Version,1.90
    Device,"Watch6,7"
    Sample Rate,512 hertz


    Lead,Lead I
    Unit,µV

    -107.825
    -103.391
    -98.957
    -94.523

    """

@Suite("Apple Health export: what the model does not hold is kept")
struct ExportKeptElementsTests {
    static let unknownRecord = #"<Record type="HKQuantityTypeIdentifierSomethingFrom2027" sourceName="Apple Watch" unit="zz" startDate="2026-10-01 08:00:00 +0100" endDate="2026-10-01 08:00:00 +0100" value="3"><MetadataEntry key="HKMetadataKeyNew" value="a &amp; b"/></Record>"#
    static let prescription = #"<VisionPrescription type="HKVisionPrescriptionTypeGlasses" dateIssued="2026-10-02 10:00:00 +0100" expirationDate="2027-10-02 10:00:00 +0100"><RightEye sphere="-1.25" sphereUnit="D"/><LeftEye sphere="-1" sphereUnit="D"/><MetadataEntry key="HKMetadataKeySyncIdentifier" value="A1"/></VisionPrescription>"#

    @Test func unknownRecordTypesAreReportedAndKeptAsWrittenOnceAndPrescriptionsImportAsSamples() throws {
        let folder = try exportFolder(" " + Self.unknownRecord + "\n " + Self.prescription)
        let person = try freshPerson()
        let result = try person.importExport(at: folder)
        #expect(result.kept == ["Record": 1])
        #expect(result.added == [HKVisionPrescriptionTypeIdentifier: 1])
        #expect(result.problemCounts == ["unknown record type HKQuantityTypeIdentifierSomethingFrom2027 (kept as written)": 1])
        #expect(try person.sampleStore.exportElements() == [ExportElement(name: "Record", xml: Self.unknownRecord)])
        let again = try person.importExport(at: folder)
        #expect(again.alreadyStored == 2 && again.addedTotal == 0)
        #expect(try person.sampleStore.exportElements().count == 1)
    }

    @Test func aHeartRateVariabilityBeatListStaysWithItsRecord() throws {
        let person = try freshPerson()
        let result = try person.importExport(at: exportFixtures.appendingPathComponent("opendroid_hk/sampleexport.xml"))
        #expect(result.added[HKQuantityTypeIdentifier.heartRateVariabilitySDNN.rawValue] ?? 0 > 0)
        let uuids = try person.sampleStore.database.read { db in
            try String.fetchAll(db, sql: "SELECT uuid FROM sample JOIN sampleType ON code = typeCode WHERE identifier = ? ORDER BY startDate",
                                arguments: [HKQuantityTypeIdentifier.heartRateVariabilitySDNN.rawValue])
        }
        let extras = try person.sampleStore.sampleExtras(forUUIDs: uuids)
        let first = try #require(extras[uuids[0]])
        #expect(first.hasPrefix(#"<HeartRateVariabilityMetadataList><InstantaneousBeatsPerMinute bpm="58" time="11:26:02.34 AM"/>"#))
        #expect(first.hasSuffix("</HeartRateVariabilityMetadataList>"))
    }

    @Test func electrocardiogramFilesAreKeptAsTheyAreAndOnlyChangesCount() throws {
        let folder = try exportFolder("", files: ["electrocardiograms/ecg_2023-03-04.csv": ecg])
        let person = try freshPerson()
        #expect(try person.importExport(at: folder).keptFiles == ["electrocardiograms/ecg_2023-03-04.csv"])
        #expect(try person.sampleStore.exportFile(at: "electrocardiograms/ecg_2023-03-04.csv") == Data(ecg.utf8))
        #expect(try person.importExport(at: folder).keptFiles.isEmpty)
    }

    @Test func keptElementsBeatListsAndFilesGoBackOutInTheNextExport() throws {
        let folder = try exportFolder(" " + Self.unknownRecord + "\n " + Self.prescription, files: ["electrocardiograms/ecg_2023-03-04.csv": ecg])
        let person = try freshPerson()
        _ = try person.importExport(at: folder)
        _ = try person.importExport(at: exportFixtures.appendingPathComponent("opendroid_hk/sampleexport.xml"))
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-kept-out-\(UUID().uuidString)")
        let export = try person.exportHealthData(to: out)
        #expect(export.keptElements == 1 && export.files == 1)
        let xml = try String(contentsOf: out.appendingPathComponent("export.xml"), encoding: .utf8)
        #expect(xml.contains(" " + Self.unknownRecord + "\n") && xml.contains(#"  <RightEye sphere="-1.25" sphereUnit="D"/>"#))
        #expect(xml.contains(#"<InstantaneousBeatsPerMinute bpm="58" time="11:26:02.34 AM"/>"#))
        #expect(FileManager.default.contents(atPath: out.appendingPathComponent("electrocardiograms/ecg_2023-03-04.csv").path) == Data(ecg.utf8))
    }
}
