import Foundation
import GRDB
@testable import HealthServer
@testable import HealthStore
import OpenHealthKit
import Testing
import TestSupport

/// A daemon that starts with its encrypted store locked (`health serve --locked`), as a device starts before its first
/// unlock: it needs no secret to start, nothing is read or written until the person unlocks it, and the writes kept in
/// the journal before it stopped are made at that first unlock.
@Suite("A daemon started locked")
struct StartLockedTests {
    static let passphrase = LockedStoreTests.passphrase
    static let steps = HKQuantityType(.stepCount)
    static let sampleQuery = #"{"type": "HKQuantityTypeIdentifierStepCount"}"#

    /// A folder holding an encrypted store with data, its key forgotten by this process (as after a reboot).
    static func encryptedStoreFolder() throws -> URL {
        let folder = try DaemonHarness.privateFolder()
        let store = folder.appendingPathComponent("store")
        try StoreEncryption.create(store, passphrase: passphrase, scrypt: .fast)
        _ = try HealthDatabase(directory: store)
        StoreEncryption.forget(store)
        return folder
    }

    /// Runs `body` with `daemon`, and stops it however `body` ends.
    static func serving(_ daemon: DaemonHarness, _ body: () async throws -> Void) async throws {
        do { try await body() } catch {
            await daemon.stop()
            throw error
        }
        await daemon.stop()
    }

    @Test func appsAreRefusedUntilTheFirstUnlockThenTheWritesKeptBeforeTheStopAreMade() async throws {
        let folder = try DaemonHarness.privateFolder()
        let store = folder.appendingPathComponent("store")
        try StoreEncryption.create(store, passphrase: Self.passphrase, scrypt: .fast)
        defer { StoreEncryption.forget(store) }
        // A first daemon, unlocked: the app connects and saves; then the store is locked, the app saves again (kept in
        // the journal), and the daemon stops.
        let first = try await DaemonHarness.start(folder: folder)
        let token = try await first.connect(LockedStoreTests.manifest.bundleIdentifier, share: [Self.steps], read: [Self.steps])
        let app = { (daemon: DaemonHarness) in
            HKHealthStore(configuration: .init(server: .init(address: daemon.socketPath, token: token), app: LockedStoreTests.manifest))
        }
        try await app(first).save(LockedStoreTests.sample(100, note: "before the lock"))
        #expect(try await first.raw(.POST, "/person/lock", body: LockedStoreTests.proof()).status == 200)
        try await app(first).save(LockedStoreTests.sample(4_321, note: "kept while locked", at: 600))
        await first.stopKeepingTheStore()
        StoreEncryption.forget(store)

        // The second daemon starts with no passphrase at all.
        let daemon = try await DaemonHarness.start(folder: folder, startLocked: true)
        try await Self.serving(daemon) { () async throws in
            #expect(try await daemon.raw(.GET, "/person/lock").json["state"] as? String == "locked")
            // Reads and writes alike meet the locked store; a token that is no one's gets the very same answer, since
            // none can be checked yet.
            let read = try await daemon.raw(.POST, "/v1/queries/samples", body: Self.sampleQuery, token: token)
            let stranger = try await daemon.raw(.POST, "/v1/queries/samples", body: Self.sampleQuery,
                                                token: "ohk_0123456789abcdef_0123456789abcdef0123456789abcdef0123456789abcdef")
            #expect(read.status == 503, "\(read.body)")
            #expect(read.json["code"] as? Int == HKError.Code.errorDatabaseInaccessible.rawValue, "\(read.body)")
            #expect(stranger.status == read.status && stranger.body == read.body)
            let write = await #expect(throws: HKError.self) { try await app(daemon).save(LockedStoreTests.sample(7, note: "refused", at: 1_200)) }
            #expect(write?.code == .errorDatabaseInaccessible)

            let wrong = try await daemon.raw(.POST, "/person/unlock", body: LockedStoreTests.proof("not the passphrase"))
            #expect(wrong.status == 403, "\(wrong.body)")
            #expect(try await daemon.raw(.GET, "/person/lock").json["state"] as? String == "locked")
            let unlocked = try await daemon.raw(.POST, "/person/unlock", body: LockedStoreTests.proof())
            #expect(unlocked.status == 200, "\(unlocked.body)")
            #expect(unlocked.json["replayed"] as? Int == 1, "\(unlocked.body)")
            #expect(try await LockedStoreTests.values(app(daemon)) == [100, 4_321])
            // Locked and unlocked again as any store.
            #expect(try await daemon.raw(.POST, "/person/lock", body: LockedStoreTests.proof()).json["state"] as? String == "locked")
            #expect(try await daemon.raw(.POST, "/person/unlock", body: LockedStoreTests.proof()).json["state"] as? String == "unlocked")
            #expect(try await LockedStoreTests.values(app(daemon)) == [100, 4_321])
        }
    }

