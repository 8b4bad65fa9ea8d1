import Foundation
import GRDB
import Testing
@testable import HealthStore
@testable import OpenHealthKit
import TestSupport

/// An encrypted store (`StoreEncryption`, `EncryptingVFS`): no file in its folder holds its data, altered pages are
/// reported, and it opens only with its passphrase or key file.
@Suite("Encrypted store")
struct EncryptedStoreTests {
    static let passphrase = "correct horse battery staple"

    /// A new encrypted store in a fresh folder, unlocked in this process.
    static func makeEncryptedFolder(keyFile: URL? = nil) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-encrypted-\(UUID().uuidString)")
        try StoreEncryption.create(folder, passphrase: passphrase, keyFile: keyFile, scrypt: .fast)
        return folder
    }

    static let app = AppManifest(bundleIdentifier: "com.example.pangolin", name: "Pangolin Pedometer", version: "1.0",
                                 shareUsageDescription: "Counts.", updateUsageDescription: "Saves.")
    static let device = HKDevice(name: "Quokka Tracker 9000", manufacturer: "Wombat Instruments", model: "QT-9000",
                                 hardwareVersion: "rev-zeta", firmwareVersion: nil, softwareVersion: nil,
                                 localIdentifier: "quokka-local-id", udiDeviceIdentifier: nil)
    static let distinctiveTexts = ["Pangolin Pedometer", "com.example.pangolin", "Quokka Tracker 9000", "Wombat Instruments",
                                   "rev-zeta", "Zanzibar mango smoothie", "HKQuantityTypeIdentifierStepCount", "CREATE TABLE", "SQLite format 3"]
    static let distinctiveValues: [Double] = [7321.987654, 48.0123456789]

    /// Saves samples whose values, metadata, source and device appear nowhere else.
    static func saveDistinctiveSamples(in folder: URL) async throws -> HKHealthStore {
        let (store, _, _) = makeStore(app: app, .allowAll, in: folder)
        try await store.requestAuthorization(toShare: [steps, HKQuantityType(.bodyMass)], read: [steps, HKQuantityType(.bodyMass)])
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        try await store.save([
            HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: distinctiveValues[0]), start: start,
                             end: start.addingTimeInterval(600), device: device, metadata: ["Snack": "Zanzibar mango smoothie"]),
            HKQuantitySample(type: HKQuantityType(.bodyMass), quantity: HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: distinctiveValues[1]),
                             start: start, end: start, device: device, metadata: nil),
        ])
        return store
    }

    /// Every file of the folder, and what of `texts` and `values` (as SQLite stores a REAL: 8 bytes, big-endian) it holds.
    static func leaks(in folder: URL) throws -> [String] {
        var found: [String] = []
        let needles = distinctiveTexts.map { ($0, Data($0.utf8)) }
            + distinctiveValues.map { value in ("\(value)", withUnsafeBytes(of: value.bitPattern.bigEndian) { Data($0) }) }
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let contents = try Data(contentsOf: folder.appendingPathComponent(name))
            for (label, needle) in needles where contents.range(of: needle) != nil { found.append("\(label) in \(name)") }
        }
        return found
    }

    @Test func noFileOfTheFolderHoldsTheStoresData() async throws {
        let folder = try Self.makeEncryptedFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await Self.saveDistinctiveSamples(in: folder)
        // While the store is open, its last transactions are in the write-ahead log.
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(files == ["health.key", "health.sqlite", "health.sqlite-shm", "health.sqlite-wal"])
        let log = try Data(contentsOf: folder.appendingPathComponent("health.sqlite-wal"))
        #expect(log.count > 32 * 1024, "the log holds the store's pages")
        #expect(try Self.leaks(in: folder) == [])
        // The same store, plain, holds every one of them: the search finds what it looks for.
        let plain = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-plain-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: plain) }
        _ = try await Self.saveDistinctiveSamples(in: plain)
        let plainLeaks = Set(try Self.leaks(in: plain).map { $0.components(separatedBy: " in ")[0] })
        #expect(plainLeaks == Set(Self.distinctiveTexts + Self.distinctiveValues.map { "\($0)" }))
        // And the encrypted one reads back what was saved.
        let saved = try await run(store, type: steps)
        #expect(saved.map { ($0 as! HKQuantitySample).quantity.doubleValue(for: .count()) } == [Self.distinctiveValues[0]])
        #expect(saved.first?.metadata?["Snack"] as? String == "Zanzibar mango smoothie")
        #expect(saved.first?.device?.name == "Quokka Tracker 9000")
    }

    /// Nonces come from a pool refilled from the system's generator: none is handed out twice.
    @Test func theNoncePoolNeverRepeatsANonce() throws {
        var pool = NoncePool()
        var seen = Set<Data>()
        for _ in 0..<5_000 { seen.insert(try pool.take().withUnsafeBytes { Data($0) }) }
        #expect(seen.count == 5_000)
    }

    /// The person's API, as its documentation shows it.
    @Test func thePublicAPIMakesUnlocksAndRewrapsAStore() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-encrypted-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(!EncryptedStore.isEncrypted(at: folder))
        try EncryptedStore.create(at: folder, passphrase: Self.passphrase)
        #expect(EncryptedStore.isEncrypted(at: folder))
        try HealthPerson(storeDirectory: folder).setGuestMode(true)
        StoreEncryption.forget(folder)
        #expect(throws: HKError.self) { try HealthPerson(storeDirectory: folder) }
        try EncryptedStore.unlock(at: folder, passphrase: Self.passphrase)
        #expect(try HealthPerson(storeDirectory: folder).isGuestMode())
        try EncryptedStore.changePassphrase(at: folder, from: Self.passphrase, to: "another passphrase entirely")
        StoreEncryption.forget(folder)
        try EncryptedStore.unlock(at: folder, passphrase: "another passphrase entirely")
        #expect(try HealthPerson(storeDirectory: folder).isGuestMode())
    }

    /// Imports an export with side files (a kept ECG file, a route) and a FHIR bundle into the store in `folder`, and
    /// returns which of their distinctive texts and route values some file of the folder holds in clear.
    static func importedTextsInClear(_ folder: URL) throws -> Set<String> {
        let person = try HealthPerson(storeDirectory: folder)
        let export = try person.importExport(at: madeFixtures.appendingPathComponent("with-side-files.zip"))
        #expect(export.keptFiles == ["electrocardiograms/ecg_2026-10-30.csv"] && export.added[HKWorkoutRouteTypeIdentifier] == 1)
        let records = try person.importClinicalRecords(
            at: fhirFixtures.appendingPathComponent("synthea/r4-Edward_Gulgowski_43481611-2459-44f5-ab20-4b142dac160f.json"), provider: "Synthea General")
        #expect(records.patients == 1 && records.rejected.isEmpty)
        #expect(try person.clinicalRecords(of: HKClinicalType(.conditionRecord)).count == 4)
        var found: Set<String> = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let contents = try Data(contentsOf: folder.appendingPathComponent(name))
            for text in importedTexts where contents.range(of: Data(text.utf8)) != nil { found.insert(text) }
            // A route's first point, as SQLite stores a REAL.
            for value in [37.781672, -122.396397] where contents.range(of: withUnsafeBytes(of: value.bitPattern.bigEndian) { Data($0) }) != nil {
                found.insert("\(value)")
            }
        }
        return found
    }

    static let importedTexts = ["Sinus Rhythm", "Withings User Identifier", "Health Mate", "Simon’s iPhone", "America/Los_Angeles", "Gulgowski",
                                "Synthea General", "resourceType"]

    /// What the person imports is kept in the store's database too — an export's kept ECG files, its routes, sources and
    /// metadata, and FHIR resources — so none of it is in clear in any file either; in a plain store, all of it is.
    @Test func importedExportsAndHealthRecordsAreNowhereInClear() throws {
        let folder = try Self.makeEncryptedFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try Self.importedTextsInClear(folder) == [])
        let plain = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-plain-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: plain) }
        let inPlain = try Self.importedTextsInClear(plain)
        #expect(inPlain == Set(Self.importedTexts + ["37.781672", "-122.396397"]), "\(inPlain.sorted())")
    }

    @Test func theStoreOpensInAnotherProcessStateOnlyWithItsPassphrase() async throws {
        let folder = try Self.makeEncryptedFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try await Self.saveDistinctiveSamples(in: folder)
        StoreEncryption.forget(folder)
        #expect(throws: HKError.self) { try HealthDatabase(directory: folder) }
        do {
            _ = try HealthDatabase(directory: folder)
        } catch let error as HKError {
            #expect(error.code == .errorDatabaseInaccessible)
            #expect(error.message.contains("is encrypted: give its passphrase (OPENHEALTHKIT_PASSPHRASE"))
        }
        do {
            try StoreEncryption.unlock(folder, with: .passphrase("wrong horse battery staple"))
            Issue.record("a wrong passphrase unlocked the store")
        } catch let error as HKError {
            #expect(error.message == "cannot unlock the store in \(folder.path): wrong passphrase for this store")
            // Apps see a database they cannot open; the person's side tells a wrong passphrase apart without the text.
            #expect(error.code == .errorDatabaseInaccessible && error.reason == .wrongPassphrase)
        }
        #expect(!StoreEncryption.isUnlocked(folder))
        try StoreEncryption.unlock(folder, with: .passphrase(Self.passphrase))
        let (store, _, _) = makeStore(app: Self.app, .allowAll, in: folder)
        #expect(try await run(store, type: steps).count == 1)
    }

    @Test func aStoreWithoutItsKeyFileSaysSo() async throws {
        let folder = try Self.makeEncryptedFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try await Self.saveDistinctiveSamples(in: folder)
        StoreEncryption.forget(folder)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("health.key"))
        #expect {
            try HealthDatabase(directory: folder)
        } throws: { error in
            (error as? HKError)?.message
                == "the store in \(folder.path) is encrypted, and its key file health.key is missing from the folder: put back the copy kept with your backups"
        }
    }

    @Test func aKeyFileOpensTheStoreAsThePassphraseDoes() async throws {
        let keyFile = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-key-\(UUID().uuidString)")
        try Data((0..<32).map { _ in UInt8.random(in: 0...255) }).write(to: keyFile)
        defer { try? FileManager.default.removeItem(at: keyFile) }
        let folder = try Self.makeEncryptedFolder(keyFile: keyFile)
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try await Self.saveDistinctiveSamples(in: folder)
        StoreEncryption.forget(folder)
        try StoreEncryption.unlock(folder, with: .keyFile(keyFile))
        let (store, _, _) = makeStore(app: Self.app, .allowAll, in: folder)
        #expect(try await run(store, type: steps).count == 1)
        // Another key file is refused, by name.
        let other = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-key-\(UUID().uuidString)")
        try Data(repeating: 7, count: 32).write(to: other)
        defer { try? FileManager.default.removeItem(at: other) }
        #expect {
            try StoreEncryption.unlock(folder, with: .keyFile(other))
        } throws: { error in
            (error as? HKError)?.message == "cannot unlock the store in \(folder.path) with \(other.path): this key file does not open this store"
                && (error as? HKError)?.reason == .wrongKeyFile
        }
    }

    @Test func changingThePassphraseRewrapsTheKeyWithoutRewritingTheStore() async throws {
        let folder = try Self.makeEncryptedFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try await Self.saveDistinctiveSamples(in: folder)
        let database = try Data(contentsOf: folder.appendingPathComponent("health.sqlite"))
        try StoreEncryption.changePassphrase(of: folder, from: .passphrase(Self.passphrase), to: "a new and longer passphrase", scrypt: .fast)
        #expect(try Data(contentsOf: folder.appendingPathComponent("health.sqlite")) == database)
        StoreEncryption.forget(folder)
        #expect(throws: HKError.self) { try StoreEncryption.unlock(folder, with: .passphrase(Self.passphrase)) }
        try StoreEncryption.unlock(folder, with: .passphrase("a new and longer passphrase"))
        let (store, _, _) = makeStore(app: Self.app, .allowAll, in: folder)
        #expect(try await run(store, type: steps).count == 1)
    }

    /// Writes rows through `HealthDatabase`, moves them from the log into the database file, and closes it.
    static func checkpointedDatabase() throws -> URL {
        let folder = try makeEncryptedFolder()
        let database = try HealthDatabase(directory: folder)
        try database.write { db in
            for index in 0..<400 {
                try db.execute(sql: "INSERT INTO storeSecret (name, value) VALUES (?, ?)", arguments: ["secret-\(index)", Data(repeating: UInt8(index % 256), count: 64)])
            }
        }
        try database.writer.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        try database.writer.close()
        return folder
    }

    /// A transaction larger than SQLite's page cache spills pages into the log before it commits, writes some of them
    /// again in place, and fills in the log's checksums and salts only at commit: every one of those frames still opens,
    /// in this process and after a crash (a copy of the folder, read from its log).
    @Test func aTransactionLargerThanThePageCacheIsWrittenAndReadBack() throws {
        let folder = try Self.makeEncryptedFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try HealthDatabase(directory: folder)
        try database.writer.writeWithoutTransaction { try $0.execute(sql: "PRAGMA cache_size = 16") }
        try database.write { db in
            for index in 0..<3000 {
                try db.execute(sql: "INSERT INTO storeSecret (name, value) VALUES (?, ?)", arguments: ["spill-\(index)", Data(repeating: UInt8(index % 256), count: 700)])
            }
            // Rows written early in the transaction, changed again after their pages were spilled.
            try db.execute(sql: "UPDATE storeSecret SET value = zeroblob(600) WHERE name < 'spill-2'")
        }
        #expect(try database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM storeSecret WHERE name LIKE 'spill-%'") } == 3000)
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-encrypted-copy-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: folder, to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.removeItem(at: copy.appendingPathComponent("health.sqlite-shm"))
        try StoreEncryption.unlock(copy, with: .passphrase(Self.passphrase))
        let recovered = try HealthDatabase(directory: copy)
        #expect(try recovered.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") } == ["ok"])
        #expect(try recovered.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM storeSecret WHERE length(value) = 600") } ?? 0 > 1000)
        withExtendedLifetime(database) {}
    }

    @Test func anAlteredPageOfTheDatabaseIsReportedNeverRead() throws {
        let folder = try Self.checkpointedDatabase()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("health.sqlite")
        var bytes = try Data(contentsOf: file)
        let pages = bytes.count / PageCipher.pageSize
        #expect(pages > 10)
        let page = pages - 1  // zero-based: the last page
        bytes[page * PageCipher.pageSize + 1000] ^= 0x01
        try bytes.write(to: file)
        let reopened = try HealthDatabase(directory: folder)
        #expect {
            try reopened.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        } throws: { error in
            (error as? HKError)?.message
                == "the store in \(folder.path) is damaged or was altered: page \(pages) of health.sqlite does not authenticate, so nothing was read from it"
        }
    }

    @Test func aPageMovedToAnotherPlaceDoesNotOpen() throws {
        let folder = try Self.checkpointedDatabase()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("health.sqlite")
        var bytes = try Data(contentsOf: file)
        let size = PageCipher.pageSize
        let pages = bytes.count / size
        // The last page replaced by a copy of the one before it: each is sealed whole, yet bound to its place.
        bytes.replaceSubrange((pages - 1) * size..<pages * size, with: bytes[(pages - 2) * size..<(pages - 1) * size])
        try bytes.write(to: file)
        let reopened = try HealthDatabase(directory: folder)
        #expect(throws: HKError.self) { try reopened.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") } }
    }

    /// Saves the distinctive samples into `folder` and copies the folder while the store is open, as a crash would leave
    /// it: every page written since the store was made is in the log. The copy's shared-memory index is left behind, so
    /// opening the copy reads the log from its frames (SQLite's recovery). Returns the copy and its log.
    static func copyWhileOpen(_ folder: URL) async throws -> (copy: URL, log: URL) {
        let store = try await saveDistinctiveSamples(in: folder)
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-encrypted-copy-\(UUID().uuidString)")
        try withExtendedLifetime(store) { try FileManager.default.copyItem(at: folder, to: copy) }
        try FileManager.default.removeItem(at: copy.appendingPathComponent("health.sqlite-shm"))
        return (copy, copy.appendingPathComponent("health.sqlite-wal"))
    }

    @Test func anAlteredFrameOfTheLogIsReportedNeverRead() async throws {
        let folder = try Self.makeEncryptedFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (copy, log) = try await Self.copyWhileOpen(folder)
        defer { try? FileManager.default.removeItem(at: copy) }
        var bytes = try Data(contentsOf: log)
        // A byte of the page of the second frame: later frames of the same log still open, so this is no torn write.
        bytes[32 + (24 + PageCipher.pageSize) + 24 + 500] ^= 0x80
        try bytes.write(to: log)
        try StoreEncryption.unlock(copy, with: .passphrase(Self.passphrase))
        #expect {
            try HealthDatabase(directory: copy)
        } throws: { error in
            (error as? HKError)?.message.hasSuffix("the page of the frame at byte \(32 + 24 + PageCipher.pageSize) of health.sqlite-wal does not authenticate, so nothing was read from it") == true
        }
    }

    @Test func aTornLastFrameIsCutAsSQLiteCutsIt() async throws {
        let folder = try Self.makeEncryptedFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (copy, log) = try await Self.copyWhileOpen(folder)
        defer { try? FileManager.default.removeItem(at: copy) }
        var bytes = try Data(contentsOf: log)
        // The last frame's page half written: the transaction it ended is lost, the store before it intact.
        let frames = (bytes.count - 32) / (24 + PageCipher.pageSize)
        let last = 32 + (frames - 1) * (24 + PageCipher.pageSize) + 24
        for index in last + PageCipher.pageSize / 2..<last + PageCipher.pageSize { bytes[index] = 0 }
        try bytes.write(to: log)
        try StoreEncryption.unlock(copy, with: .passphrase(Self.passphrase))
        let database = try HealthDatabase(directory: copy)
        #expect(try database.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") } == ["ok"])
    }
}
