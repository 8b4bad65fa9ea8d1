import Foundation
import Testing
@testable import HealthExport
@testable import OpenHealthKit

@Suite("XML start-tag scanner (export.xml reader)")
struct XMLStartTagScannerTests {
    private func tags(_ xml: String, names: Set<String>? = nil, chunk: Int = 7) throws -> (tags: [XMLStartTagScanner.Tag], problems: [String]) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("scan-\(UUID().uuidString).xml")
        try Data(xml.utf8).write(to: file)
        var found: [XMLStartTagScanner.Tag] = [], problems: [String] = []
        try XMLStartTagScanner(url: file, chunkSize: chunk).scan(names: names) { found.append($0) } problem: { problems.append("\($0): \($1)") }
        return (found, problems)
    }

    @Test func itSkipsTheDTDCommentsAndTextAndDecodesAttributesAcrossChunkBorders() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE HealthData [
            <!-- a comment with <Record type="fake"/> and > inside -->
            <!ELEMENT Record (MetadataEntry)*>
            <!ATTLIST Record type CDATA #REQUIRED unit CDATA "count">
            ]>
            <HealthData locale="en_US">
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Alex&#8217;s iPhone &amp; &quot;Watch&quot;"
                     value="42"/>
             <![CDATA[ <Record type="not a tag"/> ]]>
             <Record type='single' value="&lt;5&gt;&#x41;"><MetadataEntry key="k" value="v"/></Record>
            </HealthData>
            """
        let scanned = try tags(xml, names: ["Record"])
        #expect(scanned.problems.isEmpty)
        #expect(scanned.tags.map(\.line) == [8, 11])
        #expect(scanned.tags[0].attributes["sourceName"] == "Alex’s iPhone & \"Watch\"")
        #expect(scanned.tags[0].attributes["value"] == "42")
        #expect(scanned.tags[1].attributes == ["type": "single", "value": "<5>A"])
        #expect(try tags(xml).tags.map(\.name) == ["HealthData", "Record", "Record", "MetadataEntry"])
    }

    @Test func brokenMarkupIsReportedWithItsLine() throws {
        let scanned = try tags("<A x=\"1\"/>\n<B y=2/>\n<C z=\"3\"/>\n<D w=\"never ends", names: nil)
        // The tag with the unquoted value is kept without that attribute.
        #expect(scanned.tags.map(\.name) == ["A", "B", "C"] && scanned.tags[1].attributes.isEmpty)
        #expect(scanned.problems.contains("2: attribute y of <B> is not quoted"))
        #expect(scanned.problems.contains { $0.hasPrefix("4:") })
    }

    @Test func aRealExportsRecordsAreAllFound() throws {
        let file = fhirFixtures.deletingLastPathComponent().appendingPathComponent("apple-health-export/opendroid_hk/audio_exposure.xml")
        var count = 0
        try XMLStartTagScanner(url: file).scan(names: ["Record"]) { tag in
            if tag.attributes["type"] != nil, tag.attributes["startDate"] != nil { count += 1 }
        }
        #expect(count == 4951)
    }

    @Test func clinicalRecordRowsWhoseFilesAreMissingAreReportedOneByOne() throws {
        let export = fhirFixtures.deletingLastPathComponent().appendingPathComponent("apple-health-export/opendroid_hk/sampleexport.xml")
        let person = try HealthPerson(storeDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("ohk-\(UUID().uuidString)"))
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: export, to: copy.appendingPathComponent("export.xml"))
        let summary = try person.importClinicalRecords(at: copy)
        #expect(summary.added == 0 && summary.rejected.count == 6)
        #expect(summary.rejected.allSatisfy { $0.message == "the resource file is missing" && $0.file.contains("export.xml line") })
    }
}
