import Foundation
import Testing

/// End-to-end tests of the `health` binary: run it as a user would and read what it prints.
@Suite("health CLI")
struct HealthCLITests {
    func health(_ arguments: String...) async throws -> CLIRun { try await runHealth(arguments) }

    @Test func typesListsTheWholeCatalog() async throws {
        let run = try await health("types")
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.last == "217 types")
        #expect(run.stdout.contains("HKQuantityTypeIdentifierStepCount"))
        #expect(run.stdout.contains("HKCategoryTypeIdentifierSleepAnalysis"))
        #expect(run.stdout.contains("HKClinicalTypeIdentifierLabResultRecord"))
    }

    @Test func typesFiltersByKindAndText() async throws {
        let run = try await health("types", "--kind", "quantity", "--search", "heartrate")
        #expect(run.status == 0)
        let heartRate = try #require(run.stdout.split(separator: "\n").first { $0.contains("HKQuantityTypeIdentifierHeartRate ") })
        #expect(heartRate.contains("count/s"))
        #expect(heartRate.contains("discrete (temporally weighted)"))
        #expect(!run.stdout.contains("category"))
    }

    @Test func convertUsesTheUnitEngine() async throws {
        let run = try await health("convert", "72", "count/min", "count/s")
        #expect(run.status == 0)
        #expect(run.stdout == "72 count/min = 1.2 count/s\n")
        #expect(try await health("convert", "98.6", "degF", "degC").stdout == "98.6 degF = 37 degC\n")
        #expect(try await health("convert", "1", "mi", "m").stdout == "1 mi = 1609.344 m\n")
    }

    @Test func convertExplainsIncompatibleUnits() async throws {
        let run = try await health("convert", "5", "kg", "count")
        #expect(run.status != 0)
        #expect(run.stderr.contains("kg"))
        #expect(run.stderr.contains("count"))
    }

    @Test func convertPointsAtABadUnitString() async throws {
        let run = try await health("convert", "5", "ml/kg/min", "L")
        #expect(run.status != 0)
        #expect(run.stderr.contains("ml/kg/min"))
        #expect(run.stderr.contains("position"))
    }

    @Test func unitShowsCanonicalFormAndFittingTypes() async throws {
        let run = try await health("unit", "ml/(kg*min)")
        #expect(run.status == 0)
        #expect(run.stdout.contains("unit:      mL/kg·min"))
        #expect(run.stdout.contains("vo2Max"))
    }
}

/// Long output on a terminal goes through the pager; piped output does not. The terminal is a real pseudo-terminal
/// (util-linux `script`), the pager a `sed` that marks each line it shows.
@Suite("health CLI: paging")
struct PagingTests {
    private func types(onTerminal: Bool) async throws -> String {
        try await runShell("\(healthExecutable.path) types --kind characteristic", onTerminal: onTerminal, environment: ["PAGER": "sed s/^/paged:/"])
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func longOutputOnATerminalGoesThroughThePagerAndPipedOutputDoesNot() async throws {
        let paged = try await types(onTerminal: true).split(whereSeparator: \.isNewline)
        #expect(paged.count == 7 && paged.allSatisfy { $0.hasPrefix("paged:") })
        let piped = try await types(onTerminal: false).split(whereSeparator: \.isNewline)
        #expect(piped.count == 7 && piped.first?.hasPrefix("characteristic  ") == true)
    }
}
