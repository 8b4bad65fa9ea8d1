import ArgumentParser
import Foundation
import HealthStore
import OpenHealthKit

/// `health encrypt`: makes an existing plain store encrypted, crash-safe.
struct EncryptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encrypt",
        abstract: "Encrypt an existing store at rest (asks for a new passphrase).",
        discussion: """
            Every page is written again, sealed, into a copy, which is checked (SQLite's integrity check, every table's \
            rows counted) before it replaces the plain file; the plain file is then overwritten with zeros and removed. \
            Interrupted at any moment, the store is either still plain and whole or encrypted and whole. Nothing else \
            may have the store open meanwhile: stop `health serve` and the apps first.
            """
    )

    @OptionGroup var store: StoreOptions

    @Option(help: "A key file that also opens the store (made with 32 random bytes if it does not exist).")
    var keyFile: String?

    func run() throws {
        let directory = store.directory
        guard FileManager.default.fileExists(atPath: directory.appendingPathComponent("health.sqlite").path) else {
            throw CommandFailure("there is no store in \(directory.path) to encrypt; `health init --encrypt` makes a new encrypted one")
        }
        if StoreEncryption.isEncrypted(directory) { throw CommandFailure("the store in \(directory.path) is already encrypted") }
        let passphrase = try PassphrasePrompt.new("the store's passphrase", variable: StoreEncryption.passphraseVariable)
        let keyFileURL = keyFile.map { URL(fileURLWithPath: $0) }
        if let keyFileURL, !FileManager.default.fileExists(atPath: keyFileURL.path) { try KeyFileMaker.make(at: keyFileURL) }
        let conversion = try reporting { try StoreEncryption.encryptExisting(directory, passphrase: passphrase, keyFile: keyFileURL) }
        print("Encrypted the store in \(directory.path): \(conversion.pages) pages, \(conversion.rows) rows in \(conversion.tables) tables, checked.")
        print("Keep health.key with every backup of the folder: without it, and the passphrase\(keyFileURL == nil ? "" : " or key file"), nothing in the store can be read.")
    }
}
