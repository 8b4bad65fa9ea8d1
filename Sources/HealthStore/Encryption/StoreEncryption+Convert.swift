package import Foundation
import GRDB
import GRDBSQLite
import HealthModel

/// `health encrypt`: a plain store made encrypted, crash-safe.
///
/// The steps, and what a crash after each leaves (`finishConversion` completes or undoes it at the next open):
/// 1. The store is taken for this process alone (SQLite's exclusive lock: every other connection, a daemon's or an app's,
///    holds a shared one, so an open store is refused, never converted under someone's feet).
/// 2. A new data key is wrapped into `health.key.pending`, held with an exclusive `flock` while the conversion runs.
/// 3. `VACUUM INTO` writes every page again, sealed, into `health.sqlite.encrypting` (through `EncryptingVFS`), which is
///    then checked: SQLite's integrity check, and the rows of every table counted against the plain store.
/// 4. The commit point: `health.key.pending` is renamed `health.key`. Before it, a crash leaves the plain store as it was
///    (the pending files are removed); after it, the encrypted copy is complete and checked, and is moved into place.
/// 5. `health.sqlite` becomes `health.sqlite.plain`, the encrypted copy becomes `health.sqlite`, and the plain file is
///    overwritten with zeros and removed. (On a copy-on-write or flash file system the old blocks may survive the
///    overwrite: a store meant to be encrypted is best made so from the start, `health init --encrypt`.)
extension StoreEncryption {
    private static let pendingKeyName = "health.key.pending"
    private static let encryptingName = "health.sqlite.encrypting"
    private static let plainName = "health.sqlite.plain"

    /// What `encryptExisting` did.
    package struct Conversion: Sendable {
        package let pages: Int
        package let tables: Int
        package let rows: Int
    }

