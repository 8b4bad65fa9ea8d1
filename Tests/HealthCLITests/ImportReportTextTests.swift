import Foundation
import Testing

/// What the import report quotes from a damaged export reaches the terminal escaped: an escape sequence in a unit
/// can no longer clear the screen or retitle the window, bytes that are not UTF-8 show as `\u{FFFD}`, and a value of
/// thousands of characters is cut.
@Suite("health CLI: the import report on a damaged export")
struct ImportReportTextTests {
    @Test func leftOutLinesEscapeControlCharactersAndCutLongValues() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func record(unit: [UInt8]) -> [UInt8] {
            Array(#" <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" sourceVersion="1" unit=""#.utf8) + unit
                + Array(#"" creationDate="2024-06-01 10:10:00 +0000" startDate="2024-06-01 10:00:00 +0000" endDate="2024-06-01 10:10:00 +0000" value="100"/>"#.utf8)
                + [0x0A]
        }
        let hostile = Array("co".utf8) + [0x1B] + Array("[2J".utf8) + [0x1B] + Array("]0;pwned".utf8) + [0x07] + Array("unt".utf8) + [0xFF, 0xFE]
        let bytes = Array("<HealthData locale=\"en_US\">\n".utf8) + record(unit: hostile)
            + record(unit: Array(repeating: UInt8(ascii: "x"), count: 5_000)) + Array("</HealthData>\n".utf8)
        try Data(bytes).write(to: folder.appendingPathComponent("export.xml"))
        let run = try await runHealth(["import", "export.xml"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "no control character reaches the terminal")
        #expect(run.stdout.contains(#"unit "co\u{1B}[2J\u{1B}]0;pwned\u{7}unt\u{FFFD}\u{FFFD}" does not fit HKQuantityTypeIdentifierStepCount"#),
                "\(run.stdout)")
        let long = try #require(run.stdout.split(separator: "\n").first { $0.contains("xxxxx") })
        #expect(long.count < 400 && long.contains("x…"), "\(long.count) characters")
    }
}
