import Foundation
import Testing

/// Dates on the command line that do not exist are refused, naming the option and why, instead of being moved
/// (30 February to 2 March, second 60 to the next minute) and stored or searched for silently.
@Suite("health CLI: impossible dates")
struct DateArgumentTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-dates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(#"{"CFBundleIdentifier": "com.example.steps", "CFBundleName": "Steps", "NSHealthUpdateUsageDescription": "Saves steps."}"#.utf8)
            .write(to: folder.appendingPathComponent("app.json"))
    }

    func refused(_ arguments: String...) async throws -> String {
        let run = try await runHealth(arguments + ["--store", folder.appendingPathComponent("store").path], in: folder)
        #expect(run.status != 0, "\(arguments): \(run.stdout)")
        return run.stderr
    }

    @Test func addRefusesTimesThatDoNotExist() async throws {
        #expect(try await refused("add", "--app", "app.json", "stepCount", "5", "count", "--start", "2026-02-30T10:00:00Z")
                == "Error: --start 2026-02-30T10:00:00Z: February 2026 has no day 30\n")
        #expect(try await refused("add", "--app", "app.json", "stepCount", "5", "count", "--start", "2026-02-28T10:00:00Z", "--end", "2026-02-28T10:59:60Z")
                == "Error: --end 2026-02-28T10:59:60Z: there is no second 60 (seconds run from 00 to 59)\n")
        #expect(try await refused("add", "--app", "app.json", "stepCount", "5", "count", "--start", "2026-02-28T24:00:00Z")
                == "Error: --start 2026-02-28T24:00:00Z: there is no hour 24 (hours run from 00 to 23)\n")
    }

    @Test func queryAndStatsRefuseDaysThatDoNotExist() async throws {
        let generated = try await runHealth(["generate", "--days", "1", "--store", folder.appendingPathComponent("store").path], in: folder)
        #expect(generated.status == 0, "\(generated.stderr)")
        #expect(try await refused("query", "stepCount", "--from", "2026-02-30") == "Error: --from 2026-02-30: February 2026 has no day 30\n")
        #expect(try await refused("stats", "stepCount", "--to", "2025-02-29") == "Error: --to 2025-02-29: February 2025 has no day 29\n")
        #expect(try await refused("stats", "stepCount", "--from", "2026-13-01") == "Error: --from 2026-13-01: there is no month 13 (months run from 01 to 12)\n")
    }
}
