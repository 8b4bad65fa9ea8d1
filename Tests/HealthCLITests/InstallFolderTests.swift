import Foundation
import Testing
import TestSupport

/// `health` installed where its user may not list the folders above it (a clone in a private temporary folder, run
/// by another user, as CI does): swift-corelibs-foundation's `Bundle.main` traps there, so nothing may ask for it.
@Suite("health CLI: installed in a folder its user cannot list")
struct InstallFolderTests {
    let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("cli-install-\(UUID().uuidString)")
    var installed: URL { folder.appendingPathComponent("private/bin") }
    var work: URL { folder.appendingPathComponent("work") }

    /// `health` and its resources copied to <folder>/private/bin, with `private` readable by root alone, and a work
    /// folder anyone may write.
    func install() throws {
        try FileManager.default.createDirectory(at: installed, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: healthExecutable, to: installed.appendingPathComponent("health"))
        let resources = "OpenHealthKit_HealthCLI.resources"
        try FileManager.default.copyItem(at: healthExecutable.deletingLastPathComponent().appendingPathComponent(resources),
                                         to: installed.appendingPathComponent(resources))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.appendingPathComponent("private").path)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: work.path)
    }

    /// Runs the installed copy as nobody, in the work folder, on a store there. Found in CI: a child process another
    /// test forks while the copy is written inherits the copy's descriptor until it execs, and Linux refuses to run a
    /// file open for writing ("Text file busy", status 126); the run is tried again then, for up to 5 s.
    func health(_ arguments: String...) async throws -> CLIRun {
        var attempts = 0
        while true {
            let run = try await runHealth(arguments + ["--store", work.appendingPathComponent("store").path], in: work, unprivileged: true,
                                          executable: installed.appendingPathComponent("health"))
            attempts += 1
            guard run.status == 126, run.stderr.contains("Text file busy"), attempts < 50 else { return run }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    @Test(.enabled(if: runsAsNobody, "needs root, to run the copy as nobody"))
    func savingMakesItsSampleWithoutAsking() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try install()
        let manifest = work.appendingPathComponent("app.json")
        try Data(#"{"CFBundleIdentifier": "com.example.steps", "CFBundleName": "Steps", "NSHealthUpdateUsageDescription": "Saves steps."}"#.utf8)
            .write(to: manifest)
        let run = try await health("add", "--app", manifest.path, "stepCount", "5", "count")
        // The sample is made (its source known) and the save refused as the app has no permission yet: no trap.
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr == "Error: com.example.steps has not been given permission to save HKQuantityTypeIdentifierStepCount; request authorization first\n",
                "\(run.stderr)")
    }

    @Test(.enabled(if: runsAsNobody, "needs root, to run the copy as nobody"))
    func importingTheBundledSampleItMayNotReadSaysSo() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try install()
        let run = try await health("import")
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr == "Error: the bundled sample export is not beside this executable, or this user may not read it; give the path of an export\n",
                "\(run.stderr)")
    }
}
