import Foundation
import GRDB
import Testing

/// `health deliveries`: the person reads which background deliveries `health serve` made, and why some failed.
@Suite("health deliveries")
struct DeliveriesCommandTests {
    @Test func deliveriesAreShownNewestFirstWithTheirFailuresAndFiltered() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-deliveries-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("store")
        #expect(try await runHealth(["generate", "--days", "1", "--store", store.path]).status == 0)
        #expect(try await runHealth(["deliveries", "--store", store.path]).stdout == "No app has a callback URL.\nNo deliveries.\n")
        // What the daemon writes (HealthServerTests check that it does), at known times.
        let now = Date().timeIntervalSince1970.rounded(.down)
        try await DatabaseQueue(path: store.appendingPathComponent("health.sqlite").path).write { db in
            try db.execute(sql: "INSERT INTO deliveryCallback (app, url, secret, registeredAt) VALUES (?, ?, ?, ?)",
                           arguments: ["com.example.steps", "http://127.0.0.1:8080/wake", Data(count: 32), now - 400])
            for (uuid, ago, app, types, state, attempts, error) in [
                ("a1", 300.0, "com.example.steps", #"["HKQuantityTypeIdentifierStepCount"]"#, "delivered", 1, nil as String?),
                ("b2", 200.0, "com.example.sleep", #"["HKCategoryTypeIdentifierSleepAnalysis"]"#, "failed", 20,
                 "attempt 20: the callback answered 503 Service Unavailable" as String?),
                ("c3", 100.0, "com.example.steps", #"["HKQuantityTypeIdentifierHeartRate","HKQuantityTypeIdentifierStepCount"]"#, "pending", 2,
                 "attempt 2: the callback could not be reached: connection refused" as String?),
            ] {
                try db.execute(sql: """
                    INSERT INTO delivery (uuid, app, types, createdAt, state, attempts, nextAttemptAt, lastError) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [uuid, app, types, now - ago, state, attempts, now + 60, error])
            }
        }
        let time = { (seconds: Double) in ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: seconds)) }
        let all = try await runHealth(["deliveries", "--store", store.path])
        #expect(all.stdout == """
            Callbacks:
              com.example.steps  http://127.0.0.1:8080/wake  since \(time(now - 400))
            Deliveries (newest first):
            \(time(now - 100))  com.example.steps  pending    2 attempts  heartRate,stepCount  next at \(time(now + 60)): attempt 2: the callback could not be reached: connection refused
            \(time(now - 200))  com.example.sleep  failed     20 attempts  sleepAnalysis  attempt 20: the callback answered 503 Service Unavailable
            \(time(now - 300))  com.example.steps  delivered  1 attempt  stepCount

            """, "\(all.stdout)\(all.stderr)")
        let failed = try await runHealth(["deliveries", "--store", store.path, "--state", "failed"])
        #expect(failed.stdout.split(separator: "\n").last?.contains("com.example.sleep  failed") == true, "\(failed.stdout)")
        let sleep = try await runHealth(["deliveries", "--store", store.path, "--app", "com.example.sleep"])
        #expect(sleep.stdout.hasPrefix("No app has a callback URL (com.example.sleep).\nDeliveries (newest first):\n"), "\(sleep.stdout)")
        let bad = try await runHealth(["deliveries", "--store", store.path, "--state", "lost"])
        #expect(bad.status != 0 && bad.stderr.contains("--state lost: not a state; use pending, delivered, failed or cancelled"), "\(bad.stderr)")
    }
}
