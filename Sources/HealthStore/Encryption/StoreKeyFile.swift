import Crypto
import CryptoExtras
import Foundation
import HealthModel

/// The key file of an encrypted store, `health.key` beside `health.sqlite`: the store's random 256-bit data key, wrapped
/// (AES-256-GCM) by a key derived from the person's passphrase with scrypt — its parameters and salt kept here — and,
/// optionally, also by a key derived from the contents of a key file the person keeps elsewhere. Changing the passphrase
/// wraps the same data key again: the store itself is not rewritten. Without this file the store cannot be read, so it
/// belongs in every backup of the folder; it holds no secret that the passphrase (or key file) does not guard.
struct StoreKeyFile: Codable, Sendable, Equatable {
    static let fileName = "health.key"
    static let formatName = "openhealthkit-store-key"

    var format = Self.formatName
    var version = 1
    /// How the pages are sealed, for a reader of the file.
    var cipher = "AES-256-GCM per page of \(PageCipher.pageSize) bytes, nonce and tag in \(PageCipher.reservedBytes) reserved bytes"
    var wraps: [Wrap]
    /// Base64: the X25519 public key that writes made while the store is locked are sealed to (`LockedWriteJournal`),
    /// so that writing them needs no secret. Its private key is derived from the data key (`journalPrivateKey`). Absent
    /// from key files made before the journal existed: added when such a store is next unlocked.
    var journalKey: String?

    /// One wrapping of the data key.
    struct Wrap: Codable, Sendable, Equatable {
        enum Kind: String, Codable, Sendable { case passphrase, keyFile }
        var by: Kind
        /// scrypt's parameters, for a passphrase.
        var scrypt: ScryptParameters?
        /// Base64: the salt of the key derivation.
        var salt: String
        /// Base64: nonce, sealed data key and tag.
        var sealed: String
    }

    /// scrypt's cost: `n` (a power of two), `r`, `p`. Stored with each wrap, so stronger defaults later still open
    /// older stores.
    struct ScryptParameters: Codable, Sendable, Equatable {
        var n: Int
        var r: Int
        var p: Int

        /// 2^17, 8, 1: 128 MiB and about half a second here — OWASP's recommendation for scrypt.
        static let standard = ScryptParameters(n: 1 << 17, r: 8, p: 1)
    }

    /// A new data key, wrapped by `passphrase` and, when given, by the contents of a key file.
    static func create(passphrase: String, keyFile: Data?, scrypt: ScryptParameters = .standard) throws -> (file: StoreKeyFile, dataKey: SymmetricKey) {
        try Self.checkPassphrase(passphrase)
        let dataKey = SymmetricKey(size: .bits256)
        var wraps = [try Wrap(wrapping: dataKey, passphrase: passphrase, scrypt: scrypt)]
        if let keyFile { wraps.append(try Wrap(wrapping: dataKey, keyFile: keyFile)) }
        return (StoreKeyFile(wraps: wraps, journalKey: Self.journalPublicKey(dataKey)), dataKey)
    }

    static func checkPassphrase(_ passphrase: String) throws {
        guard passphrase.count >= 8 else {
            throw HKError(.errorInvalidArgument, "a store's passphrase must be at least 8 characters long")
        }
    }

    /// The private key of the journal of locked writes: derived from the data key, so it needs no wrapping of its own and
    /// is known exactly when the store is unlocked.
    static func journalPrivateKey(_ dataKey: SymmetricKey) -> Curve25519.KeyAgreement.PrivateKey {
        let bytes = HKDF<SHA256>.deriveKey(inputKeyMaterial: dataKey, info: Data("openhealthkit locked-write journal key v1".utf8),
                                           outputByteCount: 32)
        return bytes.withUnsafeBytes { try! Curve25519.KeyAgreement.PrivateKey(rawRepresentation: $0) }  // any 32 bytes are a key
    }

    static func journalPublicKey(_ dataKey: SymmetricKey) -> String {
        journalPrivateKey(dataKey).publicKey.rawRepresentation.base64EncodedString()
    }