    @Test func signingInToTheHealthAppIsTheFirstUnlock() async throws {
        let folder = try Self.encryptedStoreFolder()
        let store = folder.appendingPathComponent("store")
        defer { StoreEncryption.forget(store) }
        let daemon = try await DaemonHarness.start(tcp: true, folder: folder, startLocked: true)
        try await Self.serving(daemon) { () async throws in
            let browser = WebClient(port: try #require(daemon.tcpPort))
            let signInPage = try await browser.get("/signin")
            #expect(signInPage.body.contains("The store is locked. Signing in unlocks it"), "\(signInPage.body)")
            try await browser.signIn(Self.passphrase)
            #expect(try await daemon.raw(.GET, "/person/lock").json["state"] as? String == "unlocked")
            let summary = try await browser.get("/")
            #expect(summary.status == 200 && summary.heading == "Summary", "\(summary.status)")
        }
    }

    /// The charts' days are computed ahead once the first unlock opens the store, as a daemon started unlocked computes
    /// them when it starts: nobody meets a cold year's chart after it.
    @Test func theFirstUnlockKeepsTheChartsDaysAhead() async throws {
        let folder = try Self.encryptedStoreFolder()
        let store = folder.appendingPathComponent("store")
        defer { StoreEncryption.forget(store) }
        // Steps in the store, saved while it was unlocked in this process.
        try StoreEncryption.unlock(store, with: .passphrase(Self.passphrase))
        try SampleStore(database: try HealthDatabase(directory: store)).importSamples((0..<48).map { hour in
            let start = Date(timeIntervalSinceReferenceDate: 815_443_200 + Double(hour) * 3600)
            return HKQuantitySample(type: Self.steps, quantity: HKQuantity(unit: .count(), doubleValue: 100), start: start, end: start.addingTimeInterval(600),
                                    device: nil, metadata: nil)
        })
        StoreEncryption.forget(store)
        let daemon = try await DaemonHarness.start(tcp: true, folder: folder, startLocked: true)
        try await Self.serving(daemon) { () async throws in
            try await Task.sleep(for: .seconds(1))
            #expect(try Self.keptDays(store) == nil, "nothing can be read before the first unlock")
            #expect(try await daemon.raw(.POST, "/person/unlock", body: LockedStoreTests.proof()).status == 200)
            var kept = 0
            for _ in 0..<240 where kept == 0 {   // up to a minute: CI runs every suite at once
                try await Task.sleep(for: .milliseconds(250))
                kept = try Self.keptDays(store) ?? 0
            }
            #expect(kept >= 2, "the two days of steps are kept ahead")
        }
    }

    /// The days of merged statistics the store keeps for the charts, or nil while the store cannot be read.
    static func keptDays(_ store: URL) throws -> Int? {
        guard StoreEncryption.isUnlocked(store) else { return nil }
        return try HealthDatabase(directory: store).read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM dailyStatistics WHERE day >= 0") ?? 0
        }
    }

    @Test func healthServeLockedStartsWithoutAPassphraseAndSaysHowToUnlock() async throws {
        let folder = try Self.encryptedStoreFolder()
        let store = folder.appendingPathComponent("store"), socket = folder.appendingPathComponent("d.sock").path
        let process = ChildProcess()
        process.executableURL = ServeCommandTests.executable
        process.arguments = ["serve", "--store", store.path, "--socket", socket, "--no-tcp", "--locked"]
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("OPENHEALTHKIT_") }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let daemon = DaemonHarness(folder: folder, store: store, socketPath: socket, tcpPort: nil) {
            if process.isRunning { process.terminate() }
            await process.ended()
        }
        let reading = output.fileHandleForReading
        let printed = await onOwnThread {
            var seen = Data()
            while !String(decoding: seen, as: UTF8.self).contains("Listening on") || String(decoding: seen, as: UTF8.self).last != "\n" {
                let chunk = reading.readSome()
                guard !chunk.isEmpty else { break }
                seen += chunk
            }
            return String(decoding: seen, as: UTF8.self)
        }
        try await Self.serving(daemon) { () async throws in
            #expect(printed == """
                Serving the store in \(store.path)
                The store is locked: unlock it with health unlock, or by signing in to the Health app.
                Listening on unix:\(socket)

                """, "\(printed)")
            #expect(try await daemon.raw(.GET, "/person/lock").json["state"] as? String == "locked")
            #expect(try await daemon.raw(.POST, "/person/unlock", body: LockedStoreTests.proof()).json["state"] as? String == "unlocked")
        }
    }

    @Test func thePassphraseIsNeverReadBeforeTheFirstUnlock() throws {
        let folder = try Self.encryptedStoreFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("store")
        let database = try HealthDatabase(lockedStoreIn: store)
        #expect(database.isLocked)
        #expect(!StoreEncryption.isUnlocked(store))
        let refused = #expect(throws: HKError.self) { try database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sample") } }
        #expect(refused?.code == .errorDatabaseInaccessible && refused?.message == HealthDatabase.lockedMessage)
        // A wrong passphrase leaves it locked and closed.
        #expect(throws: HKError.self) { try database.unlock(with: .passphrase("wrong")) }
        #expect(database.isLocked && database.cipher == nil && !StoreEncryption.isUnlocked(store))
        try database.unlock(with: .passphrase(Self.passphrase))
        defer { StoreEncryption.forget(store) }
        #expect(try database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sample") } == 0)
    }

    @Test func aPlainStoreOrAnEmptyOneCannotStartLocked() throws {
        let folder = try DaemonHarness.privateFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = folder.appendingPathComponent("plain")
        _ = try HealthDatabase(directory: plain)
        let notEncrypted = #expect(throws: HKError.self) { try HealthDatabase(lockedStoreIn: plain) }
        #expect(notEncrypted?.message.contains("is not encrypted, so it cannot start locked") == true, "\(String(describing: notEncrypted))")
        let empty = folder.appendingPathComponent("empty")
        try StoreEncryption.create(empty, passphrase: Self.passphrase, scrypt: .fast)
        StoreEncryption.forget(empty)
        let noData = #expect(throws: HKError.self) { try HealthDatabase(lockedStoreIn: empty) }
        #expect(noData?.message.contains("holds no data yet") == true, "\(String(describing: noData))")
    }
}
