import Foundation
import Testing

/// `health export`, end to end: the built binary on a real store in a temporary folder.
@Suite("health CLI: export")
struct ExportCommandTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func health(_ arguments: String...) async throws -> CLIRun {
        try await runHealth(arguments, in: folder)
    }

    @Test func anImportedExportIsWrittenAsAZipThatAnotherStoreImportsWhole() async throws {
        let export = Fixtures.file("apple-health-export/dogsheep_healthkit-to-sqlite/export.xml")
        #expect(try await health("import", export.path).status == 0)

        let written = try await health("export", "out/export.zip")
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stdout.contains("1         HKWorkoutTypeIdentifier"))
        #expect(written.stdout.contains("2         activity summaries"))
        #expect(written.stdout.contains("1         workout routes (GPX)"))
        #expect(written.stdout.contains("3 samples written to \(folder.appendingPathComponent("out/export.zip").path)"))

        let again = try await health("import", "out/export.zip", "--store", "second")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("4 samples added, 0 already in the store"))  // and the route
        #expect(!again.stdout.contains("Left out"))

        let refused = try await health("export", "out/export.zip")
        #expect(refused.status != 0 && refused.stderr.contains("already exists"))
    }
}
