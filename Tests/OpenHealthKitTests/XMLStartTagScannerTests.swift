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

/// `prefix`, `count` copies of `filler`, `suffix`: a file of any size, made as it is read.
private final class RepeatingStream: ByteStream {
    private var parts: [(bytes: [UInt8], count: Int)]
    private var offset = 0

    init(_ prefix: String, _ filler: UInt8, count: Int, _ suffix: String) {
        parts = [(Array(prefix.utf8), 1), ([filler], count), (Array(suffix.utf8), 1)]
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        var written = 0
        while written < buffer.count, let part = parts.first {
            let total = part.bytes.count * part.count
            if offset == total { parts.removeFirst(); offset = 0; continue }
            let take = min(buffer.count - written, total - offset)
            if part.bytes.count == 1 {
                memset(buffer.baseAddress! + written, Int32(part.bytes[0]), take)
            } else {
                for index in 0..<take { buffer[written + index] = part.bytes[(offset + index) % part.bytes.count] }
            }
            written += take
            offset += take
        }
        return written
    }
}

@Suite("XML start-tag scanner: long constructs")
struct XMLStartTagScannerLimitTests {
    static let size = 20_000_000

    /// A 20 MB attribute value, comment or CDATA section, read a megabyte at a time, is parsed about twice — not once
    /// per megabyte read (210 MB of parsing for 20 MB; 100 MB of attribute took 65 s to import in a debug build).
    @Test(arguments: [("<Record type=\"big\" sourceName=\"", UInt8(ascii: "A"), "\"/>"), ("<!-- ", UInt8(ascii: "x"), " -->"),
                      ("<![CDATA[ ", UInt8(ascii: "x"), " ]]>"), ("<?pi ", UInt8(ascii: "x"), " ?>")])
    func aLongConstructIsParsedInTimeLinearInItsLength(open: String, filler: UInt8, close: String) throws {
        let statistics = XMLStartTagScanner.Statistics()
        let scanner = XMLStartTagScanner(chunkSize: 1 << 20, maximumTokenBytes: 1 << 30, statistics: statistics) {
            RepeatingStream("<HealthData>\n<Record type=\"first\"/>\n" + open, filler, count: Self.size, close + "\n<Record type=\"last\"/>\n</HealthData>\n")
        }
        var found: [(String, Int)] = []
        try scanner.scanInPlace { tag in
            if tag.nameIs("Record") { found.append((tag.value("type") ?? "", tag.line)) }
        }
        #expect(found.map(\.0) == (open.hasPrefix("<Record") ? ["first", "big", "last"] : ["first", "last"]))
        #expect(found.last?.1 == 4)
        #expect(statistics.reparsedBytes <= 2 * Self.size, "\(statistics.reparsedBytes) bytes parsed in vain, \(statistics.refills) refills")
        #expect(statistics.refills <= 10)
    }

    @Test(arguments: [("<Record type=\"big\" sourceName=\"", "the start tag <Record"), ("<!-- never closed ", "a comment"),
                      ("<![CDATA[ never closed ", "a CDATA section"), ("<?pi never closed ", "a processing instruction"),
                      ("<!DOCTYPE HealthData [ ", "a declaration")])
    func aConstructPastTheLimitStopsTheScanNamingTheLimitAndItsLine(open: String, named: String) throws {
        let scanner = XMLStartTagScanner(chunkSize: 1 << 16, maximumTokenBytes: 1 << 20) {
            RepeatingStream("<HealthData>\n<Record type=\"first\"/>\n" + open, UInt8(ascii: "A"), count: 3 << 20, "\"/>\n</HealthData>\n")
        }
        var found = 0
        #expect {
            try scanner.scanInPlace { _ in found += 1 }
        } throws: { error in
            let message = (error as? HKError)?.message ?? ""
            return message == "line 3: \(named) runs past 1 MiB, the longest one piece of markup may be (an export's are under 4 KB): "
                + "the file was read no further"
        }
        #expect(found == 2)  // what came before it was read
    }
}
