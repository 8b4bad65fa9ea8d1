import Foundation
import HealthStore

/// A passphrase typed at the terminal (`/dev/tty`, echo off), whatever standard input is; or, for scripts, from the
/// environment.
enum PassphrasePrompt {
    /// Reads one line from the terminal without echoing it; `unavailable` is the failure when there is no terminal.
    static func read(_ prompt: String, unavailable: String) throws -> String {
        let terminal = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard terminal >= 0 else { throw CommandFailure(unavailable) }
        defer { close(terminal) }
        _ = Array(prompt.utf8).withUnsafeBytes { write(terminal, $0.baseAddress, $0.count) }
        var saved = termios()
        let hasSettings = tcgetattr(terminal, &saved) == 0
        if hasSettings {
            var silent = saved
            silent.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(terminal, TCSAFLUSH, &silent)
        }
        defer {
            if hasSettings { tcsetattr(terminal, TCSAFLUSH, &saved) }
            _ = Array("\n".utf8).withUnsafeBytes { write(terminal, $0.baseAddress, $0.count) }
        }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while Foundation.read(terminal, &byte, 1) == 1, byte != UInt8(ascii: "\n") { line.append(byte) }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return String(decoding: line, as: UTF8.self)
    }

    /// What unlocks the store in `directory` now: `$OPENHEALTHKIT_PASSPHRASE`, the key file `$OPENHEALTHKIT_KEY_FILE`
    /// names, or else the passphrase typed after `prompt` (`unavailable`: the failure without a terminal).
    static func current(_ prompt: String, unavailable: String) throws -> StoreUnlock {
        let environment = ProcessInfo.processInfo.environment
        if let passphrase = environment[StoreEncryption.passphraseVariable], !passphrase.isEmpty { return .passphrase(passphrase) }
        if let keyFile = environment[StoreEncryption.keyFileVariable], !keyFile.isEmpty {
            return .keyFile(URL(fileURLWithPath: keyFile).standardizedFileURL)
        }
        return .passphrase(try read(prompt, unavailable: unavailable))
    }

    /// A new passphrase: `variable` from the environment when set, else typed twice at the terminal.
    static func new(_ what: String, variable: String) throws -> String {
        if let given = ProcessInfo.processInfo.environment[variable], !given.isEmpty { return given }
        let unavailable = "\(what) is needed: run in a terminal to type it, or set \(variable)"
        let first = try read("New passphrase (\(what)): ", unavailable: unavailable)
        let second = try read("The same passphrase again: ", unavailable: unavailable)
        guard first == second else { throw CommandFailure("the two passphrases differ; nothing was changed") }
        return first
    }
}
