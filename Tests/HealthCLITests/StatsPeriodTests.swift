import Foundation
import Testing

/// `health stats` costs what it shows: a sample dated 9999 is one more row, not every empty hour up to it, and a
/// range of thousands of years by the day is refused, naming the limit.
@Suite("health CLI: stats over far dates")
struct StatsPeriodTests {
    let folder: URL

    /// Steps on 1 June 2024 and on 31 December 9999 (a damaged or mistyped date an export can carry).
    init() async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-far-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func record(_ day: String, _ value: String) -> String {
            """
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" sourceVersion="1" unit="count" \
            creationDate="\(day) 10:10:00 +0000" startDate="\(day) 10:00:00 +0000" endDate="\(day) 10:10:00 +0000" value="\(value)"/>

            """
        }
        let xml = "<HealthData locale=\"en_US\">\n" + record("2024-06-01", "100") + record("9999-12-31", "5") + "</HealthData>\n"
        try Data(xml.utf8).write(to: folder.appendingPathComponent("export.xml"))
        let imported = try await runHealth(["import", "export.xml"], in: folder)
        #expect(imported.status == 0, "\(imported.stderr)")
    }

    /// A run with at most 1 GB of address space; the old hourly statistics asked for 8–10 GB and died. The time bound is
    /// for a runaway enumeration (87 million hours take minutes): generous, since in CI this process starts while every
    /// suite starts on two cores, where even an instant refusal took 21 s of wall clock.
    static let bound: Double = 60

    func stats(_ arguments: String...) async throws -> (run: CLIRun, seconds: Double) {
        let started = Date()
        let run = try await runHealth(["stats", "stepCount"] + arguments, in: folder, environment: ["TZ": "UTC"], memoryLimit: 1_000_000)
        return (run, Date().timeIntervalSince(started))
    }

    @Test func hourlyStatisticsOverASampleIn9999ShowTheTwoHoursWithData() async throws {
        let (run, seconds) = try await stats("--by", "hour", "--format", "csv")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == """
            start,end,value,unit
            2024-06-01T10:00:00Z,2024-06-01T11:00:00Z,100.0,count
            9999-12-31T10:00:00Z,9999-12-31T11:00:00Z,5.0,count

            """, "\(run.stdout)")
        #expect(seconds < Self.bound, "\(seconds) s")
    }

    @Test func tenThousandYearsByTheDayAreRefusedNamingTheLimitAndByTheMonthAnswer() async throws {
        let (run, seconds) = try await stats("--by", "day", "--from", "0001-01-01", "--to", "9999-12-31")
        #expect(run.status != 0)
        #expect(run.stderr == """
            Error: --from 0001-01-01 --to 9999-12-31 asks for 3,652,061 days, more than the 200,000 periods health stats gives \
            at once; narrow the dates or use a longer --by

            """, "\(run.stderr)")
        #expect(seconds < Self.bound, "\(seconds) s")
        let (months, _) = try await stats("--by", "month", "--from", "0001-01-01", "--to", "9999-12-31", "--format", "csv")
        #expect(months.status == 0 && months.stdout.split(separator: "\n").count == 3, "\(months.stdout)\(months.stderr)")
    }
}
