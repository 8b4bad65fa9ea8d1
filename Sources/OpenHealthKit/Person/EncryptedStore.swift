public import Foundation
import HealthStore

/// A store encrypted at rest, from the person's side: making one, unlocking it for this process, encrypting a plain one,
/// changing its passphrase — what `health init --encrypt`, the prompt, `health encrypt` and `health passphrase` do.
///
/// Every page of an encrypted store's database, write-ahead log and rollback journal is sealed with AES-256-GCM; the
/// random data key is kept in `health.key`, wrapped by a key derived from the passphrase (scrypt) and optionally by a key
/// file. Once unlocked, a store opens in this process as any other (`HKHealthStore`, `HealthPerson`); without unlocking,
/// opening one reads `OPENHEALTHKIT_PASSPHRASE` or `OPENHEALTHKIT_KEY_FILE`, and fails with `errorDatabaseInaccessible`
/// when neither is set.
///
/// ```swift
/// let folder = URL(fileURLWithPath: "health-store")
/// try EncryptedStore.create(at: folder, passphrase: "a long passphrase only I know")
/// let person = try HealthPerson(storeDirectory: folder)
/// // In another process:
/// try EncryptedStore.unlock(at: folder, passphrase: "a long passphrase only I know")
/// ```
public enum EncryptedStore {
    /// Whether the store in `directory` is encrypted.
    public static func isEncrypted(at directory: URL) -> Bool { StoreEncryption.isEncrypted(directory) }

    /// Makes `directory` a new, empty encrypted store, unlocked in this process. The folder must hold no store yet.
    public static func create(at directory: URL, passphrase: String, keyFile: URL? = nil) throws {
        try StoreEncryption.create(directory, passphrase: passphrase, keyFile: keyFile)
    }

    /// Unlocks the store in `directory` for this process; a wrong passphrase is an `errorDatabaseInaccessible` that says so.
    public static func unlock(at directory: URL, passphrase: String) throws {
        try StoreEncryption.unlock(directory, with: .passphrase(passphrase))
    }

    /// Unlocks the store in `directory` for this process with the key file it was also wrapped for.
    public static func unlock(at directory: URL, keyFile: URL) throws {
        try StoreEncryption.unlock(directory, with: .keyFile(keyFile))
    }

    /// Encrypts the plain store in `directory`, crash-safe, and leaves it unlocked in this process. Nothing else may have
    /// the store open meanwhile.
    public static func encrypt(at directory: URL, passphrase: String, keyFile: URL? = nil) throws {
        _ = try StoreEncryption.encryptExisting(directory, passphrase: passphrase, keyFile: keyFile)
    }

    /// Wraps the store's key by `newPassphrase`; the pages are not rewritten.
    public static func changePassphrase(at directory: URL, from passphrase: String, to newPassphrase: String) throws {
        try StoreEncryption.changePassphrase(of: directory, from: .passphrase(passphrase), to: newPassphrase)
    }
}
