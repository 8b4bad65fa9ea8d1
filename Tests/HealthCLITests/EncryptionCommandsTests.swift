import Foundation
import GRDB
@testable import HealthStore
import Testing
import TestSupport

/// `health init --encrypt`, `health encrypt`, `health passphrase`, and the passphrase every command asks for.
@Suite("health CLI: encrypted stores")
struct EncryptionCommandsTests {
    static let passphrase = "a passphrase for tests"
    /// The environment of a script that unlocks with its passphrase (new keys derived cheaply: debug builds are slow).
    static let unlocking = ["OPENHEALTHKIT_PASSPHRASE": passphrase, "OPENHEALTHKIT_TEST_FAST_KDF": "1"]

    let folder: URL
    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-encrypted-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func health(_ arguments: String..., environment: [String: String] = unlocking) async throws -> CLIRun {
        try await runHealth(arguments, in: folder, environment: environment)
    }

    /// The store's files hold none of these (the names `health generate` gives its sources and types).
    static func plainTextFound(in store: URL) throws -> [String] {
        var found: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: store.path) where name.hasPrefix("health.sqlite") {
            let contents = try Data(contentsOf: store.appendingPathComponent(name))
            for text in ["SQLite format 3", "Apple Watch", "HKQuantityTypeIdentifierHeartRate"] where contents.range(of: Data(text.utf8)) != nil {
                found.append("\(text) in \(name)")
            }
        }
        return found
    }

    @Test func initEncryptMakesAStoreThatOpensOnlyWithItsPassphrase() async throws {
        let store = folder.appendingPathComponent("store").path
        let made = try await health("init", "--encrypt", "--store", store)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.hasPrefix("Made an empty encrypted store in \(store).\nIts key is in \(store)/health.key, wrapped by your passphrase.\n"))
        #expect(try await health("generate", "--days", "1", "--store", store).status == 0)
        let summary = try await health("summary", "--store", store)
        #expect(summary.status == 0 && summary.stdout.contains("Heart Rate"), "\(summary.stderr)")
        #expect(try Self.plainTextFound(in: URL(fileURLWithPath: store)) == [])

        let locked = try await health("summary", "--store", store, environment: [:])
        #expect(locked.status == 1)
        #expect(locked.stderr == "Error: the store in \(store) is encrypted: run in a terminal to type its passphrase, or set OPENHEALTHKIT_PASSPHRASE (or OPENHEALTHKIT_KEY_FILE)\n")
        let wrong = try await health("summary", "--store", store, environment: ["OPENHEALTHKIT_PASSPHRASE": "not the passphrase"])
        #expect(wrong.stderr == "Error: cannot unlock the store in \(store): wrong passphrase for this store\n")
        #expect(try await health("init", "--encrypt", "--store", store).stderr == "Error: there is already a store in \(store); `health encrypt` encrypts it\n")
    }

    @Test func thePassphraseIsTypedAtTheTerminalWithoutEcho() async throws {
        let store = folder.appendingPathComponent("store").path
        #expect(try await health("init", "--encrypt", "--store", store).status == 0)
        // On a terminal (util-linux `script`), with nothing in the environment: the prompt, the passphrase typed once the
        // prompt has turned echo off, then the summary.
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "(sleep 2; printf '%s\\n' \"$PASSPHRASE\") | timeout 60 script -qec \"$HEALTH summary --store $STORE\" /dev/null"]
        var environment = healthEnvironment(dataHome: folder)
        environment["PASSPHRASE"] = Self.passphrase
        environment["HEALTH"] = healthExecutable.path
        environment["STORE"] = store
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let typed = String(decoding: await onOwnThread { out.fileHandleForReading.readDataToEndOfFile() }, as: UTF8.self)
        await process.ended()
        #expect(process.terminationStatus == 0, "\(typed)")
        #expect(typed.hasPrefix("Passphrase of the store in \(store): "), "\(typed)")
        #expect(!typed.contains(Self.passphrase), "the passphrase was echoed: \(typed)")
        #expect(typed.contains("empty"), "\(typed)")
    }

    @Test func encryptTurnsAPlainStoreIntoAnEncryptedOneThatReadsTheSame() async throws {
        let store = folder.appendingPathComponent("store").path
        #expect(try await health("generate", "--days", "1", "--store", store, environment: [:]).status == 0)
        let before = try await health("summary", "--store", store, environment: [:]).stdout
        let encrypted = try await health("encrypt", "--store", store)
        #expect(encrypted.status == 0, "\(encrypted.stderr)")
        #expect(encrypted.stdout.hasPrefix("Encrypted the store in \(store): "))
        #expect(encrypted.stdout.contains(" pages, ") && encrypted.stdout.contains(" tables, checked.\n"))
        #expect(try await health("summary", "--store", store).stdout == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store).sorted() == ["health.key", "health.sqlite"])
        #expect(try FileManager.default.attributesOfItem(atPath: store + "/health.sqlite")[.posixPermissions] as? Int == 0o600)
        #expect(try Self.plainTextFound(in: URL(fileURLWithPath: store)) == [])
        #expect(try await health("encrypt", "--store", store).stderr == "Error: the store in \(store) is already encrypted\n")
    }

    @Test func encryptRefusesAStoreAnotherProcessHasOpen() async throws {
        let store = folder.appendingPathComponent("store")
        #expect(try await health("generate", "--days", "1", "--store", store.path, environment: [:]).status == 0)
        let open = try DatabasePool(path: store.appendingPathComponent("health.sqlite").path)
        _ = try await open.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sample") }
        let refused = try await health("encrypt", "--store", store.path)
        #expect(refused.stderr == "Error: the store in \(store.path) is in use by another process (`health serve`, an app, another command); stop it, then encrypt\n")
        #expect(!FileManager.default.fileExists(atPath: store.appendingPathComponent("health.key").path))
        try open.close()
        #expect(try await health("encrypt", "--store", store.path).status == 0)
    }

    @Test func passphraseChangesWhatOpensTheStore() async throws {
        let store = folder.appendingPathComponent("store").path
        #expect(try await health("init", "--encrypt", "--store", store).status == 0)
        var environment = Self.unlocking
        environment["OPENHEALTHKIT_NEW_PASSPHRASE"] = "the new passphrase of the store"
        let changed = try await health("passphrase", "--store", store, environment: environment)
        #expect(changed.stdout == "Changed the passphrase of the store in \(store).\n", "\(changed.stderr)")
        #expect(try await health("summary", "--store", store).stderr.contains("wrong passphrase"))
        #expect(try await health("summary", "--store", store, environment: ["OPENHEALTHKIT_PASSPHRASE": "the new passphrase of the store"]).status == 0)
    }

    @Test func aKeyFileGivenAtInitOpensTheStoreToo() async throws {
        let store = folder.appendingPathComponent("store").path
        let keyFile = folder.appendingPathComponent("store.keyfile").path
        let made = try await health("init", "--encrypt", "--key-file", keyFile, "--store", store)
        #expect(made.stdout.contains("wrapped by your passphrase and by the key file \(keyFile) (made now)."), "\(made.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: keyFile)).count == 32)
        #expect(try await health("summary", "--store", store, environment: ["OPENHEALTHKIT_KEY_FILE": keyFile]).status == 0)
    }

    /// `health encrypt` killed (SIGKILL) at random moments, 50 times or more: each store is afterwards either plain and whole or
    /// encrypted and whole — integrity check ok, every sample there once — and no leftover file of the conversion stays.
    @Test func encryptKilledAtRandomMomentsLeavesAWholeStoreEitherWay() async throws {
        let base = folder.appendingPathComponent("base")
        #expect(try await health("generate", "--days", "1", "--store", base.path, environment: [:]).status == 0)
        let expected = try await DatabaseQueue(path: base.appendingPathComponent("health.sqlite").path).read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM sample") ?? 0
        }
        // How long a whole conversion takes here, so the kills fall before, during and after its commit point.
        let timing = folder.appendingPathComponent("timing")
        try FileManager.default.copyItem(at: base, to: timing)
        let started = Date()
        #expect(try await health("encrypt", "--store", timing.path).status == 0)
        // One timing on a loaded machine (the whole suite runs side by side) can be far off: the window follows what the
        // runs find, shorter after a conversion that had ended before its kill, longer after one killed before its commit.
        var duration = Date().timeIntervalSince(started)

        var outcomes = (plain: 0, encrypted: 0)
        var run = 0
        while run < 50 || (outcomes.plain == 0 || outcomes.encrypted == 0) && run < 150 {
            defer { run += 1 }
            let store = folder.appendingPathComponent("run-\(run)")
            try FileManager.default.copyItem(at: base, to: store)
            let process = ChildProcess()
            process.executableURL = healthExecutable
            process.arguments = ["encrypt", "--store", store.path]
            process.environment = healthEnvironment(dataHome: folder, Self.unlocking)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let delay = Double.random(in: 0...(duration * 1.1))
            await onOwnThread { Thread.sleep(forTimeInterval: delay) }
            let endedBeforeKill = !process.isRunning
            kill(process.processIdentifier, SIGKILL)
            await process.ended()

            if StoreEncryption.isEncrypted(store) {
                outcomes.encrypted += 1
                if endedBeforeKill { duration *= 0.8 }
                try StoreEncryption.unlock(store, with: .passphrase(Self.passphrase))
            } else {
                outcomes.plain += 1
                duration *= 1.05
            }
            let database = try HealthDatabase(directory: store)
            let (check, count, distinct) = try database.read { db in
                (try String.fetchAll(db, sql: "PRAGMA integrity_check"), try Int.fetchOne(db, sql: "SELECT count(*) FROM sample") ?? 0,
                 try Int.fetchOne(db, sql: "SELECT count(DISTINCT uuid) FROM sample") ?? 0)
            }
            #expect(check == ["ok"], "run \(run), killed after \(delay) s")
            #expect(count == expected && distinct == expected, "run \(run), killed after \(delay) s")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.path)
                .filter { $0.contains(".pending") || $0.contains(".encrypting") || $0.contains(".plain") }
            #expect(leftovers == [], "run \(run), killed after \(delay) s")
            if StoreEncryption.isEncrypted(store) { #expect(try Self.plainTextFound(in: store) == [], "run \(run)") }
            try database.writer.close()
            StoreEncryption.forget(store)
            try FileManager.default.removeItem(at: store)
        }
        // Over 50 runs (more, up to 150, until both are seen) spread across the conversion, both outcomes occur.
        #expect(outcomes.plain > 0 && outcomes.encrypted > 0, "\(outcomes)")
    }
}