    /// The journal's public key, as this file keeps it.
    func journalPublicKey() throws -> Curve25519.KeyAgreement.PublicKey? {
        guard let journalKey else { return nil }
        guard let raw = Data(base64Encoded: journalKey), let key = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: raw) else {
            throw HKError(.errorDatabaseInaccessible, "the store's key file is damaged (its journal key cannot be read)")
        }
        return key
    }

    /// The data key, unwrapped with the passphrase.
    func dataKey(passphrase: String) throws -> SymmetricKey {
        guard let wrap = wraps.first(where: { $0.by == .passphrase }) else {
            throw HKError(.errorDatabaseInaccessible, "this store's key is not wrapped by a passphrase; open it with its key file")
        }
        guard let key = try wrap.unwrap(with: wrap.passphraseKey(passphrase)) else {
            throw HKError(.errorDatabaseInaccessible, "wrong passphrase for this store", reason: .wrongPassphrase)
        }
        return key
    }

    /// The data key, unwrapped with a key file's contents.
    func dataKey(keyFile: Data) throws -> SymmetricKey {
        guard let wrap = wraps.first(where: { $0.by == .keyFile }) else {
            throw HKError(.errorDatabaseInaccessible, "this store's key is not wrapped by a key file; open it with its passphrase")
        }
        guard let key = try wrap.unwrap(with: wrap.keyFileKey(keyFile)) else {
            throw HKError(.errorDatabaseInaccessible, "this key file does not open this store", reason: .wrongKeyFile)
        }
        return key
    }

    /// The same data key wrapped by a new passphrase (the key file's wrapping kept).
    func rewrapped(_ dataKey: SymmetricKey, passphrase: String, scrypt: ScryptParameters = .standard) throws -> StoreKeyFile {
        try Self.checkPassphrase(passphrase)
        var copy = self
        copy.wraps = [try Wrap(wrapping: dataKey, passphrase: passphrase, scrypt: scrypt)] + wraps.filter { $0.by != .passphrase }
        return copy
    }

    /// Reads the key file of the store in `directory`; nil when it has none (a plain store).
    static func load(from directory: URL) throws -> StoreKeyFile? {
        let url = directory.appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        guard let file = try? JSONDecoder().decode(StoreKeyFile.self, from: data), file.format == formatName else {
            throw HKError(.errorDatabaseInaccessible, "\(url.path) is not an OpenHealthKit store key file; the store cannot be opened without the one it was made with")
        }
        guard file.version == 1 else {
            throw HKError(.errorDatabaseInaccessible, "\(url.path) is of version \(file.version), newer than this OpenHealthKit reads")
        }
        return file
    }

    /// Writes the key file into `directory`, private to the user, all at once: a crash leaves the old file or the new one.
    func save(to directory: URL, as name: String = Self.fileName) throws {
        try StoreEncryption.writeAtomically(Self.json(self), named: name, in: directory, what: "the store's key file")
    }

    /// The JSON the store's small files are written in (pretty, keys sorted).
    static func json(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(value)
    }
}

extension StoreKeyFile.ScryptParameters {
    /// scrypt of `passphrase` (Unicode-normalized, so the same words typed on any keyboard give the same key) with
    /// `salt`: 32 bytes. Parameters this machine cannot use are an error naming them, and `what` they belong to.
    func derive(_ passphrase: String, salt: Data, for what: String) throws -> SymmetricKey {
        do {
            return try KDF.Scrypt.deriveKey(from: Data(passphrase.precomposedStringWithCanonicalMapping.utf8), salt: salt, outputByteCount: 32,
                                            rounds: n, blockSize: r, parallelism: p)
        } catch {
            throw HKError(.errorDatabaseInaccessible, "\(what) has scrypt parameters this machine cannot use (n \(n), r \(r), p \(p))")
        }
    }
}

extension StoreKeyFile.Wrap {
    private static let context = Data("openhealthkit store data key v1".utf8)

    init(wrapping dataKey: SymmetricKey, passphrase: String, scrypt: StoreKeyFile.ScryptParameters) throws {
        let salt = Data(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) })
        self.init(by: .passphrase, scrypt: scrypt, salt: salt.base64EncodedString(), sealed: "")
        sealed = try Self.seal(dataKey, with: passphraseKey(passphrase))
    }

    init(wrapping dataKey: SymmetricKey, keyFile: Data) throws {
        guard keyFile.count >= 32 else {
            throw HKError(.errorInvalidArgument, "a key file must hold at least 32 bytes (for example, 32 random bytes)")
        }
        let salt = Data(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) })
        self.init(by: .keyFile, scrypt: nil, salt: salt.base64EncodedString(), sealed: "")
        sealed = try Self.seal(dataKey, with: keyFileKey(keyFile))
    }

    private static func seal(_ dataKey: SymmetricKey, with wrappingKey: SymmetricKey) throws -> String {
        let box = try dataKey.withUnsafeBytes { try AES.GCM.seal($0, using: wrappingKey, authenticating: context) }
        return box.combined!.base64EncodedString()
    }

    /// The data key, or nil when `wrappingKey` is not the one that wrapped it.
    func unwrap(with wrappingKey: SymmetricKey) throws -> SymmetricKey? {
        guard let combined = Data(base64Encoded: sealed), let box = try? AES.GCM.SealedBox(combined: combined) else {
            throw HKError(.errorDatabaseInaccessible, "the store's key file is damaged (a wrapped key cannot be read)")
        }
        return (try? AES.GCM.open(box, using: wrappingKey, authenticating: Self.context)).map { SymmetricKey(data: $0) }
    }

    func passphraseKey(_ passphrase: String) throws -> SymmetricKey {
        guard let scrypt, let salt = Data(base64Encoded: salt) else {
            throw HKError(.errorDatabaseInaccessible, "the store's key file is damaged (its scrypt parameters are missing)")
        }
        return try scrypt.derive(passphrase, salt: salt, for: "the store's key file")
    }

    func keyFileKey(_ contents: Data) throws -> SymmetricKey {
        guard let salt = Data(base64Encoded: salt) else {
            throw HKError(.errorDatabaseInaccessible, "the store's key file is damaged (a salt cannot be read)")
        }
        return HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: contents), salt: salt,
                                      info: Data("openhealthkit store key file".utf8), outputByteCount: 32)
    }
}
