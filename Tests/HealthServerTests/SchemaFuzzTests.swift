import Foundation
import OpenHealthKit
import Testing
import TestSupport

/// schemathesis (PyPI) against a live daemon on loopback, from the document the daemon serves: requests made from
/// the document, valid and invalid, and every answer held to it. Bounded and seeded (Scripts/fuzz_api.sh), so a
/// failure is the same on every run and the script's output says how to replay it.
@Suite("The daemon: schemathesis")
struct SchemaFuzzTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test(.timeLimit(.minutes(10)))
    func schemathesisFindsNoAnswerTheDocumentDoesNotAllow() async throws {
        try await DaemonHarness.with(rateLimit: nil, tcp: true) { daemon in
            let types: [HKSampleType] = [HKQuantityType(.stepCount), HKQuantityType(.heartRate)]
            let token = try await daemon.connect("com.example.fuzz", share: types, read: types)
            let port = try #require(daemon.tcpPort)
            let script = Self.repository.appendingPathComponent("Scripts/fuzz_api.sh")
            // Installing schemathesis (the first time) and the run take tens of seconds: waited for on a thread of its own.
            let (status, output) = try await runToEnd(URL(fileURLWithPath: "/bin/bash"), [script.path, "http://127.0.0.1:\(port)", token])
            #expect(status == 0, "\(output.suffix(8000))")
            // Every operation of the document was exercised.
            let operations = try #require(output.firstMatch(of: /Selected: (\d+)\/(\d+)/), "\(output.suffix(2000))")
            #expect(operations.output.1 == operations.output.2 && Int(operations.output.1) ?? 0 >= 11, "\(output.suffix(2000))")
        }
    }
}
