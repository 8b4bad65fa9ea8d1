import Crypto
import Foundation
import GRDB
package import HealthModel

/// Locking an encrypted store, as a device's lock makes HealthKit's data unreadable: the key is forgotten (BoringSSL wipes
/// its copy), every connection's cached pages are dropped, and every read or write is refused with
/// `errorDatabaseInaccessible` until the store is unlocked again with its passphrase or key file. What is open stays
/// open — the connections, the files and SQLite's locks — so unlocking needs only the key.
extension HealthDatabase {
    /// Whether the store is locked.
    package var isLocked: Bool { locked.load(ordering: .acquiring) }

    /// HealthKit's error for protected data while the device is locked.
    package var lockedError: HKError { HKError(.errorDatabaseInaccessible, Self.lockedMessage) }

    package static let lockedMessage = "the store is locked: its data cannot be read until the person unlocks it"

    func checkUnlocked() throws {
        if isLocked { throw lockedError }
    }

    /// Locks the store, after the reads and writes in progress have finished. A plain store cannot be locked.
    package func lock() throws {
        guard isEncrypted else {
            throw HKError(.errorInvalidArgument, "the store in \(directory.path) is not encrypted, so it cannot be locked (`health encrypt`)")
        }
        guard !locked.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // Waits for every access in progress; none starts meanwhile. Each connection's page cache is emptied, then the key
        // is forgotten, so nothing of the store stays in this process's memory in clear (but what callers hold).
        if let cipher, let writer = try? writer {
            try? writer.barrierWriteWithoutTransaction { db in
                db.releaseMemory()
                cipher.cipher.forget()
            }
            writer.releaseMemory()   // closes the idle readers
        }
        secrets.withLock { $0.removeAll() }
        StoreEncryption.forgetJournalKey(directory)
    }

    /// Unlocks the store with its passphrase or key file: a wrong one is the error that says so, and the store stays
    /// locked. A store opened locked (``init(lockedStoreIn:)``) is opened now, and migrated if it needs to be.
    package func unlock(with unlock: StoreUnlock) throws {
        guard isEncrypted else {
            throw HKError(.errorInvalidArgument, "the store in \(directory.path) is not encrypted")
        }
        if try openAtFirstUnlock(unlock) {
            locked.store(false, ordering: .releasing)
            return
        }
        guard let cipher else { throw lockedError }
        let key = try StoreEncryption.dataKey(of: directory, unlock)
        cipher.cipher.restore(key)
        StoreEncryption.rememberJournalKey(directory, key)
        locked.store(false, ordering: .releasing)
        // The key must be this store's: one of its pages opens with it (a key file replaced meanwhile would not).
        do { _ = try read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") } } catch {
            try? lock()
            throw error
        }
    }
}
