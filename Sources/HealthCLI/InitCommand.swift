import ArgumentParser
import Foundation
import HealthStore
import OpenHealthKit

/// `health init`: makes a new store, plain or encrypted.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Make a new, empty store; with --encrypt, one encrypted at rest with a passphrase.",
        discussion: """
            An encrypted store seals every page of its database with AES-256-GCM under a random key, kept in health.key \
            beside it and wrapped by the passphrase (typed twice, or $OPENHEALTHKIT_PASSPHRASE) and, with --key-file, \
            also by that file. Keep health.key with every backup of the folder: without it nothing can be read.
            """
    )

    @OptionGroup var store: StoreOptions

    @Flag(help: "Encrypt the store at rest (asks for a passphrase).")
    var encrypt = false

    @Option(help: "With --encrypt: a key file that also opens the store (made with 32 random bytes if it does not exist).")
    var keyFile: String?

    func validate() throws {
        if keyFile != nil, !encrypt { throw ValidationError("--key-file is for an encrypted store: add --encrypt") }
    }

    func run() throws {
        let directory = store.directory
        let database = directory.appendingPathComponent("health.sqlite")
        if let size = try? FileManager.default.attributesOfItem(atPath: database.path)[.size] as? Int, size > 0 {
            throw CommandFailure("there is already a store in \(directory.path)\(encrypt ? "; `health encrypt` encrypts it" : "")")
        }
        var keyFileURL: URL?
        var madeKeyFile = false
        if encrypt {
            let passphrase = try PassphrasePrompt.new("the store's passphrase", variable: StoreEncryption.passphraseVariable)
            if let keyFile {
                let url = URL(fileURLWithPath: keyFile)
                if !FileManager.default.fileExists(atPath: url.path) {
                    try KeyFileMaker.make(at: url)
                    madeKeyFile = true
                }
                keyFileURL = url
            }
            try reporting { try StoreEncryption.create(directory, passphrase: passphrase, keyFile: keyFileURL) }
        }
        _ = try store.person()
        guard encrypt else {
            print("Made an empty store in \(directory.path).")
            return
        }
        print("Made an empty encrypted store in \(directory.path).")
        print("Its key is in \(directory.appendingPathComponent("health.key").path), wrapped by your passphrase\(keyFileURL.map { " and by the key file \($0.path)\(madeKeyFile ? " (made now)" : "")" } ?? "").")
        print("Keep health.key with every backup of the folder: without it, and the passphrase\(keyFileURL == nil ? "" : " or key file"), nothing in the store can be read.")
    }
}

/// A new key file: 32 random bytes, private to the user.
enum KeyFileMaker {
    static func make(at url: URL) throws {
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
        guard FileManager.default.createFile(atPath: url.path, contents: bytes, attributes: [.posixPermissions: 0o600]) else {
            throw CommandFailure("cannot make the key file \(url.path)")
        }
    }
}