    /// Encrypts the plain store in `directory` with a new data key wrapped by `passphrase` (and `keyFile`).
    package static func encryptExisting(_ directory: URL, passphrase: String, keyFile: URL? = nil,
                                        scrypt: StoreKeyFileParameters = .forNewKeys) throws -> Conversion {
        let database = directory.appendingPathComponent("health.sqlite")
        guard FileManager.default.fileExists(atPath: database.path) else {
            throw HKError(.errorInvalidArgument, "there is no store in \(directory.path) to encrypt")
        }
        guard !isEncrypted(directory) else { throw HKError(.errorInvalidArgument, "the store in \(directory.path) is already encrypted") }
        try finishConversion(directory)
        let keyFileContents = try keyFile.map(readKeyFile)
        let (file, dataKey) = try StoreKeyFile.create(passphrase: passphrase, keyFile: keyFileContents, scrypt: scrypt.parameters)

        // 1. This process alone.
        var configuration = Configuration()
        configuration.busyMode = .immediateError
        let source: DatabaseQueue
        do {
            source = try DatabaseQueue(path: database.path, configuration: configuration)
            try source.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE")
                try db.execute(sql: "BEGIN EXCLUSIVE")
                try db.execute(sql: "COMMIT")
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
            throw HKError(.errorDatabaseInaccessible,
                          "the store in \(directory.path) is in use by another process (`health serve`, an app, another command); stop it, then encrypt")
        } catch let error as DatabaseError {
            throw HKError(.errorDatabaseInaccessible, "cannot open the store in \(directory.path): \(error.message ?? "SQLite error \(error.resultCode)")")
        }
        var sourceOpen = true
        defer { if sourceOpen { try? source.close() } }

        // 2. The pending key, held while this runs.
        try file.save(to: directory, as: pendingKeyName)
        let pendingPath = directory.appendingPathComponent(pendingKeyName).path
        let hold = open(pendingPath, O_RDONLY | O_CLOEXEC)
        guard hold >= 0, flock(hold, LOCK_EX | LOCK_NB) == 0 else {
            if hold >= 0 { close(hold) }
            throw HKError(.errorDatabaseInaccessible, "another process is encrypting the store in \(directory.path)")
        }
        defer { flock(hold, LOCK_UN); close(hold) }
        let encrypting = directory.appendingPathComponent(encryptingName)
        var committed = false
        defer {
            if !committed {
                for name in [encryptingName, encryptingName + "-journal", pendingKeyName] {
                    try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
                }
            }
        }

        // 3. Every page sealed into the copy, then the copy checked.
        let id = EncryptedFiles.shared.register(dataKey)
        defer { EncryptedFiles.shared.remove(id) }
        EncryptingVFS.register()
        // Made first, private to the user: SQLite would make it with the umask's mode.
        guard FileManager.default.createFile(atPath: encrypting.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw HKError(.errorDatabaseInaccessible, "cannot write in \(directory.path)")
        }
        let target = HealthDatabase.connectionPath(encrypting.path, cipherID: id)
        let counts: [String: Int]
        do {
            counts = try source.writeWithoutTransaction { db in
                var reserved = Int32(PageCipher.reservedBytes)
                guard sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_RESERVE_BYTES, &reserved) == SQLITE_OK,
                      try Int.fetchOne(db, sql: "PRAGMA page_size") == PageCipher.pageSize
                else { throw HKError(.errorDatabaseInaccessible, "the store in \(directory.path) does not use pages of \(PageCipher.pageSize) bytes, so it cannot be encrypted in place") }
                try db.execute(sql: "PRAGMA temp_store = MEMORY")
                try db.execute(sql: "VACUUM INTO ?", arguments: [target])
                return try tableCounts(db)
            }
        } catch let error as DatabaseError {
            throw HKError(.errorDatabaseInaccessible, "encrypting the store in \(directory.path) failed, and it is unchanged: \(error.message ?? "SQLite error \(error.resultCode)")")
        }
        try syncFile(encrypting.path)
        var copyConfiguration = Configuration()
        copyConfiguration.readonly = true
        copyConfiguration.prepareDatabase { db in try db.execute(sql: "PRAGMA temp_store = MEMORY") }
        let (check, copied, pages) = try DatabaseQueue(path: target, configuration: copyConfiguration).read { db in
            (try String.fetchAll(db, sql: "PRAGMA integrity_check"), try tableCounts(db), try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0)
        }
        guard check == ["ok"], copied == counts else {
            throw HKError(.errorDatabaseInaccessible, "the encrypted copy of the store in \(directory.path) did not check out (\(check.prefix(3).joined(separator: "; "))), so the store was left plain")
        }

        // 4. The commit point.
        try source.close()
        sourceOpen = false
        guard rename(pendingPath, directory.appendingPathComponent(StoreKeyFile.fileName).path) == 0 else {
            throw HKError(.errorDatabaseInaccessible, "cannot put the store's key file in place in \(directory.path): \(String(cString: strerror(errno)))")
        }
        committed = true
        syncFolder(directory)

