package import Foundation
import GRDB
import GRDBSQLite
import HealthModel

/// Opening an encrypted store's database through `EncryptingVFS`.
extension HealthDatabase {
    /// What SQLite opens for the database file `file`: the path itself for a plain store; for an encrypted one a URI
    /// naming the encrypting VFS and the id of the store's key (`immutable` for a read-only store without a log).
    static func connectionPath(_ file: String, cipherID: String?, immutable: Bool = false) -> String {
        guard cipherID != nil || immutable else { return file }
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        var parameters: [String] = []
        if let cipherID { parameters += ["vfs=\(EncryptingVFS.name)", "cipher=\(cipherID)"] }
        if immutable { parameters.append("immutable=1") }
        return "file:\(file.addingPercentEncoding(withAllowedCharacters: allowed) ?? file)?\(parameters.joined(separator: "&"))"
    }

    /// The path to open the database of the store in `directory` with, from any connection of this process (the store
    /// must be plain or unlocked).
    package static func connectionPath(of directory: URL) throws -> String {
        connectionPath(directory.appendingPathComponent("health.sqlite").path, cipherID: try StoreEncryption.cipherID(for: directory))
    }

    /// Gives a new encrypted database its first page before any connection uses the write-ahead log: the page size and
    /// reserved bytes the seal needs, and the file's identity (`PageCipher`), written in rollback-journal mode so that
    /// every later connection — and the log's frames — find the identity on disk. Does nothing to a database that has
    /// pages already.
    static func initializeEncrypted(_ file: String, cipherID: String) throws {
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
        guard size == 0 else { return }
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            var reserved = Int32(PageCipher.reservedBytes)
            let code = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_RESERVE_BYTES, &reserved)
            guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
            try db.execute(sql: "PRAGMA page_size = \(PageCipher.pageSize)")
        }
        let queue = try DatabaseQueue(path: connectionPath(file, cipherID: cipherID), configuration: configuration)
        // "OHK1": a header field whose write makes SQLite create page 1.
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA application_id = 1330138929") }
        try queue.close()
    }
}
