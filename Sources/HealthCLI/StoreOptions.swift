import ArgumentParser
import Foundation
import HealthStore
import OpenHealthKit

/// The `--store` option every command that opens a store takes.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("store"),
            help: "The store folder (default: $OPENHEALTHKIT_STORE, else the per-user data folder $XDG_DATA_HOME/openhealthkit or ~/.local/share/openhealthkit, as HKHealthStore() uses).")
    var path: String?

    var directory: URL {
        path.map { URL(fileURLWithPath: $0) } ?? HKHealthStore.Configuration.defaultStoreDirectory()
    }

    /// The person's side of the store, with failures as a one-line error. A command that only reads passes
    /// `creating: false`: a store that does not exist is an error, never a new empty one that answers "no samples".
    func person(creating: Bool = true) throws -> HealthPerson {
        if !creating, !FileManager.default.fileExists(atPath: directory.appendingPathComponent("health.sqlite").path) {
            throw CommandFailure("there is no store in \(directory.path); `health import` or `health generate` makes one")
        }
        try unlockIfEncrypted()
        return try reporting { try HealthPerson(storeDirectory: directory) }
    }

    /// Unlocks an encrypted store for this run: from `OPENHEALTHKIT_PASSPHRASE` or `OPENHEALTHKIT_KEY_FILE` when set (the
    /// store reads them itself), else from the passphrase typed at the terminal. A plain store needs nothing.
    /// `otherwise` is a command's own way out, added to the message when no passphrase can be typed.
    func unlockIfEncrypted(otherwise: String? = nil) throws {
        guard StoreEncryption.isEncrypted(directory), !StoreEncryption.isUnlocked(directory) else { return }
        let environment = ProcessInfo.processInfo.environment
        for variable in [StoreEncryption.passphraseVariable, StoreEncryption.keyFileVariable] where !(environment[variable] ?? "").isEmpty {
            return
        }
        let passphrase = try PassphrasePrompt.read(
            "Passphrase of the store in \(directory.path): ",
            unavailable: "the store in \(directory.path) is encrypted: run in a terminal to type its passphrase, or set \(StoreEncryption.passphraseVariable) (or \(StoreEncryption.keyFileVariable))\(otherwise.map { ", or \($0)" } ?? "")")
        try reporting { try StoreEncryption.unlock(directory, with: .passphrase(passphrase)) }
    }
}

/// Runs `body`, turning an `HKError` into a `CommandFailure` that prints its message.
func reporting<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch let error as HKError { throw CommandFailure(error.message) }
}

/// A type from its identifier ("HKQuantityTypeIdentifierStepCount") or short name ("stepCount", "StepCount").
func objectType(named name: String) throws -> HKObjectType {
    if let type = HKObjectType.type(forIdentifier: name) { return type }
    let wanted = name.lowercased()
    let identifiers = TypesCommand.rows().map(\.identifier) + [HKWorkoutTypeIdentifier]
    let matches = identifiers.filter { identifier in
        let short = ["HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier", "HKCharacteristicTypeIdentifier",
                     "HKCorrelationTypeIdentifier", "HKClinicalTypeIdentifier", "HKDocumentTypeIdentifier", "HKDataTypeIdentifier"]
            .first(where: identifier.hasPrefix).map { String(identifier.dropFirst($0.count)) } ?? identifier
        return short.lowercased() == wanted
    }
    guard matches.count == 1, let type = HKObjectType.type(forIdentifier: matches[0]) else {
        throw CommandFailure(matches.isEmpty
            ? "\"\(name)\" is not a HealthKit type; see `health types`"
            : "\"\(name)\" could mean \(matches.joined(separator: " or ")); give the full identifier")
    }
    return type
}
