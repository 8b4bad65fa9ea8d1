import Foundation
import GRDB
import Testing

/// An export.xml of `count` heart-rate records a minute apart (about 330 bytes each), from two sources.
private func largeExport(_ count: Int, in folder: URL) throws -> URL {
    let file = folder.appendingPathComponent("export.xml")
    var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n <ExportDate value=\"2026-01-01 00:00:00 +0000\"/>\n"
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
        text += " <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"\(source)\" sourceVersion=\"10.1\" unit=\"count/min\" "
            + "creationDate=\"\(date)\" startDate=\"\(date)\" endDate=\"\(date)\" value=\"\(60 + index % 50)\"/>\n"
    }
    text += "</HealthData>\n"
    try Data(text.utf8).write(to: file)
    return file
}

private func sampleCount(_ store: URL) throws -> Int {
    try DatabaseQueue(path: store.appendingPathComponent("health.sqlite").path).read { db in
        try Int.fetchOne(db, sql: "SELECT count(*) FROM sample") ?? 0
    }
}

@Suite("health import, killed")
struct KilledImportTests {
    @Test func aKilledImportLeavesAConsistentStoreAndRunningItAgainCompletesItWithoutDuplicates() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("killed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let total = 150_000
        let export = try largeExport(total, in: folder)
        let store = folder.appendingPathComponent("store")

        let process = Process()
        process.executableURL = healthExecutable
        process.arguments = ["import", export.path, "--store", store.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Kill it (SIGKILL: no cleanup at all) once some batches are committed and before it ends.
        var committed = 0
        let deadline = Date().addingTimeInterval(60)
        while committed == 0 && process.isRunning && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
            committed = (try? sampleCount(store)) ?? 0
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal, "the import ended before it could be killed; make the export larger")
        let left = try sampleCount(store)
        #expect(left > 0 && left < total)

        // The store opens consistent, with the indexes the bulk load had dropped rebuilt, and the import completes.
        let again = try runHealth(["import", export.path, "--store", store.path, "--json"])
        #expect(again.status == 0, "\(again.stderr)")
        let result = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any]
        #expect(result?["alreadyStored"] as? Int == left)
        #expect((result?["added"] as? [String: Int])?["HKQuantityTypeIdentifierHeartRate"] == total - left)
        try DatabaseQueue(path: store.appendingPathComponent("health.sqlite").path).read { db in
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM sample") == total)
            #expect(try Int.fetchOne(db, sql: "SELECT count(DISTINCT uuid) FROM sample") == total)
            let indexes = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'sample' AND sql IS NOT NULL")
            #expect(Set(indexes) == ["sample_type_start", "sample_type_end", "sample_source", "sample_correlation"])
        }
    }
}
