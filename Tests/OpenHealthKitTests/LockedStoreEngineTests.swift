import Foundation
import GRDB
import Testing
@testable import HealthStore
@testable import OpenHealthKit
import TestSupport

/// The engine's side of a locked store: `HealthDatabase.lock()`/`unlock(with:)`, and the journal of writes kept while
/// locked (`LockedWriteJournal`).
@Suite("Locked store: the engine")
struct LockedStoreEngineTests {
    static func withStore(_ body: (URL, HealthDatabase) throws -> Void) throws {
        let folder = try EncryptedStoreTests.makeEncryptedFolder()
        defer {
            StoreEncryption.forget(folder)
            try? FileManager.default.removeItem(at: folder)
        }
        try body(folder, try HealthDatabase(directory: folder))
    }

    @Test func aLockedStoreRefusesEveryReadAndWriteUntilUnlockedWithItsPassphrase() throws {
        try Self.withStore { folder, database in
            try database.write { try $0.execute(sql: "INSERT INTO storeSecret (name, value) VALUES ('pangolin', x'01')") }
            try database.lock()
            #expect(database.isLocked)
            #expect(database.cipher?.cipher.isForgotten == true)
            let read = #expect(throws: HKError.self) { try database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM storeSecret") } }
            #expect(read?.code == .errorDatabaseInaccessible)
            #expect(read?.message == "the store is locked: its data cannot be read until the person unlocks it")
            #expect(throws: HKError(.errorDatabaseInaccessible)) { try database.write { try $0.execute(sql: "DELETE FROM storeSecret") } }
            // Even past the store's own checks, SQLite reads no page: the key is gone.
            #expect(throws: DatabaseError.self) { try database.writer.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM storeSecret") } }

            let wrong = #expect(throws: HKError.self) { try database.unlock(with: .passphrase("not the passphrase")) }
            #expect(wrong?.message.contains("wrong passphrase") == true)
            #expect(database.isLocked)
            try database.unlock(with: .passphrase(EncryptedStoreTests.passphrase))
            #expect(!database.isLocked)
            #expect(try database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM storeSecret WHERE name = 'pangolin'") } == 1)
        }
    }

    @Test func aPlainStoreCannotBeLocked() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-plain-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try HealthDatabase(directory: folder)
        #expect(throws: HKError(.errorInvalidArgument)) { try database.lock() }
    }

    @Test func theJournalIsWrittenWithoutTheKeyAndReadOnlyWithIt() throws {
        try Self.withStore { folder, database in
            try database.lock()
            let journal = LockedWriteJournal(directory: folder)
            try journal.append(Data("Zanzibar mango smoothie".utf8))
            try journal.append(Data("Quokka Tracker 9000".utf8))
            let bytes = try Data(contentsOf: folder.appendingPathComponent(LockedWriteJournal.fileName))
            #expect(bytes.range(of: Data("Zanzibar".utf8)) == nil)
            #expect(bytes.range(of: Data("Quokka".utf8)) == nil)
            #expect(throws: HKError(.errorDatabaseInaccessible)) { try journal.entries(after: 0) }
            try database.unlock(with: .passphrase(EncryptedStoreTests.passphrase))
            let contents = try #require(try journal.entries(after: 0))
            #expect(contents.entries.map { String(decoding: $0.payload, as: UTF8.self) } == ["Zanzibar mango smoothie", "Quokka Tracker 9000"])
            #expect(contents.damagedAt == nil)
            #expect(try journal.entries(after: contents.entries[0].end)?.entries.count == 1)
        }
    }

    @Test func anEntryCutShortByACrashIsDroppedAndTheNextOneFollowsTheLastWholeOne() throws {
        try Self.withStore { folder, _ in
            let url = folder.appendingPathComponent(LockedWriteJournal.fileName)
            try LockedWriteJournal(directory: folder).append(Data("first".utf8))
            try LockedWriteJournal(directory: folder).append(Data("second, torn".utf8))
            let whole = try Data(contentsOf: url)
            try whole.prefix(whole.count - 5).write(to: url)   // the second entry cut short
            // A new writer (a daemon started again) trims it before writing.
            try LockedWriteJournal(directory: folder).append(Data("third".utf8))
            let contents = try #require(try LockedWriteJournal(directory: folder).entries(after: 0))
            #expect(contents.entries.map { String(decoding: $0.payload, as: UTF8.self) } == ["first", "third"])
            #expect(contents.damagedAt == nil)
        }
    }

    @Test func entriesSwappedInTheFileDoNotOpen() throws {
        try Self.withStore { folder, _ in
            let url = folder.appendingPathComponent(LockedWriteJournal.fileName)
            let journal = LockedWriteJournal(directory: folder)
            try journal.append(Data("aaaa".utf8))
            let afterFirst = try Data(contentsOf: url).count
            try journal.append(Data("bbbb".utf8))
            let bytes = try Data(contentsOf: url)
            let header = bytes.prefix(LockedWriteJournal.headerSize)
            let first = bytes[LockedWriteJournal.headerSize..<afterFirst], second = bytes[afterFirst...]
            try (header + second + first).write(to: url)   // same lengths: only the binding to its place tells
            let contents = try #require(try journal.entries(after: 0))
            #expect(contents.entries.isEmpty)
            #expect(contents.damagedAt == Int64(LockedWriteJournal.headerSize))
        }
    }
}
