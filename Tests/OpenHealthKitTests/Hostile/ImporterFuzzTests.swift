import Foundation
import Testing
@testable import HealthExport
import HealthModel
@testable import OpenHealthKit

/// Bytes in memory, read as a file is.
final class MemoryStream: ByteStream {
    private let bytes: [UInt8]
    private var offset = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, bytes.count - offset)
        if count > 0 { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes.withUnsafeBytes { $0 }[offset..<offset + count])) }
        offset += count
        return count
    }
}

/// Mutants of real exports: an export.xml, its export.zip, its health records' FHIR JSON, each changed as damage or an
/// attacker would (bits flipped, cut short, tags repeated or removed, quotes broken, values no store can hold,
/// impossible dates). Each is imported into a fresh store, and the import must end — in bounded time, without a crash —
/// either with an error that names the problem, or with every element of the file accounted for: stored, or reported
/// as left out. Never a silent loss.
///
/// `OPENHEALTHKIT_FUZZ_CASES` sets the number of mutants of each kind (default 100, under 20 s in all),
/// `OPENHEALTHKIT_FUZZ_SEED` the seed (FUZZING.md records a long run).
@Suite("Importer mutation fuzz", .serialized)
struct ImporterFuzzTests {
    static let cases = ProcessInfo.processInfo.environment["OPENHEALTHKIT_FUZZ_CASES"].flatMap { Int($0) } ?? 100
    static let seed = ProcessInfo.processInfo.environment["OPENHEALTHKIT_FUZZ_SEED"].flatMap { UInt64($0) } ?? 20_261_124
    /// The longest one small mutant's import may take (a debug build on a busy 2-core machine takes ≈ 50 ms).
    static let timeLimit: TimeInterval = 20

    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-fuzz-\(UUID().uuidString)")

    /// What a run did, printed at its end (FUZZING.md).
    final class Tally: @unchecked Sendable {
        var imported = 0, refused = 0, slowest: TimeInterval = 0
        var reasons: [String: Int] = [:]
        /// Counts `reason` without its numbers, so that alike errors count together.
        func count(_ reason: String) {
            reasons[String(reason.map { $0.isNumber ? "#" : $0 }).replacingOccurrences(of: "##", with: "#"), default: 0] += 1
        }
        /// Counts an import that ended in `error`.
        func refused(_ error: any Error) {
            refused += 1
            count((error as? HKError)?.message ?? "\(error)")
        }
        func line(_ kind: String) -> String {
            let top = reasons.sorted { $0.value > $1.value }.prefix(5).map { "\($0.value)× \($0.key.prefix(90))" }.joined(separator: " | ")
            return "fuzz \(kind): \(imported + refused) mutants, \(imported) imported (accounting checked), \(refused) refused with an error; "
                + String(format: "slowest %.2f s", slowest) + "; most frequent errors: \(top)"
        }
    }

