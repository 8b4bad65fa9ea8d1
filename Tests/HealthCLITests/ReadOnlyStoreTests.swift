import Foundation
import GRDB
import Testing
import TestSupport

/// A store nobody may write — a backup, a mounted snapshot — answers every reading command and refuses writing ones
/// in one sentence, and is left exactly as it was (no -wal or -shm made beside it, no migration, no app registered).
///
/// Tests run as root on some machines, and permissions do not stop root: then the commands run as `nobody`
/// (`runsAsNobody`), and once more as root, who must leave a folder without write permission alone all the same.
@Suite("health CLI: a read-only store")
struct ReadOnlyStoreTests {
    let folder: URL
    let store: URL

    /// A store with steps on 1 June 2024, imported from an export.
    init() async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-readonly-\(UUID().uuidString)")
        store = folder.appendingPathComponent("store")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let xml = """
            <HealthData locale="en_US">
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" sourceVersion="1" unit="count" \
            creationDate="2024-06-01 10:10:00 +0000" startDate="2024-06-01 10:00:00 +0000" endDate="2024-06-01 10:10:00 +0000" value="100"/>
            </HealthData>

            """
        try Data(xml.utf8).write(to: folder.appendingPathComponent("export.xml"))
        let imported = try await runHealth(["import", "export.xml", "--store", store.path], in: folder)
        #expect(imported.status == 0, "\(imported.stderr)")
        // Closed as a backup is: the last connection to close folds the write-ahead log into the file and removes it.
        try DatabaseQueue(path: store.appendingPathComponent("health.sqlite").path).close()
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.path) == ["health.sqlite"])
        // Others may enter the test folder and write the export destination; the store itself is made read-only.
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder.path)
    }

    /// Files 0444, the folder 0555.
    func makeReadOnly() throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: store.path) {
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: store.appendingPathComponent(name).path)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: store.path)
    }

    /// Every file of the store with its contents.
    func snapshot() throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: store.path) {
            files[name] = try Data(contentsOf: store.appendingPathComponent(name))
        }
        return files
    }

    func health(_ arguments: String..., unprivileged: Bool) async throws -> CLIRun {
        try await runHealth(arguments + ["--store", store.path], in: folder, environment: ["TZ": "UTC"], unprivileged: unprivileged)
    }

    @Test(arguments: [true, false])
    func readingCommandsAnswerAndWritingOnesSayTheStoreIsReadOnly(unprivileged: Bool) async throws {
        try makeReadOnly()
        let before = try snapshot()
        let query = try await health("query", "stepCount", "--format", "csv", unprivileged: unprivileged)
        #expect(query.status == 0, "\(query.stderr)")
        #expect(query.stdout.contains("2024-06-01T10:00:00Z,2024-06-01T10:10:00Z,100.0,count,Phone"), "\(query.stdout)")
        for reading in [["stats", "stepCount"], ["summary"], ["sources"], ["apps"], ["timezone"]] {
            let run = try await runHealth(reading + ["--store", store.path], in: folder, environment: ["TZ": "UTC"], unprivileged: unprivileged)
            #expect(run.status == 0, "\(reading): \(run.stderr)")
        }
        let exported = folder.appendingPathComponent("export-\(unprivileged).zip")
        let export = try await health("export", exported.path, unprivileged: unprivileged)
        #expect(export.status == 0 && FileManager.default.fileExists(atPath: exported.path), "\(export.stderr)")

        let manifest = folder.appendingPathComponent("app.json")
        try Data(#"{"CFBundleIdentifier": "com.example.steps", "CFBundleName": "Steps", "NSHealthUpdateUsageDescription": "Saves steps."}"#.utf8)
            .write(to: manifest)
        let refusal = "Error: the store in \(store.path) is read-only (a folder or file this user may not write), so nothing can be saved to it\n"
        for writing in [["add", "--app", manifest.path, "stepCount", "5", "count"], ["import", "export.xml"], ["timezone", "Europe/Paris"]] {
            let run = try await runHealth(writing + ["--store", store.path], in: folder, environment: ["TZ": "UTC"], unprivileged: unprivileged)
            #expect(run.status != 0, "\(writing)")
            #expect(run.stderr.hasSuffix(refusal), "\(writing): \(run.stderr)")
        }
        #expect(try snapshot() == before, "the store's folder is as it was")
    }

    /// A store copied while open keeps its last transactions in health.sqlite-wal: read through it, not around it
    /// (`immutable` would skip them), and written to no more than any other.
    @Test func theLastChangesInTheWriteAheadLogAreReadAndNothingIsWritten() async throws {
        let copy = folder.appendingPathComponent("copy")
        let database = try DatabasePool(path: store.appendingPathComponent("health.sqlite").path)
        try await database.write { try $0.execute(sql: "UPDATE sample SET value = value * 2, originalValue = originalValue * 2") }
        try FileManager.default.copyItem(at: store, to: copy)
        try database.close()
        #expect(FileManager.default.fileExists(atPath: copy.appendingPathComponent("health.sqlite-wal").path))
        try FileManager.default.removeItem(at: store)
        try FileManager.default.moveItem(at: copy, to: store)
        try makeReadOnly()
        let query = try await health("query", "stepCount", "--format", "csv", unprivileged: true)
        #expect(query.status == 0, "\(query.stderr)")
        #expect(query.stdout.contains(",200.0,count,Phone"), "\(query.stdout)")
        let timeZone = try await health("timezone", "Europe/Paris", unprivileged: true)
        #expect(timeZone.status != 0)
        #expect(timeZone.stderr == "Error: the store in \(store.path) is read-only (a folder or file this user may not write), so nothing can be saved to it\n",
                "\(timeZone.stderr)")
    }

    @Test func aStoreThatNeedsAnUpgradeItCannotHaveSaysSo() async throws {
        try await DatabaseQueue(path: store.appendingPathComponent("health.sqlite").path).write { db in
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = (SELECT max(identifier) FROM grdb_migrations)")
        }
        try makeReadOnly()
        let run = try await health("query", "stepCount", unprivileged: true)
        #expect(run.status != 0)
        #expect(run.stderr == """
            Error: the store in \(store.path) was made by an older version and must be upgraded before it can be read, which its \
            read-only folder does not allow; copy the folder somewhere writable and open the copy

            """, "\(run.stderr)")
    }
}
