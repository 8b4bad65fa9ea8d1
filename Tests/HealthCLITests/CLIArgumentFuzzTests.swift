import Foundation
import HealthModel
import Testing
import TestSupport

/// Random command lines for every `health` subcommand: well-formed ones with some arguments replaced by hostile
/// values (impossible dates, numbers no store can hold, empty and megabyte-long words, control characters, paths
/// that are folders, devices or absent), extra or missing words. Each run of the real binary, against one store
/// that the runs share, must end in bounded time, by exiting (never a signal) with 0, 1 (a failure) or 64 (a
/// malformed command line); a failure says `Error:` and what is wrong, and never shows a raw Foundation, SQLite or
/// Swift runtime message.
///
/// `OPENHEALTHKIT_FUZZ_CASES` sets the number of command lines (default 150), `OPENHEALTHKIT_FUZZ_SEED` the seed.
@Suite("Hostile: command-line fuzz", .serialized)
struct CLIArgumentFuzzTests {
    static let cases = ProcessInfo.processInfo.environment["OPENHEALTHKIT_FUZZ_CASES"].flatMap { Int($0) }.map { $0 * 3 / 2 } ?? 150
    static let seed = ProcessInfo.processInfo.environment["OPENHEALTHKIT_FUZZ_SEED"].flatMap { UInt64($0) } ?? 20_261_124
    /// The longest one command may take (a debug build on a busy 2-core machine).
    static let timeLimit: TimeInterval = 30

    /// Good values for each kind of argument.
    static let good: [String: [String]] = [
        "type": ["stepCount", "heartRate", "bodyMass", "sleepAnalysis", "HKQuantityTypeIdentifierActiveEnergyBurned", "workout"],
        "number": ["5", "72.5", "0", "-5", "1e3"],
        "count": ["1", "2", "20"],
        "unit": ["count", "kg", "count/min", "degC", "lb", "mg/dL", "kcal"],
        "date": ["2026-11-20", "2026-11-20T08:00:00Z", "2026-11-20T08:00:00+01:00", "2026-11-21"],
        "app": ["app.json"],
        "bundle": ["com.example.fuzz", "com.example.other"],
        "switch": ["allow", "deny"],
        "mode": ["on", "off", "status"],
        "characteristic": ["dateOfBirth", "biologicalSex", "bloodType", "skinType", "wheelchairUse", "moveMode"],
        "characteristicValue": ["1980-05-17", "female", "aPositive", "III", "no", "activeEnergy"],
        "zone": ["Europe/Paris", "UTC", "America/Los_Angeles"],
        "by": ["hour", "day", "week", "month", "year"],
        "format": ["csv", "json", "text"],
        "kind": ["quantity", "category", "correlation"],
        "text": ["step", "heart", "blood"],
        "export": ["export.xml"],
        "fhir": ["observation.json"],
        "card": ["card.txt"],
        "output": ["out"],
        "days": ["1"],
        "interval": ["900", "3600"],
    ]

    /// Hostile values, for any kind.
    static let hostile: [String] = [
        "", " ", "-", "--", "-5", "-0", "0", "-1e400", "1e400", "1e308", "nan", "-nan", "inf", "-inf", "99999999999999999999",
        "9223372036854775807", "-9223372036854775808", "0x10", "1,5", "٣", "2026-02-30", "2025-02-29T10:00:00Z", "0000-01-01",
        "0001-01-01", "9999-12-31T23:59:59Z", "2026-11-24T10:00:00+99:00", "2026-11-24T24:00:00Z", "10:00", "count/0", "kg^99999",
        "((((((((((", "m^-", "degC/degF", "\u{1}\u{7}\u{1B}[2J", "é\u{202E}txt", "..", "../../etc/passwd", "/", "/dev/null", "/proc/self/status",
        "/nonexistent/path/x.json", ".", "store", "com.apple.Health", "export.zip", "--store", "--help", "Europe/Nowhere",
        String(repeating: "a", count: 100_000), String(repeating: "9", count: 5_000), String(repeating: "(", count: 5_000),
    ]

