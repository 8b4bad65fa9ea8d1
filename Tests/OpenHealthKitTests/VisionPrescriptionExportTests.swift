import Foundation
import Testing
@testable import HealthStore
@testable import OpenHealthKit
import TestSupport

/// Vision prescriptions in an export (Apple's `<VisionPrescription>`, v12 on): imported as samples with their lenses,
/// units converted, attachments kept; written back as Apple writes them; bad ones reported with their line.
@Suite("Vision prescriptions in an export")
struct VisionPrescriptionExportTests {
    let type = HKObjectType.visionPrescriptionType()

    static let glasses = """
         <VisionPrescription type="HKVisionPrescriptionTypeGlasses" dateIssued="2026-03-02 10:00:00 +0100" expirationDate="2028-03-02 10:00:00 +0100">
          <RightEye sphere="-1.25" sphereUnit="D" cylinder="-0.5" cylinderUnit="D" axis="155" axisUnit="deg" vertex="1.2" vertexUnit="cm" prismAmount="0.5" prismAmountUnit="pD" prismAngle="90" prismAngleUnit="deg" farPD="31.5" farPDUnit="mm"/>
          <LeftEye sphere="-1" sphereUnit="D"/>
          <Attachment identifier="IMG &amp; 0001"/>
          <MetadataEntry key="HKMetadataKeySyncIdentifier" value="rx-1"/>
         </VisionPrescription>
        """
    static let contacts = """
         <VisionPrescription type="HKVisionPrescriptionTypeContacts" dateIssued="2026-05-01 09:00:00 +0100" brand="Oasys">
          <RightEye sphere="-2" sphereUnit="D" baseCurve="8.6" baseCurveUnit="mm" diameter="14.2" diameterUnit="mm"/>
         </VisionPrescription>
        """

    @Test func prescriptionsImportWithTheirLensesAndGoBackOutTheSame() async throws {
        let (store, _, folder) = makeStore(.allowAll)
        let person = try HealthPerson(storeDirectory: folder)
        let imported = try person.importExport(at: try exportFolder(Self.glasses + "\n" + Self.contacts))
        #expect(imported.added == [type.identifier: 2] && imported.problems.isEmpty, "\(imported.problems)")
        // The person's own view: both, from the Health app (Apple writes no source).
        let all = try person.sampleStore.samples(ofType: type, visibleTo: AuthorizationService.personReader) as? [HKVisionPrescription] ?? []
        #expect(all.count == 2 && all.allSatisfy { $0.sourceRevision.source.bundleIdentifier == "com.apple.Health" })
        let glasses = try #require(all.first { $0 is HKGlassesPrescription } as? HKGlassesPrescription)
        #expect(glasses.rightEye?.vertexDistance == HKQuantity(unit: .meterUnit(with: .milli), doubleValue: 12))
        #expect(glasses.rightEye?.prism?.verticalBase == .up && glasses.rightEye?.prism?.eye == .right)
        #expect(glasses.leftEye?.sphere == HKQuantity(unit: .diopter(), doubleValue: -1) && glasses.metadata?[HKMetadataKeySyncIdentifier] as? String == "rx-1")
        let contacts = try #require(all.first { $0 is HKContactsPrescription } as? HKContactsPrescription)
        #expect(contacts.brand == "Oasys" && contacts.expirationDate == nil && contacts.rightEye?.diameter == HKQuantity(unit: .meterUnit(with: .milli), doubleValue: 14.2))
        // An app sees none of them until the person gives them to it.
        #expect(try await run(store, type: type).isEmpty)

        let out = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-vp-out-\(UUID().uuidString)/apple_health_export")
        let written = try person.exportHealthData(to: out, timeZone: TimeZone(identifier: "Europe/Paris")!)
        let xml = try String(contentsOf: written.url.appendingPathComponent("export.xml"), encoding: .utf8)
        #expect(xml.contains(#"<VisionPrescription type="HKVisionPrescriptionTypeGlasses" dateIssued="2026-03-02 10:00:00 +0100" expirationDate="2028-03-02 10:00:00 +0100">"#), "\(xml.suffix(1200))")
        #expect(xml.contains(#"<RightEye sphere="-1.25" sphereUnit="D" cylinder="-0.5" cylinderUnit="D" axis="155" axisUnit="deg" vertex="12" vertexUnit="mm" prismAmount="0.5" prismAmountUnit="pD" prismAngle="90" prismAngleUnit="deg" farPD="31.5" farPDUnit="mm"/>"#))
        #expect(xml.contains(#"<Attachment identifier="IMG &amp; 0001"/>"#) && xml.contains(#"<MetadataEntry key="HKMetadataKeySyncIdentifier" value="rx-1"/>"#))
        #expect(xml.contains(#"<VisionPrescription type="HKVisionPrescriptionTypeContacts" dateIssued="2026-05-01 10:00:00 +0200" brand="Oasys">"#))

        // Read back elsewhere: the same prescriptions, with the same identities (importing it again here adds nothing).
        let second = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-vp-second-\(UUID().uuidString)")
        let other = try HealthPerson(storeDirectory: second)
        #expect(try other.importExport(at: written.url).added == [type.identifier: 2])
        let back = try other.sampleStore.samples(ofType: type, visibleTo: AuthorizationService.personReader)
        #expect(Set(back.map(\.uuid)) == Set(all.map(\.uuid)))
        #expect(try person.importExport(at: written.url).addedTotal == 0)
        let extras = try other.sampleStore.sampleExtras(forUUIDs: [glasses.uuid.uuidString])
        #expect(extras[glasses.uuid.uuidString] == #"<Attachment identifier="IMG &amp; 0001"/>"#)
    }

