import Foundation
import GRDB
import Testing
import TestSupport

/// The text of an export.xml of `count` heart-rate records a minute apart (about 330 bytes each), from two sources,
/// as its head (up to and including the record at `split`) and its tail.
private func largeExport(_ count: Int, splitAt split: Int) -> (head: Data, tail: Data) {
    var head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n <ExportDate value=\"2026-01-01 00:00:00 +0000\"/>\n"
    var tail = ""
    var utc = Calendar(identifier: .gregorian)
    utc.timeZone = TimeZone(identifier: "UTC")!
    let formatter = DateFormatter()
    formatter.calendar = utc
    formatter.timeZone = utc.timeZone
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    for index in 0..<count {
        let date = formatter.string(from: start.addingTimeInterval(Double(index) * 60))
        let source = index % 2 == 0 ? "Apple Watch" : "Pulse"
        let record = " <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"\(source)\" sourceVersion=\"10.1\" unit=\"count/min\" "
            + "creationDate=\"\(date)\" startDate=\"\(date)\" endDate=\"\(date)\" value=\"\(60 + index % 50)\"/>\n"
        if index < split { head += record } else { tail += record }
    }
    tail += "</HealthData>\n"
    return (Data(head.utf8), Data(tail.utf8))
}

private func sampleCount(_ store: URL) throws -> Int {
    try DatabaseQueue(path: store.appendingPathComponent("health.sqlite").path).read { db in
        try Int.fetchOne(db, sql: "SELECT count(*) FROM sample") ?? 0
    }
}

@Suite("health import, killed")
struct KilledImportTests {
    @Test func aKilledImportLeavesAConsistentStoreAndRunningItAgainCompletesItWithoutDuplicates() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("killed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let total = 150_000
        // Made on a thread of its own: 150,000 formatted dates would hold one of the two threads every test shares.
        let (head, tail) = await onOwnThread { largeExport(total, splitAt: 90_000) }
        let export = folder.appendingPathComponent("export.xml")
        try (head + tail).write(to: export)
        let store = folder.appendingPathComponent("store")

        // The first import reads its export through a pipe that gives only the head and then nothing more, so it is
        // certainly mid-import (some batches committed, the rest waiting) when it is killed, however fast or busy
        // the machine is.
        let pipe = folder.appendingPathComponent("pipe.xml")
        #expect(mkfifo(pipe.path, 0o600) == 0)
        signal(SIGPIPE, SIG_IGN)
        let process = ChildProcess()
        process.executableURL = healthExecutable
        process.arguments = ["import", pipe.path, "--store", store.path]
        process.standardOutput = FileHandle.nullDevice
        let errors = folder.appendingPathComponent("stderr.txt")
        FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        let writer = Thread {
            let descriptor = open(pipe.path, O_WRONLY)
            guard descriptor >= 0 else { return }
            _ = head.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                    if written <= 0 { return offset }
                    offset += written
                }
                return offset
            }
            // Held open (no end of file) until the process is gone.
            while process.isRunning { Thread.sleep(forTimeInterval: 0.05) }
            close(descriptor)
        }
        writer.start()
        // Kill it (SIGKILL: no cleanup at all) once some batches are committed.
        await onOwnThread {
            var committed = 0
            let deadline = Date().addingTimeInterval(300)
            while committed == 0 && process.isRunning && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.05)
                committed = (try? sampleCount(store)) ?? 0
            }
        }
        if !process.isRunning {
            // It failed before reading the pipe: release the writer, which waits for a reader.
            let release = open(pipe.path, O_RDONLY | O_NONBLOCK)
            if release >= 0 { close(release) }
        }
        kill(process.processIdentifier, SIGKILL)
        await process.ended()
        #expect(process.terminationReason == .uncaughtSignal, 
                "the import ended (status \(process.terminationStatus)) before it could be killed: \((try? String(contentsOf: errors, encoding: .utf8)) ?? "")")
        let left = try sampleCount(store)
        #expect(left > 0 && left < total)

        // The store opens consistent, with the indexes the bulk load had dropped rebuilt, and the import completes.
        let again = try await runHealth(["import", export.path, "--store", store.path, "--json"])
        #expect(again.status == 0, "\(again.stderr)")
        let result = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any]
        #expect(result?["alreadyStored"] as? Int == left)
        #expect((result?["added"] as? [String: Int])?["HKQuantityTypeIdentifierHeartRate"] == total - left)
        try await DatabaseQueue(path: store.appendingPathComponent("health.sqlite").path).read { db in
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM sample") == total)
            #expect(try Int.fetchOne(db, sql: "SELECT count(DISTINCT uuid) FROM sample") == total)
            let indexes = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'sample' AND sql IS NOT NULL")
            #expect(Set(indexes) == ["sample_type_start", "sample_type_end", "sample_source", "sample_correlation"])
        }
    }
}
