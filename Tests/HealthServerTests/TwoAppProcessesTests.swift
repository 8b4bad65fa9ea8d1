import Foundation
import OpenHealthKit
import Testing
import TestSupport

/// What the issue asks of the daemon, end to end: two app processes going through `health serve` at once, neither able
/// to open the store's files, each seeing only what the person allowed it.
@Suite("Two app processes through the daemon")
struct TwoAppProcessesTests {
    @Test(.enabled(if: runsAsNobody, "needs root, to run the apps as nobody, whom the store's permissions shut out"), .timeLimit(.minutes(5)))
    func twoAppsSaveAndQueryAtOnceWhileNeitherCanOpenTheStore() async throws {
        let (daemon, _, _) = try await ServeCommandTests.serve(tcp: true)
        do {
            let port = try #require(daemon.tcpPort)
            let steps = HKQuantityType(.stepCount)
            // The first app may read every app's steps; the second only writes them (it sees its own).
            let reader = try await daemon.connect("com.example.reader", share: [steps], read: [steps])
            let writer = try await daemon.connect("com.example.writer", share: [steps])
            // The app, installed where nobody may run it (the build folder may be closed to other users).
            let installed = daemon.folder.deletingLastPathComponent().appendingPathComponent("ohk-app-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: installed, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
            defer { try? FileManager.default.removeItem(at: installed) }
            let app = installed.appendingPathComponent("step-counter")
            try FileManager.default.copyItem(at: ServeCommandTests.executable.deletingLastPathComponent().appendingPathComponent("step-counter"), to: app)
            let database = daemon.store.appendingPathComponent("health.sqlite").path

            async let first = Self.runAsNobody(app, ["150", database], server: "http://127.0.0.1:\(port)", token: reader)
            async let second = Self.runAsNobody(app, ["100", database], server: "http://127.0.0.1:\(port)", token: writer)
            let (readerRun, writerRun) = try await (first, second)
            for run in [readerRun, writerRun] {
                #expect(run.status == 0, "\(run.output)")
                #expect(run.output.hasPrefix("\(database): cannot open (Permission denied)\n"), "\(run.output)")
            }
            // The writer sees its own 100 only; the reader its own and whatever of the writer's was saved by then.
            #expect(writerRun.output.hasSuffix("saved 100; sees 100 step samples\n"), "\(writerRun.output)")
            let seen = try #require(readerRun.output.firstMatch(of: /saved 150; sees (\d+) step samples/), "\(readerRun.output)")
            #expect((150...250).contains(Int(seen.output.1) ?? 0), "\(readerRun.output)")
            // Everything both saved is in the store, each sample under the app that saved it.
            let stored = try await HKSampleQueryDescriptor(predicates: [.quantitySample(type: steps)], sortDescriptors: [])
                .result(for: daemon.person().healthStore)
            #expect(Dictionary(grouping: stored, by: \.sourceRevision.source.bundleIdentifier).mapValues(\.count)
                        == ["com.example.reader": 150, "com.example.writer": 100])
        } catch {
            await daemon.stop()
            throw error
        }
        await daemon.stop()
    }

    /// Runs `executable` as nobody, with the daemon's address and an app's token in its environment (and nothing of
    /// the store's); its exit status and what it printed.
    private static func runAsNobody(_ executable: URL, _ arguments: [String], server: String, token: String) async throws
        -> (status: Int32, output: String)
    {
        let command = asNobody(executable, arguments)
        return try await runToEnd(command.executable, command.arguments,
                                  environment: ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "OPENHEALTHKIT_SERVER": server, "OPENHEALTHKIT_TOKEN": token])
    }
}
