import Foundation
import HealthAPI
import OpenHealthKit
import Synchronization
import Testing
import TestSupport

/// `health serve` as the person runs it: a process that prints where it listens and stops on SIGTERM.
@Suite("health serve")
struct ServeCommandTests {
    /// The built `health` executable, beside the test bundle in the build products folder.
    static let executable: URL = {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("health").path), dir.path != "/" {
            dir.deleteLastPathComponent()
        }
        return dir.appendingPathComponent("health")
    }()

    /// Starts `health serve` on a new private store (and on a loopback TCP port with `tcp`); returns the harness
    /// (stopping sends SIGTERM) and the process.
    /// With `folder`, serves the store an earlier `health serve` served there (a restart).
    static func serve(tcp: Bool = false, folder: URL? = nil, environment: [String: String] = [:]) async throws -> (DaemonHarness, ChildProcess, Pipe) {
        let folder = try folder ?? DaemonHarness.privateFolder()
        let store = folder.appendingPathComponent("store"), socket = folder.appendingPathComponent("d.sock").path
        let process = ChildProcess()
        process.executableURL = executable
        // Deliveries to this machine only: a test never reaches out.
        process.arguments = ["serve", "--store", store.path, "--socket", socket, "--callbacks", "local"] + (tcp ? ["--port", "0"] : ["--no-tcp"])
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let reading = output.fileHandleForReading
        // One line per listener, in the order they came up.
        let listeners = tcp ? 2 : 1
        let seen = await onOwnThread {
            var seen = Data()
            // The TCP listener's line is followed by the Health app's address.
            while String(decoding: seen, as: UTF8.self).split(separator: "\n").count(where: { $0.hasPrefix("Listening on") }) < listeners
                    || tcp && !String(decoding: seen, as: UTF8.self).contains("Health app: ")
                    || String(decoding: seen, as: UTF8.self).last != "\n" {
                let chunk = reading.readSome()
                guard !chunk.isEmpty else { break }
                seen += chunk
            }
            return seen
        }
        let printed = String(decoding: seen, as: UTF8.self)
        let port = printed.firstMatch(of: /Listening on http:\/\/127\.0\.0\.1:(\d+)\n/).flatMap { Int($0.output.1) }
        #expect(printed.hasPrefix("Serving the store in \(store.path)\n"), "\(printed)")
        let lines = printed.split(separator: "\n").dropFirst().map(String.init)
        var expected: Set<String> = ["Listening on unix:\(socket)"]
        if let port { expected.insert("Listening on http://127.0.0.1:\(port)") }
        #expect(Set(lines.filter { $0.hasPrefix("Listening on") }) == expected, "\(printed)")
        // On loopback the Health app is served too: its first-run page, with the code only this output shows.
        let healthApp = lines.filter { $0.hasPrefix("Health app: ") }
        #expect(healthApp.count == (tcp ? 1 : 0) && healthApp.allSatisfy { $0.hasPrefix("Health app: http://127.0.0.1:\(port ?? 0)/setup?code=") },
                "\(printed)")
        #expect((port != nil) == tcp, "\(printed)")
        let harness = DaemonHarness(folder: folder, store: store, socketPath: socket, tcpPort: port) {
            if process.isRunning { process.terminate() }
            await process.ended()
        }
        return (harness, process, output)
    }

    /// SIGTERM while apps are saving: the daemon stops accepting, finishes what is in flight and exits 0; every save it
    /// acknowledged is in the store afterwards.
    @Test func sigtermLosesNoAcknowledgedWrite() async throws {
        let (daemon, process, output) = try await Self.serve()
        do {
            let steps = HKQuantityType(.stepCount)
            // A client that gives up within 10 s: after the daemon ends, AsyncHTTPClient retries a missing socket until then.
            let client = daemon.client(token: try await daemon.connect("com.example.log", share: [steps], read: [steps]), timeout: .seconds(10))
            let acknowledged = Acknowledged()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<4 {
                    group.addTask {
                        for index in 0..<10_000 {
                            let start = Date(timeIntervalSinceReferenceDate: 800_000_000 + Double(writer * 100_000 + index) * 60)
                            let samples = (0..<5).map { offset in
                                Components.Schemas.Sample(uuid: UUID().uuidString, _type: steps.identifier, startDate: start.addingTimeInterval(Double(offset)),
                                                          endDate: start.addingTimeInterval(Double(offset) + 1), quantity: .init(value: 1, unit: "count"))
                            }
                            // Once the daemon stops, a save fails (connection closed, reset or refused): the writer stops too.
                            guard case .noContent? = try? await client.saveObjects(body: .json(.init(samples: samples))) else { return }
                            acknowledged.add(samples.map(\.uuid))
                        }
                    }
                }
                try await Task.sleep(for: .milliseconds(700))
                kill(process.processIdentifier, SIGTERM)
                try await group.waitForAll()
            }
            await process.ended()
            #expect(process.terminationReason == .exit && process.terminationStatus == 0)
            let rest = String(decoding: output.fileHandleForReading.readAll(), as: UTF8.self)
            #expect(rest == "Stopped; the store is closed.\n")
            let saved = acknowledged.uuids
            #expect(saved.count > 0)
            let person = try daemon.person()
            let stored = try await HKSampleQueryDescriptor(predicates: [.quantitySample(type: steps)], sortDescriptors: [])
                .result(for: person.healthStore)
            #expect(Set(saved).isSubset(of: Set(stored.map(\.uuid.uuidString))), "\(saved.count) acknowledged, \(stored.count) stored")
        } catch {
            await daemon.stop()
            throw error
        }
        await daemon.stop()
    }
}

extension ServeCommandTests {
    /// Found by the load benchmark: when whoever started the daemon stops reading its output (a closed pipe), the
    /// final "Stopped" line crashed it on SIGTERM. The line is dropped; the daemon stops cleanly.
    @Test func aReaderThatWentAwayDoesNotCrashTheDaemonOnSIGTERM() async throws {
        let (daemon, process, output) = try await Self.serve()
        try output.fileHandleForReading.close()
        kill(process.processIdentifier, SIGTERM)
        await process.ended()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0,
                "\(process.terminationReason == .exit ? "exit" : "signal") \(process.terminationStatus)")
        await daemon.stop()
    }
}

/// The UUIDs the daemon acknowledged saving, from several writers.
private final class Acknowledged: Sendable {
    private let saved = Mutex<[String]>([])
    func add(_ uuids: [String]) { saved.withLock { $0 += uuids } }
    var uuids: [String] { saved.withLock { $0 } }
}
