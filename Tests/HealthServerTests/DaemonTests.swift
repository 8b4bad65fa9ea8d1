import Foundation
import HealthServer
import Testing

/// The daemon owns its store: private to its user, one daemon at a time, its document served as written.
@Suite("The daemon: the store it owns")
struct DaemonTests {
    @Test func theAPIDocumentIsServedAsWritten() async throws {
        try await DaemonHarness.with { daemon in
            let served = try await daemon.raw(.GET, "/openapi.json", headers: [])
            let written = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../Sources/HealthAPI/openapi.json").standardizedFileURL, encoding: .utf8)
            #expect(served.status == 200 && served.header("content-type") == "application/json")
            #expect(served.body == written)
        }
    }

    @Test func aStoreMadeByTheDaemonIsPrivateToItsUser() async throws {
        try await DaemonHarness.with { daemon in
            func mode(_ path: String) throws -> Int { try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as! Int }
            let modes = try [daemon.store.path, daemon.store.appendingPathComponent("health.sqlite").path, daemon.socketPath].map(mode)
            #expect(modes == [0o700, 0o600, 0o600])
        }
    }

    @Test func aStoreOthersCanReadIsRefused() async throws {
        let folder = URL(fileURLWithPath: "/tmp/ohk-d-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let daemon = HealthDaemon(configuration: .init(storeDirectory: folder, socketPath: folder.path + "/d.sock"))
        await #expect(throws: DaemonError.storeNotPrivate(path: folder.path, mode: 0o40755)) {
            try await daemon.run(gracefulShutdownSignals: [])
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("health.sqlite").path), "nothing was opened")
    }

    @Test func aSecondDaemonOnTheSameStoreSaysWhichProcessServesIt() async throws {
        try await DaemonHarness.with { daemon in
            let second = HealthDaemon(configuration: .init(storeDirectory: daemon.store, socketPath: daemon.folder.path + "/e.sock"))
            await #expect(throws: DaemonError.alreadyServed(store: daemon.store.path, pid: getpid())) {
                try await second.run(gracefulShutdownSignals: [])
            }
            let first = try await daemon.raw(.GET, "/openapi.json", headers: [])
            #expect(first.status == 200, "the first one still serves")
        }
    }
}
