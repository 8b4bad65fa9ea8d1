import Foundation
import GRDB
@testable import HealthExport
import Testing
import TestSupport

/// An export folder (`apple_health_export/export.xml`) of `count` heart-rate records a minute apart, packed as
/// export.zip in `folder`.
private func zippedExport(_ count: Int, in folder: URL) throws -> URL {
    let export = folder.appendingPathComponent("unpacked/apple_health_export")
    try FileManager.default.createDirectory(at: export, withIntermediateDirectories: true)
    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n <ExportDate value=\"2026-01-01 00:00:00 +0000\"/>\n"
    var utc = Calendar(identifier: .gregorian)
    utc.timeZone = TimeZone(identifier: "UTC")!
    let start = utc.date(from: DateComponents(year: 2023, month: 11, day: 14))!
    for index in 0..<count {
        let parts = utc.dateComponents([.year, .month, .day, .hour, .minute], from: start.addingTimeInterval(Double(index) * 60))
        let date = String(format: "%04d-%02d-%02d %02d:%02d:00 +0000", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!)
        xml += " <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"Apple Watch\" unit=\"count/min\" creationDate=\"\(date)\" "
            + "startDate=\"\(date)\" endDate=\"\(date)\" value=\"\(60 + index % 50)\"/>\n"
    }
    xml += "</HealthData>\n"
    try Data(xml.utf8).write(to: export.appendingPathComponent("export.xml"))
    let zip = folder.appendingPathComponent("export.zip")
    try ExportZip.pack(export, into: zip)
    return zip
}

private func sampleCount(_ store: URL) throws -> Int {
    try DatabaseQueue(path: store.appendingPathComponent("health.sqlite").path).read { db in
        try Int.fetchOne(db, sql: "SELECT count(*) FROM sample") ?? 0
    }
}

/// What is in `folder`, for messages.
private func contents(_ folder: URL) -> [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? ["(cannot list)"]
}

@Suite("health import, damaged or stopped")
struct DamagedImportTests {
    /// A bit flipped in the middle of export.xml's compressed data: the import fails as damaged, exits non-zero, says
    /// what it stored, and leaves nothing in the temporary folder.
    @Test func aBitFlippedInTheCompressedDataFailsTheImportLoudly() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("damaged-\(UUID().uuidString)")
        let temporary = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let zip = try await onOwnThread { try zippedExport(20_000, in: folder) }
        let archive = try ZipArchiveReader(url: zip)
        let entry = try #require(archive.entries.first { $0.path.hasSuffix("export.xml") })
        var data = try Data(contentsOf: zip)
        // The entry's data starts after its local header; flip a bit in its middle.
        let header = Int(entry.localHeaderOffset)
        let dataStart = header + 30 + (Int(data[header + 26]) | Int(data[header + 27]) << 8) + (Int(data[header + 28]) | Int(data[header + 29]) << 8)
        data[dataStart + Int(entry.compressedSize) / 2] ^= 0x04
        try data.write(to: zip)
        let store = folder.appendingPathComponent("store")
        let run = try await runHealth(["import", zip.path, "--store", store.path], environment: ["TMPDIR": temporary.path])
        #expect(run.status != 0)
        #expect(run.stderr.contains("export.zip is damaged"), "\(run.stderr)")
        let stored = (try? sampleCount(store)) ?? 0
        #expect(stored < 20_000)
        #expect(run.stderr.contains(stored == 0 ? "nothing of the export was stored"
                                                : "the import stopped there: \(stored) samples before it are in the store, the rest of the export is not"),
                "\(run.stderr)")
        #expect(!run.stdout.contains("samples added"), "\(run.stdout)")
        #expect(contents(temporary).isEmpty, "\(contents(temporary))")
    }

    /// An archive holding export.xml twice (one entry renamed after packing): which is the person's export cannot be
    /// told, so nothing is imported, in one sentence (it used to import the first and say nothing).
    @Test func anArchiveHoldingAFileTwiceIsRefusedInOneSentence() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("duplicate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let export = folder.appendingPathComponent("unpacked/apple_health_export")
        try FileManager.default.createDirectory(at: export, withIntermediateDirectories: true)
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n</HealthData>\n"
        try Data(xml.utf8).write(to: export.appendingPathComponent("export.xml"))
        try Data(xml.utf8).write(to: export.appendingPathComponent("export.xmX"))
        let zip = folder.appendingPathComponent("export.zip")
        try ExportZip.pack(export, into: zip)
        // Names are stored as they are, in the local header and the central directory: rename the second file there.
        var bytes = [UInt8](try Data(contentsOf: zip))
        let from = Array("export.xmX".utf8)
        var renamed = 0
        for index in 0...(bytes.count - from.count) where Array(bytes[index..<index + from.count]) == from {
            bytes[index + from.count - 1] = UInt8(ascii: "l")
            renamed += 1
        }
        #expect(renamed == 2)
        try Data(bytes).write(to: zip)
        let store = folder.appendingPathComponent("store")
        let run = try await runHealth(["import", zip.path, "--store", store.path])
        #expect(run.status != 0)
        #expect(run.stderr.hasPrefix("Error: export.zip holds apple_health_export/export.xml twice: the archive was damaged or altered"),
                "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1 && !run.stderr.contains("NSCocoaErrorDomain"), "\(run.stderr)")
    }

    /// An import of export.zip stopped mid-way (SIGTERM, or SIGKILL: no cleanup at all) leaves nothing of the export in
    /// the temporary folder: the archive is read in place, never unpacked.
    @Test(arguments: [SIGTERM, SIGKILL])
    func aStoppedZipImportLeavesNothingInTheTemporaryFolder(signal stop: Int32) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stopped-\(UUID().uuidString)")
        let temporary = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let total = 200_000
        // Made on a thread of its own: 200,000 formatted dates would hold one of the two threads every test shares.
        let zip = try await onOwnThread { try zippedExport(total, in: folder) }
        let store = folder.appendingPathComponent("store")
        let process = ChildProcess()
        process.executableURL = healthExecutable
        process.arguments = ["import", zip.path, "--store", store.path]
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = temporary.path
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Watched, and stopped as soon as a batch is in, from a thread of its own: the test's own task may wait for a
        // thread of the test run while the import goes on.
        await onOwnThread {
            var committed = 0
            let deadline = Date().addingTimeInterval(300)
            while committed == 0 && process.isRunning && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.02)
                committed = (try? sampleCount(store)) ?? 0
            }
            kill(process.processIdentifier, stop)
        }
        await process.ended()
        #expect(process.terminationReason == .uncaughtSignal, "the import ended (status \(process.terminationStatus)) before it was stopped")
        #expect((try? sampleCount(store)) ?? 0 < total)
        #expect(contents(temporary).isEmpty, "\(contents(temporary))")
    }
}
