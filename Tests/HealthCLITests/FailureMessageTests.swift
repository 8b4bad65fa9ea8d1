import Foundation
import Testing

/// A command that fails says so in one sentence naming the file and what is wrong with it, and exits non-zero;
/// Foundation's `NSCocoaErrorDomain … UserInfo={…}` never reaches the person.
@Suite("health CLI: failures in one sentence")
struct FailureMessageTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-failures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func health(_ arguments: [String], environment: [String: String] = [:]) async throws -> CLIRun {
        let run = try await runHealth(arguments + ["--store", folder.appendingPathComponent("store").path], in: folder, environment: environment)
        #expect(run.status != 0, "\(arguments)")
        #expect(!run.stderr.contains("NSCocoaErrorDomain") && !run.stderr.contains("UserInfo") && !run.stderr.contains("DecodingError"),
                "\(run.stderr)")
        return run
    }

    @Test func aManifestThatCannotBeReadOrIsNotJSONIsNamedWithTheCause() async throws {
        let missing = folder.appendingPathComponent("steps.json").path
        #expect(try await health(["add", "--app", missing, "stepCount", "5", "count"]).stderr
                == "Error: cannot read the app manifest \(missing): no such file or directory\n")
        #expect(try await health(["add", "--app", folder.path, "stepCount", "5", "count"]).stderr
                == "Error: cannot read the app manifest \(folder.path): is a directory\n")
        let broken = folder.appendingPathComponent("broken.json")
        try Data("{\n  \"CFBundleIdentifier\": \"com.example.steps\",\n  \"CFBundleName\": ]\n}\n".utf8).write(to: broken)
        #expect(try await health(["add", "--app", broken.path, "stepCount", "5", "count"]).stderr == """
            Error: \(broken.path) is not an app manifest (JSON with CFBundleIdentifier and CFBundleName): not valid JSON at line 3, column 19

            """)
        try Data(#"{"CFBundleName": "Steps"}"#.utf8).write(to: broken)
        #expect(try await health(["add", "--app", broken.path, "stepCount", "5", "count"]).stderr == """
            Error: \(broken.path) is not an app manifest (JSON with CFBundleIdentifier and CFBundleName): CFBundleIdentifier is missing

            """)
    }

    @Test func aTemporaryFolderThatCannotBeUsedIsNamed() async throws {
        let generated = try await runHealth(["generate", "--days", "1", "--store", folder.appendingPathComponent("store").path], in: folder)
        #expect(generated.status == 0, "\(generated.stderr)")
        let notAFolder = folder.appendingPathComponent("tmp-is-a-file")
        try Data().write(to: notAFolder)
        let run = try await health(["export", folder.appendingPathComponent("export.zip").path], environment: ["TMPDIR": notAFolder.path])
        #expect(run.stderr == "Error: cannot make a working folder in the temporary folder \(notAFolder.path) (TMPDIR): not a directory\n",
                "\(run.stderr)")
    }
}
