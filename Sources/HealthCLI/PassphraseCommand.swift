import ArgumentParser
import Foundation
import HealthStore
import OpenHealthKit

/// `health passphrase`: changes an encrypted store's passphrase.
struct PassphraseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passphrase",
        abstract: "Change the passphrase of an encrypted store (its pages are not rewritten).",
        discussion: """
            Asks for the current passphrase ($OPENHEALTHKIT_PASSPHRASE, or $OPENHEALTHKIT_KEY_FILE instead) and the new \
            one, typed twice ($OPENHEALTHKIT_NEW_PASSPHRASE for scripts). Only health.key changes, all at once.
            """
    )

    @OptionGroup var store: StoreOptions

    func run() throws {
        let directory = store.directory
        guard StoreEncryption.isEncrypted(directory) else {
            throw CommandFailure("the store in \(directory.path) is not encrypted; `health encrypt` encrypts it")
        }
        let current = try PassphrasePrompt.current(
            "Current passphrase of the store in \(directory.path): ",
            unavailable: "the current passphrase is needed: run in a terminal to type it, or set \(StoreEncryption.passphraseVariable)")
        let new = try PassphrasePrompt.new("the new passphrase", variable: "OPENHEALTHKIT_NEW_PASSPHRASE")
        try reporting { try StoreEncryption.changePassphrase(of: directory, from: current, to: new) }
        print("Changed the passphrase of the store in \(directory.path).")
    }
}
