package import Foundation
import Crypto
import HealthModel
import Synchronization

/// What unlocks an encrypted store: the person's passphrase, or the key file the store was also wrapped for.
package enum StoreUnlock: Sendable {
    case passphrase(String)
    case keyFile(URL)
}

/// Encrypted stores: making one, unlocking one for this process, changing its passphrase.
///
/// A store is encrypted when its folder holds `health.key` (`StoreKeyFile`). Opening one needs its data key, which this
/// process has once the store is unlocked: by `unlock(_:with:)` (the CLI asks for the passphrase), or else from the
/// environment — `OPENHEALTHKIT_PASSPHRASE`, or `OPENHEALTHKIT_KEY_FILE` naming a key file — for scripts and for unmodified
/// HealthKit code that opens the store embedded. The data key then stays in this process's memory (never in a file name,
/// an error or a log) and every connection to the store reads and writes through `EncryptingVFS`.
package enum StoreEncryption {
    package static let passphraseVariable = "OPENHEALTHKIT_PASSPHRASE"
    package static let keyFileVariable = "OPENHEALTHKIT_KEY_FILE"

    /// The stores unlocked in this process, by folder: the id their connections name the key by.
    private static let unlocked = Mutex<[String: String]>([:])

    private static func folderKey(_ directory: URL) -> String { directory.standardizedFileURL.resolvingSymlinksInPath().path }

    /// Whether the store in `directory` is encrypted (has a key file).
    package static func isEncrypted(_ directory: URL) -> Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent(StoreKeyFile.fileName).path)
    }

    /// Makes `directory` an encrypted store: a new data key, wrapped by `passphrase` (and by the contents of `keyFile`,
    /// when given), written to its key file before any page exists. The folder must hold no store yet. The store is left
    /// unlocked in this process; `HealthDatabase(directory:)` then creates its database.
    package static func create(_ directory: URL, passphrase: String, keyFile: URL? = nil,
                               scrypt: StoreKeyFileParameters = .forNewKeys) throws {
        let database = directory.appendingPathComponent("health.sqlite")
        if let size = try? FileManager.default.attributesOfItem(atPath: database.path)[.size] as? Int, size > 0 {
            throw HKError(.errorInvalidArgument, "there is already a store in \(directory.path); `health encrypt` encrypts an existing one")
        }
        guard !isEncrypted(directory) else {
            throw HKError(.errorInvalidArgument, "the store in \(directory.path) is already encrypted")
        }
        let keyFileContents = try keyFile.map(readKeyFile)
        let (file, dataKey) = try StoreKeyFile.create(passphrase: passphrase, keyFile: keyFileContents, scrypt: scrypt.parameters)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw HKError(.errorDatabaseInaccessible, "cannot create the store folder \(directory.path): \(FileProblem(error))")
        }
        try file.save(to: directory)
        remember(directory, dataKey)
    }

    /// Unlocks the store in `directory` for this process: checks `unlock` against its key file and keeps the data key.
    /// A wrong passphrase or key file is an `errorDatabaseInaccessible` that says so; nothing is opened.
    package static func unlock(_ directory: URL, with unlock: StoreUnlock) throws {
        guard let file = try StoreKeyFile.load(from: directory) else {
            throw HKError(.errorInvalidArgument, "the store in \(directory.path) is not encrypted")
        }
        remember(directory, try dataKey(of: file, in: directory, unlock))
    }

    /// Whether this process has the key of the store in `directory`.
    package static func isUnlocked(_ directory: URL) -> Bool { unlocked.withLock { $0[folderKey(directory)] != nil } }

    /// Forgets the key of the store in `directory` in this process.
    package static func forget(_ directory: URL) {
        if let id = unlocked.withLock({ $0.removeValue(forKey: folderKey(directory)) }) { EncryptedFiles.shared.remove(id) }
        forgetJournalKey(directory)
    }

    /// Wraps the store's data key by `newPassphrase`, proving the old one (or the key file) first. The pages are not
    /// touched: only the key file is replaced, all at once.
    package static func changePassphrase(of directory: URL, from current: StoreUnlock, to newPassphrase: String,
                                         scrypt: StoreKeyFileParameters = .forNewKeys) throws {
        guard let file = try StoreKeyFile.load(from: directory) else {
            throw HKError(.errorInvalidArgument, "the store in \(directory.path) is not encrypted")
        }
        let dataKey = try dataKey(of: file, in: directory, current)
        try file.rewrapped(dataKey, passphrase: newPassphrase, scrypt: scrypt.parameters).save(to: directory)
    }

    /// The id under which the key of the store in `directory` is registered with the VFS, unlocking it from the
    /// environment when this process has not; nil for a plain store.
    static func cipherID(for directory: URL) throws -> String? {
        // An interrupted `health encrypt` is completed (or undone) first, even when the key is known already.
        try finishConversion(directory)
        if let id = unlocked.withLock({ $0[folderKey(directory)] }) { return id }
        guard isEncrypted(directory) else {
            try checkNotEncryptedWithoutKey(directory)
            return nil
        }
        let environment = ProcessInfo.processInfo.environment
        if let passphrase = environment[passphraseVariable], !passphrase.isEmpty {
            try unlock(directory, with: .passphrase(passphrase))
        } else if let keyFile = environment[keyFileVariable], !keyFile.isEmpty {
            try unlock(directory, with: .keyFile(URL(fileURLWithPath: keyFile)))
        } else {
            throw HKError(.errorDatabaseInaccessible,
                          "the store in \(directory.path) is encrypted: give its passphrase (\(passphraseVariable), or the prompt of `health`) or its key file (\(keyFileVariable))")
        }
        return unlocked.withLock { $0[folderKey(directory)] }
    }

    /// The entry of an unlocked store's key, for the failures its pages report.
    static func entry(_ id: String) -> EncryptedFiles.Entry? { EncryptedFiles.shared.entry(id) }

    /// A database that is not SQLite's in a folder without a key file is an encrypted store that lost its key file.
    private static func checkNotEncryptedWithoutKey(_ directory: URL) throws {
        if let start = EncryptingVFS.databaseHead(directory.appendingPathComponent("health.sqlite").path), start != PageCipher.sqliteMagic {
            throw HKError(.errorDatabaseInaccessible,
                          "the store in \(directory.path) is encrypted, and its key file \(StoreKeyFile.fileName) is missing from the folder: put back the copy kept with your backups")
        }
    }

    static func remember(_ directory: URL, _ dataKey: SymmetricKey) {
        let id = EncryptedFiles.shared.register(dataKey)
        // A previous id stays registered: connections opened with it still open their log and journal by it.
        unlocked.withLock { $0[folderKey(directory)] = id }
        rememberJournalKey(directory, dataKey)
    }

    /// The private keys of the journals of locked writes of the stores unlocked in this process, by folder.
    private static let journalKeys = Mutex<[String: Curve25519.KeyAgreement.PrivateKey]>([:])

    /// Keeps the journal's private key while the store is unlocked, and gives a key file made before the journal existed
    /// its public key.
    static func rememberJournalKey(_ directory: URL, _ dataKey: SymmetricKey) {
        journalKeys.withLock { $0[folderKey(directory)] = StoreKeyFile.journalPrivateKey(dataKey) }
        if var file = try? StoreKeyFile.load(from: directory), file.journalKey == nil {
            file.journalKey = StoreKeyFile.journalPublicKey(dataKey)
            try? file.save(to: directory)
        }
    }

    /// The private key that opens the journal of locked writes of the store in `directory`: known while it is unlocked.
    static func journalPrivateKey(_ directory: URL) -> Curve25519.KeyAgreement.PrivateKey? {
        journalKeys.withLock { $0[folderKey(directory)] }
    }

    /// Forgets the journal's private key (the store is locked).
    static func forgetJournalKey(_ directory: URL) {
        _ = journalKeys.withLock { $0.removeValue(forKey: folderKey(directory)) }
    }

    /// The public key writes made while the store in `directory` is locked are sealed to.
    static func journalPublicKey(_ directory: URL) throws -> Curve25519.KeyAgreement.PublicKey {
        guard let key = try StoreKeyFile.load(from: directory)?.journalPublicKey() else {
            throw HKError(.errorDatabaseInaccessible, "the store in \(directory.path) has no journal key: unlock it once to add one")
        }
        return key
    }

    /// Checks that `unlock` opens the encrypted store in `directory` (a wrong passphrase is the error that says so).
    package static func check(_ unlock: StoreUnlock, of directory: URL) throws {
        _ = try dataKey(of: directory, unlock)
    }

    /// The data key of the encrypted store in `directory`, proved by `unlock`.
    static func dataKey(of directory: URL, _ unlock: StoreUnlock) throws -> SymmetricKey {
        guard let file = try StoreKeyFile.load(from: directory) else {
            throw HKError(.errorInvalidArgument, "the store in \(directory.path) is not encrypted")
        }
        return try dataKey(of: file, in: directory, unlock)
    }

    private static func dataKey(of file: StoreKeyFile, in directory: URL, _ unlock: StoreUnlock) throws -> SymmetricKey {
        switch unlock {
        case .passphrase(let passphrase):
            do { return try file.dataKey(passphrase: passphrase) } catch let error as HKError where error.code == .errorDatabaseInaccessible {
                throw HKError(.errorDatabaseInaccessible, "cannot unlock the store in \(directory.path): \(error.message)", reason: error.reason)
            }
        case .keyFile(let url):
            let contents = try readKeyFile(url)
            do { return try file.dataKey(keyFile: contents) } catch let error as HKError where error.code == .errorDatabaseInaccessible {
                throw HKError(.errorDatabaseInaccessible, "cannot unlock the store in \(directory.path) with \(url.path): \(error.message)", reason: error.reason)
            }
        }
    }

    static func readKeyFile(_ url: URL) throws -> Data {
        guard let contents = FileManager.default.contents(atPath: url.path) else {
            throw HKError(.errorDatabaseInaccessible, "the key file \(url.path) is missing or cannot be read")
        }
        return contents
    }
}

/// The cost of the key derivation of a new passphrase: `standard` for people; tests use `fast`.
package struct StoreKeyFileParameters: Sendable {
    let parameters: StoreKeyFile.ScryptParameters
    package static let standard = StoreKeyFileParameters(parameters: .standard)
    /// scrypt at 2^10: fast enough for tests, far too weak for a person's store.
    package static let fast = StoreKeyFileParameters(parameters: StoreKeyFile.ScryptParameters(n: 1 << 10, r: 8, p: 1))

    /// The environment variable that makes new passphrase wraps `fast`, for tests that make many encrypted stores through
    /// the `health` binary (a debug build derives the standard cost in seconds). Never for a person's store: it makes the
    /// passphrase 128 times cheaper to guess. Opening a store always uses the cost stored with its wrap.
    package static let testVariable = "OPENHEALTHKIT_TEST_FAST_KDF"

    /// `standard`, or `fast` under `OPENHEALTHKIT_TEST_FAST_KDF=1`.
    package static var forNewKeys: StoreKeyFileParameters {
        ProcessInfo.processInfo.environment[testVariable] == "1" ? .fast : .standard
    }
}