    /// Each subcommand's command line: literal words, `<kind>` for an argument, `?` before a word pair that may be
    /// left out; `store` says whether `--store` is given.
    static let commands: [(words: [String], store: Bool)] = [
        (["types", "?", "--kind", "<kind>", "?", "--search", "<text>"], false),
        (["convert", "<number>", "<unit>", "<unit>"], false),
        (["unit", "<unit>"], false),
        (["authorize", "--app", "<app>", "--write", "<type>", "?", "--read", "<type>"], true),
        (["add", "--app", "<app>", "<type>", "<number>", "<unit>", "?", "--start", "<date>", "?", "--end", "<date>", "?", "--times", "<count>"], true),
        (["apps"], true),
        (["permission", "<bundle>", "<type>", "?", "--write", "<switch>", "?", "--read", "<switch>"], true),
        (["permission", "<bundle>", "--revoke-all"], true),
        (["guest", "<mode>"], true),
        (["characteristic", "<characteristic>", "<characteristicValue>"], true),
        (["priority", "<type>", "<bundle>", "<bundle>"], true),
        (["prefer", "<type>", "<unit>"], true),
        (["timezone", "<zone>"], true),
        (["generate", "--days", "<days>", "--heart-rate-interval", "<interval>", "?", "--seed", "<count>"], true),
        (["records", "import", "<fhir>"], true),
        (["records", "list"], true),
        (["cards", "import", "<card>", "?", "--allow-unverified", "?"], true),
        (["cards", "list"], true),
        (["import", "<export>", "?", "--json", "?"], true),
        (["export", "<output>"], true),
        (["summary"], true),
        (["sources"], true),
        (["query", "<type>", "?", "--from", "<date>", "?", "--to", "<date>", "?", "--time-zone", "<zone>", "?", "--source", "<bundle>",
          "?", "--limit", "<count>", "?", "--format", "<format>"], true),
        (["stats", "<type>", "?", "--from", "<date>", "?", "--to", "<date>", "?", "--by", "<by>", "?", "--sum", "?", "?", "--avg", "?",
          "?", "--separate-by-source", "?", "?", "--format", "<format>"], true),
    ]

    /// One command line of `template`, some of its arguments hostile; with what was changed, for the report.
    static func commandLine(_ template: [String], _ random: inout SplitMix64, output: String) -> ([String], [String]) {
        var words: [String] = [], changes: [String] = []
        var index = 0
        while index < template.count {
            var word = template[index]
            if word == "?" {
                // An optional pair (or a flag between two `?`).
                let isFlag = index + 2 < template.count && template[index + 2] == "?"
                let take = Bool.random(using: &random)
                if isFlag {
                    if take { words.append(template[index + 1]) }
                    index += 3
                } else {
                    if take {
                        words.append(template[index + 1])
                        index += 2
                    } else {
                        index += 3
                    }
                }
                continue
            }
            if word.hasPrefix("<") {
                let kind = String(word.dropFirst().dropLast())
                if Int.random(in: 0..<10, using: &random) < 3 {
                    word = hostile.randomElement(using: &random)!
                    changes.append("<\(kind)> := \(word.count > 40 ? "\(word.prefix(10))… (\(word.count) characters)" : word.debugDescription)")
                } else {
                    word = kind == "output" ? output : good[kind]!.randomElement(using: &random)!
                }
            }
            words.append(word)
            index += 1
        }
        switch Int.random(in: 0..<20, using: &random) {
        case 0 where !words.isEmpty:
            let at = Int.random(in: 0..<words.count, using: &random)
            changes.append("word \(at) (\(words[at].prefix(20).debugDescription)) left out")
            words.remove(at: at)
        case 1:
            let extra = (hostile + ["--bogus", "-x", "--from", "--store"]).randomElement(using: &random)!
            let at = Int.random(in: 0...words.count, using: &random)
            changes.append("\(extra.prefix(20).debugDescription) inserted at \(at)")
            words.insert(extra, at: at)
        default: break
        }
        return (words, changes)
    }

    /// What one run did.
    struct Run: Sendable {
        let status: Int32
        let signaled: Bool
        let timedOut: Bool
        let seconds: TimeInterval
        let stderr: String
    }

