import Foundation
import Testing
@testable import HealthExport

@Suite("Apple Health export: record length decides how indexes are kept during an import")
struct ExportRecordLengthTests {
    /// The average distance between `<Record ` starts in the first 1,088 KB of a file (what the importer reads to
    /// decide), counted the slow way.
    func averageByHand(_ url: URL) throws -> Int {
        let bytes = Array(try Data(contentsOf: url).prefix(1 << 20 + 64 << 10))
        let marker = Array("<Record ".utf8)
        let starts = bytes.indices.filter { bytes[$0...].starts(with: marker) }
        return (starts.last! - starts.first!) / (starts.count - 1)
    }

    @Test func modernRecordsWithDevicesAreLongAnd2015RecordsShort() throws {
        let modern = exportFixtures.appendingPathComponent("opendroid_hk/audio_exposure.xml")
        let old = exportFixtures.appendingPathComponent("ericwolter_apple-healthkit-csv/export.xml")
        let modernLength = try #require(ExportImportReader.averageRecordLength(of: ExportLocation(modern)))
        let oldLength = try #require(ExportImportReader.averageRecordLength(of: ExportLocation(old)))
        #expect(modernLength == (try averageByHand(modern)))
        #expect(oldLength == (try averageByHand(old)))
        #expect(modernLength >= 280 && oldLength < 280, "modern \(modernLength) bytes, 2015 \(oldLength) bytes")
    }

    @Test func aFileWithFewRecordsHasNoAverage() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-length-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("export.xml")
        try Data("<HealthData>\n<Record type=\"a\"/>\n<Record type=\"b\"/>\n</HealthData>\n".utf8).write(to: file)
        #expect(ExportImportReader.averageRecordLength(of: try ExportLocation(file)) == nil)
        // A pipe is never read ahead: what was read to measure would be lost to the import.
        let pipe = folder.appendingPathComponent("pipe.xml")
        #expect(mkfifo(pipe.path, 0o600) == 0)
        #expect(ExportImportReader.averageRecordLength(of: try ExportLocation(pipe)) == nil)
    }
}
