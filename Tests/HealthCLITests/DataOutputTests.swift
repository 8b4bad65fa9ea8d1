import Foundation
import Testing

/// `health query` and `health stats` for people who work with data: complete machine output, full precision, and days
/// that begin at the person's midnight wherever the store is read.
@Suite("health CLI: output for data")
struct DataOutputTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-data-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func health(_ arguments: String..., timeZone: String = "UTC") async throws -> CLIRun {
        let run = try await runHealth(arguments, in: folder, environment: ["TZ": timeZone])
        #expect(run.status == 0, "\(arguments): \(run.stderr)")
        return run
    }

    /// Steps recorded in Los Angeles: 1000.25 late on 30 October (the 31st in UTC) and 0.125 + 2 on the 31st.
    func writeExport(zone: String? = "America/Los_Angeles") throws -> String {
        func record(_ start: String, _ end: String, _ value: String) -> String {
            """
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Alex’s iPhone" sourceVersion="18.1" unit="count" \
            creationDate="\(end)" startDate="\(start)" endDate="\(end)" value="\(value)">\(zone.map { "\n  <MetadataEntry key=\"HKTimeZone\" value=\"\($0)\"/>\n " } ?? "")</Record>

            """
        }
        let xml = "<HealthData locale=\"en_US\">\n"
            + record("2026-10-30 23:30:00 -0700", "2026-10-30 23:40:00 -0700", "1000.25")
            + record("2026-10-31 09:00:00 -0700", "2026-10-31 09:10:00 -0700", "0.125")
            + record("2026-10-31 10:00:00 -0700", "2026-10-31 10:10:00 -0700", "2")
            + "</HealthData>\n"
        let file = folder.appendingPathComponent("export.xml")
        try Data(xml.utf8).write(to: file)
        return file.path
    }

    @Test func machineFormatsAndPipedTablesAreComplete() async throws {
        let audio = Fixtures.file("apple-health-export/opendroid_hk/audio_exposure.xml")
        _ = try await health("import", audio.path)
        let json = try await health("query", "environmentalAudioExposure", "--format", "json")
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(objects.count == 4_951)
        let csv = try await health("query", "environmentalAudioExposure", "--format", "csv").stdout.split(separator: "\n")
        #expect(csv.count == 4_952 && csv[0] == "start,end,value,unit,source")
        let table = try await health("query", "environmentalAudioExposure").stdout.split(separator: "\n")
        #expect(table.count == 4_951 && !table.contains { $0.contains("showing") })
        #expect(try await health("query", "environmentalAudioExposure", "--limit", "7", "--format", "csv").stdout.split(separator: "\n").count == 8)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func aTableOnATerminalShowsAScreenfulAndSaysHowManyThereAre() async throws {
        let audio = Fixtures.file("apple-health-export/opendroid_hk/audio_exposure.xml")
        _ = try await health("import", audio.path)
        let text = try await runShell("\(healthExecutable.path) query environmentalAudioExposure --store \(folder.appendingPathComponent("openhealthkit").path)",
                                onTerminal: true, environment: ["PAGER": "cat", "TZ": "UTC"])
        let lines = text.split(whereSeparator: \.isNewline)
        #expect(lines.count == 101, "\(lines.suffix(2))")
        #expect(lines.last?.hasPrefix("showing 100 of 4,951 — `--limit 0` for all") == true, "\(lines.last ?? "")")
    }

    @Test func statsComeAsCSVAndJSONAtFullPrecision() async throws {
        _ = try await health("import", try writeExport())
        let table = try await health("stats", "stepCount", "--by", "day").stdout
        #expect(table.contains("1000.2 count") || table.contains("1000.3 count"), "\(table)")
        let csv = try await health("stats", "stepCount", "--by", "day", "--format", "csv").stdout
        #expect(csv == """
            start,end,value,unit
            2026-10-30T00:00:00-07:00,2026-10-31T00:00:00-07:00,1000.25,count
            2026-10-31T00:00:00-07:00,2026-11-01T00:00:00-07:00,2.125,count

            """, "\(csv)")
        let json = try await health("stats", "stepCount", "--by", "day", "--format", "json").stdout
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(objects.map { $0["value"] as? Double } == [1000.25, 2.125] && objects.first?["statistic"] as? String == "sum")
    }

    @Test func daysBeginAtThePersonsMidnightWhateverTheMachinesZone() async throws {
        let imported = try await health("import", try writeExport())
        #expect(imported.stdout.contains("Your days are counted in America/Los_Angeles, where the export's latest samples were recorded"))
        // The same store on a laptop in Los Angeles and on a server in UTC or Tokyo: the same days.
        var days: [String?] = []
        for zone in ["America/Los_Angeles", "UTC", "Asia/Tokyo"] {
            days.append(try? await health("stats", "stepCount", "--by", "day", "--format", "csv", timeZone: zone).stdout)
        }
        #expect(Set(days).count == 1 && days[0]?.contains("2026-10-30T00:00:00-07:00,2026-10-31T00:00:00-07:00,1000.25") == true)
        // --time-zone for one command; health timezone for good, which a later import does not undo.
        let utc = try await health("stats", "stepCount", "--by", "day", "--format", "csv", "--time-zone", "UTC").stdout
        #expect(utc.contains("2026-10-31T00:00:00Z,2026-11-01T00:00:00Z,1002.375"), "\(utc)")
        #expect(try await health("timezone", "Asia/Tokyo").stdout == "Asia/Tokyo (yours)\n")
        _ = try await health("import", try writeExport())
        #expect(try await health("timezone").stdout == "Asia/Tokyo (yours)\n")
        let bad = try await runHealth(["stats", "stepCount", "--time-zone", "Mars/Olympus"], in: folder)
        #expect(bad.status != 0 && bad.stderr.contains("\"Mars/Olympus\" is not a time zone"))
    }

    @Test func withoutAnyZoneTheMachinesApplies() async throws {
        _ = try await health("import", try writeExport(zone: nil))
        #expect(try await health("timezone", timeZone: "UTC").stdout.contains("(this machine's"))
        let utc = try await health("stats", "stepCount", "--by", "day", "--format", "csv", timeZone: "UTC").stdout
        #expect(utc.contains("2026-10-31T00:00:00Z,2026-11-01T00:00:00Z,1002.375"), "\(utc)")
    }
}
