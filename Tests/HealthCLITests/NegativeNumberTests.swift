import Foundation
import Testing

/// A negative value on the command line is a value: `-5` was read as an unknown option (-40 °C could not be
/// converted, and `health add` could not be given a negative value at all).
@Suite("health CLI: negative numbers")
struct NegativeNumberTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-negative-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(#"{"CFBundleIdentifier": "com.example.steps", "CFBundleName": "Steps", "NSHealthUpdateUsageDescription": "Saves steps."}"#.utf8)
            .write(to: folder.appendingPathComponent("app.json"))
    }

    func health(_ arguments: String...) async throws -> CLIRun {
        try await runHealth(arguments + ["--store", folder.appendingPathComponent("store").path], in: folder)
    }

    @Test func convertTakesANegativeValue() async throws {
        let run = try await runHealth(["convert", "-40", "degC", "degF"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "-40 degC = -40 degF\n")
        #expect(try await runHealth(["convert", "-.5e1", "degC", "K"]).stdout == "-5 degC = 268.15 K\n")
    }

    @Test func addReadsANegativeValue() async throws {
        // The first call registers the app (and is refused: nothing was granted yet); then the person allows it.
        let denied = try await health("add", "--app", "app.json", "stepCount", "-5", "count")
        #expect(denied.status != 0)
        #expect(denied.stderr.contains("permission to save HKQuantityTypeIdentifierStepCount"), "\(denied.stderr)")
        #expect(try await health("permission", "com.example.steps", "stepCount", "--write", "allow").status == 0)
        // HealthKit documents no lower bound for a step count, and neither does the store: the value is saved as given.
        let saved = try await health("add", "--app", "app.json", "stepCount", "-5", "count")
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(try await health("query", "stepCount").stdout.contains("-5.0 count"))
    }

    @Test func aDashedWordThatIsNotANumberIsNotTakenForOne() async throws {
        for word in ["-x", "-inf", "-nan", "-", "-1x"] {
            let run = try await runHealth(["convert", word, "degC", "degF"])
            #expect(run.status != 0 && run.stdout.isEmpty, "\(word): \(run.stdout)")
        }
    }
}