    /// A real export (records with metadata, a blood-pressure correlation, `<Me>`) with a real workout appended (events,
    /// statistics, an activity, a route file that is not there), plus an inline route and activity summaries.
    static let baseXML: [UInt8] = {
        let export = exportFixtures.appendingPathComponent("y-yu_ahcd-go/export.xml")
        let workout = exportFixtures.appendingPathComponent("NicolasReyrolle_apple-health-analyzer/exports/workout_running.xml")
        var text = (try? String(contentsOf: export, encoding: .utf8)) ?? ""
        let extra = ((try? String(contentsOf: workout, encoding: .utf8)) ?? "") + #"""
             <Workout workoutActivityType="HKWorkoutActivityTypeWalking" duration="10" durationUnit="min" sourceName="Watch" startDate="2025-09-17 10:00:00 +0100" endDate="2025-09-17 10:10:00 +0100">
              <WorkoutEvent type="HKWorkoutEventTypePause" date="2025-09-17 10:02:00 +0100" duration="1" durationUnit="min"/>
              <WorkoutRoute sourceName="Watch" startDate="2025-09-17 10:00:00 +0100" endDate="2025-09-17 10:10:00 +0100">
               <Location date="2025-09-17 10:00:00 +0100" latitude="48.85" longitude="2.35" altitude="35" horizontalAccuracy="5" verticalAccuracy="3" course="90" speed="1.4"/>
               <Location date="2025-09-17 10:05:00 +0100" latitude="48.86" longitude="2.36" altitude="36" horizontalAccuracy="5" verticalAccuracy="3" course="90" speed="1.4"/>
              </WorkoutRoute>
             </Workout>
             <ActivitySummary dateComponents="2025-09-16" activeEnergyBurned="512.5" activeEnergyBurnedGoal="600" activeEnergyBurnedUnit="kcal" appleMoveTime="0" appleMoveTimeGoal="0" appleExerciseTime="61" appleExerciseTimeGoal="30" appleStandHours="10" appleStandHoursGoal="12"/>
             <ActivitySummary dateComponents="2025-09-17" activeEnergyBurned="300" activeEnergyBurnedGoal="600" activeEnergyBurnedUnit="kcal" appleExerciseTime="10" appleExerciseTimeGoal="30" appleStandHours="8" appleStandHoursGoal="12"/>
            """# + "\n"
        text = text.replacingOccurrences(of: "</HealthData>", with: extra + "</HealthData>")
        return Array(text.utf8)
    }()

    // MARK: Mutations

    static let hostileNumbers = ["nan", "NaN", "-nan", "inf", "-inf", "infinity", "1e308", "-1e308", "1e309", "-1e309", "9223372036854775808",
                                 "-9223372036854775809", "1e-320", "-1", "-0", "0", "", "abc", "0x10", "1,5", " 5", "5 "]
    static let hostileDates = ["2026-02-30 10:00:00 +0100", "2025-02-29 10:00:00 +0100", "2026-10-01 24:00:00 +0100", "2026-10-01 10:60:00 +0100",
                               "2026-10-01 10:00:60 +0100", "0000-01-01 00:00:00 +0000", "2026-10-01 10:00:00 +9999", "2026-10-01 10:00:00 -1500",
                               "9999-12-31 23:59:59 -1400", "0001-01-01 00:00:00 +1400", "1970-01-01 00:00:00 +0000", "2026-13-01 10:00:00 +0100",
                               "2026-10-01", "20261001100000+0100", "2026-10-01 10:00:00"]
    static let hostileSnippets = ["<", ">", "&", "&amp", "&#0;", "&#xD800;", "\"", "'", "<!--", "-->", "<![CDATA[", "]]>", "<?", "?>", "</Record>",
                                  "</Workout>", "</Correlation>", "</WorkoutRoute>", "<Record>", "<Workout>", "<Correlation>", "<Record/>", "\u{0}",
                                  "\u{FEFF}", "\n", "<!DOCTYPE x [", "]>"]

    /// Applies one to three mutations to `bytes`; says which, for the report of a failing case.
    static func mutate(_ original: [UInt8], _ random: inout SplitMix64) -> (bytes: [UInt8], description: String) {
        var bytes = original
        var done: [String] = []
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            guard !bytes.isEmpty else { break }
            switch Int.random(in: 0..<11, using: &random) {
            case 0:
                let at = Int.random(in: 0..<bytes.count, using: &random), bit = Int.random(in: 0..<8, using: &random)
                bytes[at] ^= UInt8(1 << bit)
                done.append("flip bit \(bit) of byte \(at)")
            case 1:
                let at = Int.random(in: 0..<bytes.count, using: &random)
                bytes.removeSubrange(at...)
                done.append("truncate at \(at)")
            case 2, 3, 4:
                // Line-level: duplicate, remove or swap tag lines.
                var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
                let at = Int.random(in: 0..<lines.count, using: &random)
                let kind = Int.random(in: 0..<3, using: &random)
                if kind == 0 { lines.insert(lines[at], at: at); done.append("duplicate line \(at + 1)") }
                else if kind == 1 { lines.remove(at: at); done.append("remove line \(at + 1)") }
                else {
                    let other = Int.random(in: 0..<lines.count, using: &random)
                    lines.swapAt(at, other)
                    done.append("swap lines \(at + 1) and \(other + 1)")
                }
                bytes = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
            case 5:
                let quotes = bytes.indices.filter { bytes[$0] == UInt8(ascii: "\"") }
                guard let at = quotes.randomElement(using: &random) else { continue }
                bytes.remove(at: at)
                done.append("remove the quote at \(at)")
            case 6, 7:
                // An attribute value replaced: by a hostile number, or by an impossible date when it is a date.
                let values = attributeValues(bytes)
                guard let value = values.randomElement(using: &random) else { continue }
                let isDate = bytes[value].count >= 19 && bytes[value][value.lowerBound + 4] == UInt8(ascii: "-")
                let replacement = isDate ? hostileDates.randomElement(using: &random)! : hostileNumbers.randomElement(using: &random)!
                bytes.replaceSubrange(value, with: Array(replacement.utf8))
                done.append("value at \(value.lowerBound) := \"\(replacement)\"")
            case 8:
                let ends = endTags(bytes)
                guard let end = ends.randomElement(using: &random) else { continue }
                bytes.removeSubrange(end)
                done.append("remove the end tag at \(end.lowerBound)")
            case 9:
                let at = Int.random(in: 0...bytes.count, using: &random), snippet = hostileSnippets.randomElement(using: &random)!
                bytes.insert(contentsOf: Array(snippet.utf8), at: at)
                done.append("insert \(snippet.debugDescription) at \(at)")
            default:
                // A huge number of digits, or an attribute value a megabyte long.
                let values = attributeValues(bytes)
                guard let value = values.randomElement(using: &random) else { continue }
                let long = Bool.random(using: &random)
                bytes.replaceSubrange(value, with: long ? [UInt8](repeating: UInt8(ascii: "9"), count: 1 << 20) : Array("1" + String(repeating: "0", count: 400)).map { $0.asciiValue! })
                done.append(long ? "value at \(value.lowerBound) := a megabyte of 9s" : "value at \(value.lowerBound) := 1e400 in digits")
            }
        }
        return (bytes, done.joined(separator: "; "))
    }

    /// The ranges of the attribute values in `bytes` (between `="` and the next `"`).
    static func attributeValues(_ bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var index = 1
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\""), bytes[index - 1] == UInt8(ascii: "=") {
                var end = index + 1
                while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += 1 }
                if end < bytes.count { ranges.append(index + 1..<end) }
                index = end + 1
            } else {
                index += 1
            }
        }
        return ranges
    }

    /// The ranges of the end tags in `bytes`.
    static func endTags(_ bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        for index in bytes.indices.dropLast() where bytes[index] == UInt8(ascii: "<") && bytes[index + 1] == UInt8(ascii: "/") {
            if let close = bytes[index...].firstIndex(of: UInt8(ascii: ">")) { ranges.append(index..<close + 1) }
        }
        return ranges
    }

    // MARK: Accounting

    /// How many start tags named `name` the export's own tokenizer finds in `bytes` (outside comments, CDATA, the DTD
    /// and attribute values: what the file holds as XML).
    static func count(_ name: String, in bytes: [UInt8]) -> Int {
        var count = 0
        let scanner = XMLStartTagScanner(chunkSize: 1 << 16) { MemoryStream(bytes) }
        try? scanner.scanInPlace { tag in if tag.name == name { count += 1 } }
        return count
    }

    /// The Records inside the Correlation that starts on `line` (1-based) of `bytes`: they are left out with it.
    static func recordsInCorrelation(at line: Int, in bytes: [UInt8]) -> Int {
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard line >= 1, line <= lines.count else { return 0 }
        var text = ""
        // Its end tag is on a later line (one mutated into its start tag does not end it: it breaks that tag).
        for (offset, candidate) in lines[(line - 1)...].enumerated() {
            text += candidate + "\n"
            if offset > 0 && candidate.contains("</Correlation>") { break }
        }
        return count("Record", in: Array(text.utf8))
    }

    /// The error an import may end with: one that names what is wrong with the export, never the store's own failure.
    static func checkError(_ error: any Error, _ label: String) {
        guard let error = error as? HKError else {
            Issue.record("\(label): an error that is not an HKError: \(error)")
            return
        }
        #expect(!error.message.isEmpty, "\(label)")
        #expect(!error.message.contains("could not be read or written") && !error.message.contains("constraint"),
                "\(label): the store refused what the reader let in: \(error.message)")
    }

    /// Imports `export` into a fresh store, in bounded time; the result, or nil after an error (checked).
    static func importing(_ export: URL, _ label: String, tally: Tally? = nil) -> ExportImport? {
        let store = folder.appendingPathComponent("store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: store) }
        let started = Date()
        defer {
            let seconds = Date().timeIntervalSince(started)
            #expect(seconds < timeLimit, "\(label): the import took \(seconds) s")
            if let tally { tally.slowest = max(tally.slowest, seconds) }
        }
        do {
            let result = try HealthPerson(storeDirectory: store).importExport(at: export)
            tally?.imported += 1
            return result
        } catch {
            checkError(error, label)
            tally?.refused(error)
            return nil
        }
    }

    /// What a finished import of `bytes` must account for: each Record and Workout stored or reported, the store
    /// holding what was read.
    static func checkAccounting(_ result: ExportImport, of bytes: [UInt8], _ label: String) {
        let stored = result.added.values.reduce(0, +) + result.alreadyStored + result.exactCopies
        let read = result.read.values.reduce(0, +)
        #expect(stored == read, "\(label): \(read) samples read, \(stored) stored or found stored")
        guard result.problems.count < 1_000 else { return }
        func reported(_ elements: Set<String>) -> Int { result.problems.filter { elements.contains($0.element) }.count }
        let records = count("Record", in: bytes)
        let recordRows = result.read.filter { HKObjectType.type(forIdentifier: $0.key) is HKQuantityType || HKObjectType.type(forIdentifier: $0.key) is HKCategoryType }
            .values.reduce(0, +)
        let withCorrelations = result.problems.filter { $0.element == "Correlation" }.map { recordsInCorrelation(at: $0.line, in: bytes) }.reduce(0, +)
        #expect(recordRows <= records, "\(label): \(recordRows) records read of \(records)")
        #expect(records <= recordRows + reported(["Record", "XML"]) + withCorrelations,
                "\(label): \(records) Records, \(recordRows) read, \(reported(["Record", "XML"])) reported, \(withCorrelations) left out with their correlation: \(result.problems)")
        let workouts = count("Workout", in: bytes), workoutsRead = result.read[HKWorkoutTypeIdentifier] ?? 0
        #expect(workoutsRead <= workouts && workouts <= workoutsRead + reported(["Workout", "XML"]),
                "\(label): \(workouts) Workouts, \(workoutsRead) read: \(result.problems)")
        let summaries = Set(String(decoding: bytes, as: UTF8.self).split(separator: "<ActivitySummary").dropFirst().map { $0.prefix(40) }).count
        #expect(summaries <= result.activitySummaries + reported(["ActivitySummary", "XML"]) + 1,
                "\(label): \(summaries) ActivitySummaries, \(result.activitySummaries) stored: \(result.problems)")
    }

    /// Keeps a failing mutant where it can be imported again, and says where.
    static func keep(_ bytes: [UInt8], _ name: String) -> String {
        let kept = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-fuzz-failures/\(name)")
        try? FileManager.default.createDirectory(at: kept.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? Data(bytes).write(to: kept)
        return kept.path
    }

    // MARK: The runs

    @Test func mutatedExportXMLIsStoredOrReportedNeverLostSilently() throws {
        var random = SplitMix64(state: Self.seed)
        try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: Self.folder) }
        let base = Self.folder.appendingPathComponent("base.xml")
        try Data(Self.baseXML).write(to: base)
        // The unmutated export: everything lands, only the missing route file is reported.
        let intact = try #require(Self.importing(base, "the base export"))
        Self.checkAccounting(intact, of: Self.baseXML, "the base export")
        #expect(intact.addedTotal == 15 && intact.activitySummaries == 2, "\(intact.added)")
        let tally = Tally()
        for index in 0..<Self.cases {
            let (bytes, mutations) = Self.mutate(Self.baseXML, &random)
            let file = Self.folder.appendingPathComponent("export.xml")
            try Data(bytes).write(to: file)
            let label = "xml case \(index) (seed \(Self.seed)): \(mutations)"
            if let result = Self.importing(file, label, tally: tally) { Self.checkAccounting(result, of: bytes, label) }
        }
        print(tally.line("export.xml"))
    }

    @Test func mutatedExportZipIsReadWholeOrRefused() throws {
        var random = SplitMix64(state: Self.seed &+ 1)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-fuzz-zip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("apple_health_export"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(Self.baseXML).write(to: folder.appendingPathComponent("apple_health_export/export.xml"))
        let zip = folder.appendingPathComponent("export.zip")
        try ExportZip.pack(folder.appendingPathComponent("apple_health_export"), into: zip)
        let original = try [UInt8](Data(contentsOf: zip))
        let intact = try #require(Self.importing(zip, "the base export.zip"))
        let tally = Tally()
        defer { print(tally.line("export.zip")) }
        for index in 0..<Self.cases {
            var bytes = original
            var mutations: [String] = []
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                switch Int.random(in: 0..<4, using: &random) {
                case 0:
                    let at = Int.random(in: 0..<bytes.count, using: &random), bit = Int.random(in: 0..<8, using: &random)
                    bytes[at] ^= UInt8(1 << bit)
                    mutations.append("flip bit \(bit) of byte \(at)")
                case 1:
                    let at = Int.random(in: 0..<bytes.count, using: &random)
                    bytes.removeSubrange(at...)
                    mutations.append("truncate at \(at)")
                case 2:
                    // A size, offset or count field of a header set to an extreme.
                    let at = Int.random(in: 0..<max(1, bytes.count - 4), using: &random)
                    let value: [UInt8] = [[0xFF, 0xFF, 0xFF, 0xFF], [0, 0, 0, 0], [0xFF, 0xFF, 0xFF, 0x7F], [1, 0, 0, 0]].randomElement(using: &random)!
                    bytes.replaceSubrange(at..<min(at + 4, bytes.count), with: value)
                    mutations.append("4 bytes at \(at) := \(value)")
                default:
                    let at = Int.random(in: 0...bytes.count, using: &random)
                    bytes.insert(contentsOf: [UInt8](repeating: UInt8.random(in: 0...255, using: &random), count: Int.random(in: 1...64, using: &random)), at: at)
                    mutations.append("insert bytes at \(at)")
                }
                if bytes.isEmpty { break }
            }
            let file = folder.appendingPathComponent("mutant.zip")
            try Data(bytes).write(to: file)
            let label = "zip case \(index) (seed \(Self.seed &+ 1)): \(mutations.joined(separator: "; "))"
            // A zip that is read is read whole (its CRC-32 checked): what it gives is the export as it was.
            if let result = Self.importing(file, label, tally: tally) {
                #expect(result.read == intact.read && result.activitySummaries == intact.activitySummaries,
                        "\(label): \(result.read) read, \(intact.read) in the export; kept at \(Self.keep(bytes, "zip-\(index).zip"))")
            }
        }
    }

    @Test func mutatedHealthRecordsAreStoredOrRejectedNeverLostSilently() throws {
        var random = SplitMix64(state: Self.seed &+ 2)
        let source = Fixtures.root.appendingPathComponent("fhir/apple-health-export-sample/apple_health_export")
        let files = try FileManager.default.contentsOfDirectory(atPath: source.appendingPathComponent("clinical-records").path).sorted()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-fuzz-fhir-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let tally = Tally()
        defer { print(tally.line("health records (FHIR JSON)")) }
        for index in 0..<Self.cases {
            let export = folder.appendingPathComponent("apple_health_export")
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: source, to: export)
            // One or two resources mutated.
            var mutations: [String] = []
            for _ in 0..<Int.random(in: 1...2, using: &random) {
                let name = files.randomElement(using: &random)!
                let path = export.appendingPathComponent("clinical-records/\(name)")
                var bytes = try [UInt8](Data(contentsOf: path))
                let (mutated, description) = Self.mutateJSON(bytes, &random)
                bytes = mutated
                try Data(bytes).write(to: path)
                mutations.append("\(name): \(description)")
            }
            let label = "fhir case \(index) (seed \(Self.seed &+ 2)): \(mutations.joined(separator: "; "))"
            guard let result = Self.importing(export, label, tally: tally) else { continue }
            let clinical = result.clinicalRecords
            let accounted = (clinical?.added ?? 0) + (clinical?.updated ?? 0) + (clinical?.unchanged ?? 0) + (clinical?.ignored.count ?? 0)
                + (clinical?.rejected.count ?? 0) + (clinical?.patients ?? 0)
            #expect(accounted >= files.count, "\(label): \(files.count) resources, \(accounted) accounted: \(clinical.map { "\($0)" } ?? "no health records")")
        }
    }

    /// A JSON document changed: bits flipped, cut short, a value replaced by a hostile one, a key removed.
    static func mutateJSON(_ original: [UInt8], _ random: inout SplitMix64) -> ([UInt8], String) {
        var bytes = original
        guard !bytes.isEmpty else { return (bytes, "empty") }
        switch Int.random(in: 0..<5, using: &random) {
        case 0:
            let at = Int.random(in: 0..<bytes.count, using: &random), bit = Int.random(in: 0..<8, using: &random)
            bytes[at] ^= UInt8(1 << bit)
            return (bytes, "flip bit \(bit) of byte \(at)")
        case 1:
            let at = Int.random(in: 0..<bytes.count, using: &random)
            bytes.removeSubrange(at...)
            return (bytes, "truncate at \(at)")
        case 2, 3:
            // A string value replaced by a hostile one.
            let values = attributeValues(bytes.map { $0 == UInt8(ascii: ":") ? UInt8(ascii: "=") : $0 }).filter { bytes[$0.lowerBound - 1] != UInt8(ascii: "=") }
            guard let value = values.randomElement(using: &random) else { return (bytes, "no value") }
            let replacement = (hostileNumbers + hostileDates + ["\\u0000", "\\ud800", "\\", "\""]).randomElement(using: &random)!
            bytes.replaceSubrange(value, with: Array(replacement.utf8))
            return (bytes, "value at \(value.lowerBound) := \(replacement.debugDescription)")
        default:
            let numbers = ["1e400", "-1e400", "NaN", "Infinity", "null", "true", "[]", "{}", "99999999999999999999999"]
            guard let colon = bytes.indices.filter({ bytes[$0] == UInt8(ascii: ":") }).randomElement(using: &random) else { return (bytes, "no key") }
            var end = colon + 1
            while end < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]")].contains(bytes[end]) { end += 1 }
            let replacement = numbers.randomElement(using: &random)!
            bytes.replaceSubrange(colon + 1..<end, with: Array(replacement.utf8))
            return (bytes, "value after the colon at \(colon) := \(replacement)")
        }
    }
}