        // 5. The copy into place, the plain file gone (the lock, on what is now health.key, still held).
        try finishConversion(directory, lockHeld: true)
        remember(directory, dataKey)
        // The passphrase is the store's own now: its key file checks it, for the web sign-in as for unlocking.
        PersonPassphrase.removeCheck(in: directory)
        return Conversion(pages: pages, tables: counts.count, rows: counts.values.reduce(0, +))
    }

    /// Completes a committed conversion interrupted before its end, or removes the leftovers of one that was not
    /// committed (see the steps above). Called before a store is opened and before a conversion starts.
    static func finishConversion(_ directory: URL, lockHeld: Bool = false) throws {
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        let exists = { (name: String) in FileManager.default.fileExists(atPath: path(name)) }
        if exists(pendingKeyName) {
            let descriptor = open(path(pendingKeyName), O_RDONLY | O_CLOEXEC)
            if descriptor >= 0 {
                defer { close(descriptor) }
                guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                    throw HKError(.errorDatabaseInaccessible, "the store in \(directory.path) is being encrypted by another process; try again when `health encrypt` is done")
                }
                flock(descriptor, LOCK_UN)
            }
            if !isEncrypted(directory) {
                // Not committed: the plain store is as it was.
                for name in [encryptingName, encryptingName + "-journal", pendingKeyName] { try? FileManager.default.removeItem(atPath: path(name)) }
            }
        }
        // A pending key file that a killed conversion was still writing (see `StoreKeyFile.save`).
        let unfinished = (try? FileManager.default.contentsOfDirectory(atPath: directory.path))?.filter { $0.hasPrefix(".\(pendingKeyName).") } ?? []
        if !unfinished.isEmpty, !exists(pendingKeyName) {
            for name in unfinished { try? FileManager.default.removeItem(atPath: path(name)) }
        }
        guard isEncrypted(directory), exists(encryptingName) || exists(plainName) else { return }
        // The converting process holds its lock on the key file until it is done.
        var lock: Int32 = -1
        if !lockHeld {
            lock = open(path(StoreKeyFile.fileName), O_RDONLY | O_CLOEXEC)
            guard lock >= 0, flock(lock, LOCK_EX | LOCK_NB) == 0 else {
                if lock >= 0 { close(lock) }
                throw HKError(.errorDatabaseInaccessible, "the store in \(directory.path) is being encrypted by another process; try again when `health encrypt` is done")
            }
        }
        defer { if lock >= 0 { flock(lock, LOCK_UN); close(lock) } }
        if exists(encryptingName) {
            if exists("health.sqlite"), isPlainDatabase(path("health.sqlite")) {
                guard rename(path("health.sqlite"), path(plainName)) == 0 else { throw moveFailure(directory) }
            }
            guard rename(path(encryptingName), path("health.sqlite")) == 0 else { throw moveFailure(directory) }
            syncFolder(directory)
        }
        if exists(plainName) {
            overwriteWithZeros(path(plainName))
            try? FileManager.default.removeItem(atPath: path(plainName))
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path(plainName + suffix)) }
            syncFolder(directory)
        }
    }

    private static func moveFailure(_ directory: URL) -> HKError {
        HKError(.errorDatabaseInaccessible, "cannot move the encrypted store into place in \(directory.path): \(String(cString: strerror(errno)))")
    }

    /// Rows per table (SQLite's own tables included), to compare a copy with its original.
    private static func tableCounts(_ db: Database) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") {
            counts[table] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table.quotedDatabaseIdentifier)") ?? 0
        }
        return counts
    }

    static func isPlainDatabase(_ path: String) -> Bool { EncryptingVFS.databaseHead(path) == PageCipher.sqliteMagic }

    private static func syncFile(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw HKError(.errorDatabaseInaccessible, "cannot read back \(path)") }
        fsync(descriptor)
        close(descriptor)
    }

    /// Writes `data` as `name` in `directory`, private to the user (0600), all at once: flushed under a temporary name,
    /// then renamed, then the folder flushed, so a crash leaves the old file or the new one. `what` names it in errors.
    static func writeAtomically(_ data: Data, named name: String, in directory: URL, what: String) throws {
        let url = directory.appendingPathComponent(name)
        let temporary = directory.appendingPathComponent(".\(name).\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw HKError(.errorDatabaseInaccessible, "cannot write \(what) in \(directory.path)")
        }
        let descriptor = open(temporary.path, O_RDONLY)
        if descriptor >= 0 { fsync(descriptor); close(descriptor) }
        guard rename(temporary.path, url.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw HKError(.errorDatabaseInaccessible, "cannot write \(what) in \(directory.path)")
        }
        syncFolder(directory)
    }

    static func syncFolder(_ directory: URL) {
        let descriptor = open(directory.path, O_RDONLY | O_CLOEXEC)
        if descriptor >= 0 { fsync(descriptor); close(descriptor) }
    }

    /// Overwrites a file's bytes with zeros, in place, and flushes them.
    private static func overwriteWithZeros(_ path: String) {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return }
        let zeros = [UInt8](repeating: 0, count: 1 << 16)
        var offset: off_t = 0
        while offset < info.st_size {
            let count = min(zeros.count, Int(info.st_size - offset))
            guard zeros.withUnsafeBytes({ pwrite(descriptor, $0.baseAddress, count, offset) }) == count else { return }
            offset += off_t(count)
        }
        fsync(descriptor)
    }
}
