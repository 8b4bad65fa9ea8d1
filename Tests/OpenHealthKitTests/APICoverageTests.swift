import Foundation
import Testing
import TestSupport

/// The coverage of HealthKit's API that README reports is what `Scripts/api_coverage.py` measures from the symbol
/// graphs of the modules this test run was built from.
@Suite("HealthKit API coverage")
struct APICoverageTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func readmeReportsTheMeasuredCoverage() async throws {
        // The test bundle sits beside the build's Modules folder.
        let modules = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("Modules")
        try #require(FileManager.default.fileExists(atPath: modules.appendingPathComponent("OpenHealthKit.swiftmodule").path),
                     "no OpenHealthKit.swiftmodule in \(modules.path)")
        let (status, output) = try await runToEnd(URL(fileURLWithPath: "/usr/bin/env"), [
            "python3", Self.repository.appendingPathComponent("Scripts/api_coverage.py").path, "--no-build", "--markdown", "--modules", modules.path,
        ])
        #expect(status == 0, "\(output)")

        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let table = output.split(separator: "\n").filter { $0.hasPrefix("| ") }
        #expect(table.count == 11, "\(output)")
        for row in table { #expect(readme.contains(row + "\n"), "README lacks the measured row \(row)") }
        let held = try #require(output.split(separator: "\n").first { $0.hasPrefix("For the data the model holds:") })
        let figure = try #require(held.split(separator: ";").first).dropFirst("For the data the model holds: ".count)
        #expect(readme.contains("For the data the model holds: \(figure)"), "README lacks \(figure)")
    }
}