    /// Runs `health` with `arguments` in `folder`, killing it past the time limit; output goes to files, so that a
    /// command printing much never blocks on a pipe.
    static func run(_ arguments: [String], in folder: URL) async throws -> Run {
        let process = ChildProcess()
        process.executableURL = healthExecutable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        var environment = healthEnvironment(dataHome: folder.appendingPathComponent("data"))
        environment["OPENHEALTHKIT_APP"] = nil
        process.environment = environment
        let outURL = folder.appendingPathComponent("stdout"), errURL = folder.appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        defer { try? out.close(); try? err.close() }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let started = Date()
        try process.run()
        // Watched from a thread of its own, which kills it past the limit however busy the test run's threads are.
        let timedOut = await onOwnThread {
            while process.isRunning {
                if Date().timeIntervalSince(started) > timeLimit {
                    kill(process.processIdentifier, SIGKILL)
                    process.waitUntilExit()
                    return true
                }
                usleep(5_000)
            }
            process.waitUntilExit()
            return false
        }
        let stderr = String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self)
        return Run(status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal && !timedOut, timedOut: timedOut,
                   seconds: Date().timeIntervalSince(started), stderr: stderr)
    }

    /// The files the command lines name, in a fresh folder.
    static func prepare() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-fuzz-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(#"{"CFBundleIdentifier": "com.example.fuzz", "CFBundleName": "Fuzz", "NSHealthUpdateUsageDescription": "Saves.", "NSHealthShareUsageDescription": "Reads."}"#.utf8)
            .write(to: folder.appendingPathComponent("app.json"))
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <ExportDate value="2026-11-21 10:00:00 +0100"/>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" creationDate="2026-11-20 09:00:00 +0100" startDate="2026-11-20 08:00:00 +0100" endDate="2026-11-20 09:00:00 +0100" value="1200"/>
             <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" creationDate="2026-11-20 09:00:00 +0100" startDate="2026-11-20 08:30:00 +0100" endDate="2026-11-20 08:30:00 +0100" value="64"/>
            </HealthData>

            """.utf8).write(to: folder.appendingPathComponent("export.xml"))
        try FileManager.default.copyItem(at: Fixtures.file("fhir/r4/observation-example-f001-glucose.json"),
                                         to: folder.appendingPathComponent("observation.json"))
        try FileManager.default.copyItem(at: Fixtures.file("fhir/shc/examples/example-00-d-jws.txt"), to: folder.appendingPathComponent("card.txt"))
        return folder
    }

    @Test func everyCommandLineEndsWithAnAnswerOrOneClearError() async throws {
        var random = SplitMix64(state: Self.seed &+ 5)
        let folder = try Self.prepare()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("store").path
        var statuses: [Int32: Int] = [:], slowest: TimeInterval = 0, byCommand: [String: Int] = [:]
        for index in 0..<Self.cases {
            let (template, takesStore) = Self.commands.randomElement(using: &random)!
            let (words, changes) = Self.commandLine(template, &random, output: "out-\(index).zip")
            let arguments = words + (takesStore ? ["--store", store] : [])
            let label = "command \(index) (seed \(Self.seed &+ 5)): health \(words.map { $0.count > 40 ? "<\($0.count) characters>" : $0 }.joined(separator: " ")) — \(changes.joined(separator: "; "))"
            // Run and waited for on a thread of its own, not one of the test run's.
            let run = try await Self.run(arguments, in: folder)
            statuses[run.status, default: 0] += 1
            byCommand[template[0], default: 0] += 1
            slowest = max(slowest, run.seconds)
            #expect(!run.timedOut, "\(label): still running after \(Self.timeLimit) s")
            #expect(!run.signaled, "\(label): killed by signal \(run.status): \(run.stderr.suffix(600))")
            guard !run.timedOut, !run.signaled else { continue }
            #expect([0, 1, 64].contains(run.status), "\(label): exit status \(run.status): \(run.stderr.suffix(600))")
            if run.status != 0 {
                #expect(run.stderr.contains("Error: "), "\(label): failed without saying so: \(run.stderr.suffix(600))")
            }
            for raw in ["NSCocoaErrorDomain", "UserInfo=", "Fatal error", "DecodingError", "SQLite error", "constraint failed", "Stack dump",
                        "NSPOSIXErrorDomain"] {
                #expect(!run.stderr.contains(raw), "\(label): a raw message reached the person: \(run.stderr.suffix(600))")
            }
        }
        let commands = byCommand.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        print("fuzz command lines: \(Self.cases) runs; exit statuses \(statuses.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "));"
              + String(format: " slowest %.2f s", slowest) + "; \(commands)")
    }
}
