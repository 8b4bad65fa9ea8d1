import Foundation
import GRDB
import GRDBSQLite
import HealthModel

/// A store that cannot be written — a backup, a mounted snapshot, a folder or file without write permission — is
/// opened read-only: it answers queries and refuses every write with one sentence naming its folder.
///
/// SQLite cannot read a WAL-mode file read-only in a folder it may not write unless the `-wal` and `-shm` files
/// already exist beside it; a store closed cleanly has neither, so it is opened `immutable=1` (no locks, no
/// shared memory — nobody can change it anyway). A store copied while open keeps its `-wal` and `-shm`, and is
/// read through them: `immutable` would ignore the transactions still in the log.
extension HealthDatabase {
    /// Whether the store in `directory` exists and cannot be written: its folder, `health.sqlite`, or its
    /// `-wal`/`-shm` files are not writable by this user, or carry no write permission for anyone (so that even
    /// root, whom permissions do not stop, leaves a folder marked read-only as it is).
    static func isReadOnly(_ directory: URL) -> Bool {
        let file = directory.appendingPathComponent("health.sqlite").path
        guard FileManager.default.fileExists(atPath: file) else { return false }
        return [directory.path, file, file + "-wal", file + "-shm"].contains { path in
            var info = stat()
            guard stat(path, &info) == 0 else { return false }  // absent (-wal, -shm): nothing to write
            return access(path, W_OK) != 0 || info.st_mode & 0o222 == 0
        }
    }

    /// The path to open a read-only store with: through its write-ahead log when one holds transactions,
    /// `immutable` otherwise.
    static func readOnlyPath(_ directory: URL, cipherID: String?) throws -> String {
        let file = directory.appendingPathComponent("health.sqlite").path
        let log = (try? FileManager.default.attributesOfItem(atPath: file + "-wal")[.size] as? Int) ?? 0
        if log > 0 {
            guard FileManager.default.fileExists(atPath: file + "-shm") else {
                throw HKError(.errorDatabaseInaccessible,
                              "the store in \(directory.path) is read-only and its last changes, in health.sqlite-wal, cannot be read without the health.sqlite-shm file that was beside it; copy the folder somewhere writable and open the copy")
            }
            return connectionPath(file, cipherID: cipherID)
        }
        guard sqlite3_compileoption_used("USE_URI") != 0 || sqlite3_compileoption_used("ENABLE_URI") != 0 else {
            throw HKError(.errorDatabaseInaccessible,
                          "the store in \(directory.path) is read-only, and this SQLite (built without URI file names) cannot open it so; copy the folder somewhere writable and open the copy")
        }
        return connectionPath(file, cipherID: cipherID, immutable: true)
    }

    /// Checks that a read-only store can be read as it is: it holds a store whose migrations have all run, since
    /// none can run here.
    func checkReadableAsItIs() throws {
        let (tables, current) = try writer.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0, try HealthDatabase.migrator.hasCompletedMigrations(db))
        }
        guard tables > 0 else {
            throw HKError(.errorDatabaseInaccessible, "the store in \(directory.path) is empty and read-only, so there is nothing to read and nothing can be saved")
        }
        guard current else {
            throw HKError(.errorDatabaseInaccessible,
                          "the store in \(directory.path) was made by an older version and must be upgraded before it can be read, which its read-only folder does not allow; copy the folder somewhere writable and open the copy")
        }
    }

    /// The refusal of a write to a read-only store.
    var readOnlyError: HKError {
        HKError(.errorDatabaseInaccessible, "the store in \(directory.path) is read-only (a folder or file this user may not write), so nothing can be saved to it")
    }
}
