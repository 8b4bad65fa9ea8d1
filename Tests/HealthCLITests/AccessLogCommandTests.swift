import Foundation
import GRDB
import Testing

/// `health access-log`: the person reads what apps did through the daemon, filtered by app, type and time.
@Suite("health access-log")
struct AccessLogCommandTests {
    @Test func theLogIsShownNewestFirstAndFiltered() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-access-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("store")
        let empty = try await runHealth(["access-log", "--store", store.path, "--limit", "5"], in: folder.deletingLastPathComponent())
        #expect(empty.status == 1 && empty.stderr.contains("there is no store in"), "\(empty.stderr)")
        #expect(try await runHealth(["generate", "--days", "1", "--store", store.path]).status == 0)
        #expect(try await runHealth(["access-log", "--store", store.path]).stdout == "No app has read or written anything through health serve.\n")
        // What the daemon writes (HealthServerTests check that it does), at known times.
        let now = Date().timeIntervalSince1970.rounded(.down)
        try await DatabaseQueue(path: store.appendingPathComponent("health.sqlite").path).write { db in
            for (ago, app, operation, type, count, outcome) in [
                (300.0, "com.example.steps", "save", "HKQuantityTypeIdentifierStepCount", 12, "allowed"),
                (200.0, "com.example.steps", "query", "HKQuantityTypeIdentifierStepCount", 40, "allowed"),
                (100.0, "com.example.sleep", "save", "HKCategoryTypeIdentifierSleepAnalysis", 1, "denied"),
            ] {
                try db.execute(sql: "INSERT INTO accessLog (time, app, operation, type, count, outcome) VALUES (?, ?, ?, ?, ?, ?)",
                               arguments: [now - ago, app, operation, type, count, outcome])
            }
        }
        let time = { (ago: Double) in ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: now - ago)) }
        let all = try await runHealth(["access-log", "--store", store.path])
        #expect(all.stdout == """
            \(time(100))  com.example.sleep  save   HKCategoryTypeIdentifierSleepAnalysis       1  denied
            \(time(200))  com.example.steps  query  HKQuantityTypeIdentifierStepCount          40  allowed
            \(time(300))  com.example.steps  save   HKQuantityTypeIdentifierStepCount          12  allowed

            """, "\(all.stdout)\(all.stderr)")
        let steps = try await runHealth(["access-log", "--store", store.path, "--type", "stepCount", "--since", time(250)])
        #expect(steps.stdout.split(separator: "\n").map { $0.split(separator: " ").last.map(String.init) } == ["allowed"], "\(steps.stdout)")
        #expect(try await runHealth(["access-log", "--store", store.path, "--app", "com.example.sleep"]).stdout.hasSuffix("1  denied\n"))
        let bad = try await runHealth(["access-log", "--store", store.path, "--since", "yesterday"])
        #expect(bad.status == 1 && bad.stderr == "Error: --since yesterday is not an ISO 8601 time; write it as 2026-11-23T08:00:00Z\n")
    }
}