    /// A store from before v37 kept its export's prescriptions as written: the next import reads them as samples and
    /// stops keeping them, so importing the same export again leaves each once in the next export.
    @Test func prescriptionsAnEarlierVersionKeptAsWrittenBecomeSamples() throws {
        let person = try HealthPerson(storeDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("ohk-vp-old-\(UUID().uuidString)"))
        let element = #"<VisionPrescription type="HKVisionPrescriptionTypeGlasses" dateIssued="2026-10-02 10:00:00 +0100"><RightEye sphere="-1.25" sphereUnit="D"/></VisionPrescription>"#
        let unreadable = #"<VisionPrescription type="HKVisionPrescriptionTypeMonocle" dateIssued="2026-10-02 10:00:00 +0100"/>"#
        try person.sampleStore.database.write { db in
            for xml in [element, unreadable] {
                try db.execute(sql: "INSERT INTO exportElement (name, xml, identity, importedAt) VALUES ('VisionPrescription', ?, ?, 0)",
                               arguments: [xml, ExportElement(name: "VisionPrescription", xml: xml).identity])
            }
        }
        let imported = try person.importExport(at: try exportFolder(" " + element))
        #expect(imported.alreadyStored == 1 && imported.addedTotal == 0, "\(imported.added) \(imported.problems)")
        #expect(try person.sampleStore.exportElements() == [ExportElement(name: "VisionPrescription", xml: unreadable)])
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-vp-old-out-\(UUID().uuidString)/apple_health_export")
        let xml = try String(contentsOf: try person.exportHealthData(to: out).url.appendingPathComponent("export.xml"), encoding: .utf8)
        #expect(xml.components(separatedBy: "<VisionPrescription ").count == 3, "one sample and the element still kept")
    }

    @Test func aBadPrescriptionIsReportedWithItsLineAndTheRestIsRead() throws {
        let body = [
            #" <VisionPrescription type="HKVisionPrescriptionTypeMonocle" dateIssued="2026-03-02 10:00:00 +0100"/>"#,
            #" <VisionPrescription type="HKVisionPrescriptionTypeGlasses" dateIssued="2026-03-02 10:00:00 +0100"><RightEye cylinder="-1" cylinderUnit="D"/></VisionPrescription>"#,
            #" <VisionPrescription type="HKVisionPrescriptionTypeGlasses" dateIssued="2026-03-02 10:00:00 +0100"><RightEye sphere="-1" sphereUnit="mm"/></VisionPrescription>"#,
            #" <VisionPrescription type="HKVisionPrescriptionTypeGlasses" dateIssued="2026-03-02 10:00:00 +0100" expirationDate="2025-03-02 10:00:00 +0100"><RightEye sphere="-1"/></VisionPrescription>"#,
            #" <VisionPrescription type="HKVisionPrescriptionTypeGlasses" dateIssued="2026-03-02 10:00:00 +0100"><RightEye sphere="-1"/></VisionPrescription>"#,
        ].joined(separator: "\n")
        let person = try HealthPerson(storeDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("ohk-vp-bad-\(UUID().uuidString)"))
        let result = try person.importExport(at: try exportFolder(body))
        #expect(result.added == [type.identifier: 1], "\(result.added)")
        #expect(result.problems.map(\.line) == [4, 5, 6, 7], "\(result.problems)")
        #expect(result.problems.first?.reason == #"a VisionPrescription of unknown type "HKVisionPrescriptionTypeMonocle""#)
        #expect(result.problems.dropFirst().first?.reason == "its RightEye has no sphere")
        #expect(result.problems.dropFirst(2).first?.reason.contains("is not a unit of D") == true, "\(result.problems)")
        #expect(result.problems.last?.reason.contains("expires") == true, "\(result.problems)")
    }
}
