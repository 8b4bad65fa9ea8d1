import ArgumentParser
import Foundation

/// `health unlock`: unlocks the store a daemon serves and makes the writes apps made while it was locked.
struct UnlockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock",
        abstract: "Unlock the encrypted store a daemon (health serve) serves, and make the writes apps made while it was locked.",
        discussion: """
            Asks for the passphrase ($OPENHEALTHKIT_PASSPHRASE, or $OPENHEALTHKIT_KEY_FILE instead). Each kept write is \
            made in order, as the app that made it, with the rules it would meet now: one the app may no longer make (its \
            access revoked meanwhile) is refused and noted in the access log (health access).
            """)

    @OptionGroup var daemon: DaemonLockClient.Options

    func run() async throws {
        let answer = try await daemon.post("/person/unlock", asking: "unlock")
        let replayed = answer["replayed"] as? Int ?? 0, refused = answer["refused"] as? Int ?? 0
        var line = "Unlocked."
        if replayed + refused > 0 {
            line += " Writes kept while it was locked: \(replayed) made" + (refused > 0 ? ", \(refused) refused (see health access-log)." : ".")
        }
        print(line)
        if let damaged = answer["damaged"] as? String { print("Warning: \(damaged).") }
    }
}
