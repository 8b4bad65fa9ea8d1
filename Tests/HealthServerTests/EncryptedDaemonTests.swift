import Foundation
@testable import HealthStore
import OpenHealthKit
import Testing
import TestSupport

/// `health serve` on an encrypted store: it opens the store with the passphrase in its environment, apps use it as any
/// other, and without the passphrase it does not start.
@Suite("The daemon on an encrypted store")
struct EncryptedDaemonTests {
    @Test func appsSaveAndQueryThroughADaemonOnAnEncryptedStore() async throws {
        try await AppSession.with(.remote, daemonOnEncryptedStore: true) { session in
            #expect(StoreEncryption.isEncrypted(session.folder))
            let store = try await session.authorizedStepsStore()
            let start = Date(timeIntervalSince1970: 1_790_000_000)
            try await store.save(HKQuantitySample(type: HKQuantityType(.stepCount), quantity: HKQuantity(unit: .count(), doubleValue: 4_321.5),
                                                  start: start, end: start.addingTimeInterval(60), metadata: ["Note": "Zanzibar pineapple walk"]))
            let samples = try await run(store, type: HKQuantityType(.stepCount))
            #expect(samples.map { ($0 as! HKQuantitySample).quantity.doubleValue(for: .count()) } == [4_321.5])
            for name in try FileManager.default.contentsOfDirectory(atPath: session.folder.path) where name.hasPrefix("health.sqlite") {
                let contents = try Data(contentsOf: session.folder.appendingPathComponent(name))
                #expect(contents.range(of: Data("Zanzibar pineapple walk".utf8)) == nil, "in \(name)")
                #expect(contents.range(of: Data("com.example.steps".utf8)) == nil, "in \(name)")
            }
        }
    }

    @Test func withoutThePassphraseTheDaemonDoesNotStartAndSaysWhy() async throws {
        let folder = try DaemonHarness.privateFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("store")
        try StoreEncryption.create(store, passphrase: "the daemon's store passphrase", scrypt: .fast)
        var environment = ProcessInfo.processInfo.environment
        environment["OPENHEALTHKIT_PASSPHRASE"] = nil
        environment["OPENHEALTHKIT_KEY_FILE"] = nil
        let process = ChildProcess()
        // In a session of its own: no terminal to ask at, even when the tests run in one.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        process.arguments = ["--wait", ServeCommandTests.executable.path, "serve", "--store", store.path, "--socket", folder.appendingPathComponent("d.sock").path, "--no-tcp"]
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let said = String(decoding: await onOwnThread { errors.fileHandleForReading.readDataToEndOfFile() }, as: UTF8.self)
        await process.ended()
        #expect(process.terminationStatus == 1)
        #expect(said.contains("the store in \(store.path) is encrypted: run in a terminal to type its passphrase, or set OPENHEALTHKIT_PASSPHRASE (or OPENHEALTHKIT_KEY_FILE)"), "\(said)")
    }
}
