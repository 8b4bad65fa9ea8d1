import Crypto
package import Foundation
import HealthModel

/// The person's passphrase, which signs in to the web Health app: one passphrase for the person's whole store.
///
/// On an encrypted store it is the store's own: signing in unwraps the data key in `health.key` (``StoreEncryption``), so
/// nothing else is kept. A plain store keeps only what checks it, in `health.passphrase`: scrypt of the passphrase with
/// the same parameters an encrypted store's key file uses (stored with it), so the same passphrase can later encrypt the
/// store (`health encrypt`, which removes this file: the key file then checks it).
package enum PersonPassphrase {
    static let fileName = "health.passphrase"
    private static let formatName = "openhealthkit-passphrase"

    private struct File: Codable {
        var format = PersonPassphrase.formatName
        var version = 1
        var scrypt: StoreKeyFile.ScryptParameters
        /// Base64: the salt, and scrypt's 32 bytes.
        var salt: String
        var hash: String
    }

    /// Whether the person has a passphrase for the store in `directory`: an encrypted store always has one.
    package static func isSet(_ directory: URL) -> Bool {
        StoreEncryption.isEncrypted(directory) || FileManager.default.fileExists(atPath: directory.appendingPathComponent(fileName).path)
    }

    /// Sets the first passphrase of a plain store (the web app's first run). A store that has one already keeps it:
    /// only someone who knows it may change it.
    package static func set(_ passphrase: String, in directory: URL, scrypt: StoreKeyFileParameters = .forNewKeys) throws {
        guard !isSet(directory) else {
            throw HKError(.errorAuthorizationDenied, "this store has a passphrase already; sign in with it")
        }
        try write(passphrase, in: directory, scrypt: scrypt)
    }

    /// Changes the passphrase of a plain store, the current one proved first.
    package static func change(in directory: URL, from current: String, to new: String, scrypt: StoreKeyFileParameters = .forNewKeys) throws {
        try check(current, of: directory)
        try write(new, in: directory, scrypt: scrypt)
    }

    /// Checks `passphrase`: against the encrypted store's key, or the plain store's hash. A wrong one is
    /// `errorAuthorizationDenied` ("wrong passphrase"); a store without one is `errorAuthorizationNotDetermined`.
    package static func check(_ passphrase: String, of directory: URL) throws {
        if StoreEncryption.isEncrypted(directory) {
            do {
                try StoreEncryption.check(.passphrase(passphrase), of: directory)
                return
            } catch let error as HKError where error.reason == .wrongPassphrase {
                throw HKError(.errorAuthorizationDenied, "wrong passphrase", reason: .wrongPassphrase)
            }
        }
        let url = directory.appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw HKError(.errorAuthorizationNotDetermined, "this store has no passphrase yet; set one first")
        }
        guard let file = try? JSONDecoder().decode(File.self, from: data), file.format == formatName, file.version == 1,
              let salt = Data(base64Encoded: file.salt), let hash = Data(base64Encoded: file.hash) else {
            throw HKError(.errorDatabaseInaccessible, "\(url.path) is damaged: it does not hold an OpenHealthKit passphrase check")
        }
        let derived = try file.scrypt.derive(passphrase, salt: salt, for: "the passphrase check").withUnsafeBytes { Data($0) }
        guard ConstantTime.equal(derived, hash) else {
            throw HKError(.errorAuthorizationDenied, "wrong passphrase", reason: .wrongPassphrase)
        }
    }

    /// Forgets a plain store's passphrase check: the store was encrypted, and its key file checks the passphrase now.
    static func removeCheck(in directory: URL) {
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(fileName))
    }

    private static func write(_ passphrase: String, in directory: URL, scrypt: StoreKeyFileParameters) throws {
        try StoreKeyFile.checkPassphrase(passphrase)
        let salt = Data(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) })
        let hash = try scrypt.parameters.derive(passphrase, salt: salt, for: "the passphrase check").withUnsafeBytes { Data($0) }
        let file = File(scrypt: scrypt.parameters, salt: salt.base64EncodedString(), hash: hash.base64EncodedString())
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try StoreEncryption.writeAtomically(StoreKeyFile.json(file), named: fileName, in: directory, what: "the passphrase check")
    }
}
