import ArgumentParser
import Foundation
import HealthServer

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

    @OptionGroup var store: StoreOptions
    @Option(help: "The daemon's Unix socket (default: $XDG_RUNTIME_DIR/openhealthkit/healthd.sock).")
    var socket: String?

    func run() async throws {
        let client = DaemonLockClient(socket: socket ?? HealthDaemon.Configuration.defaultSocketPath())
        try client.checkSocket()
        let proof = try DaemonLockClient.proof(for: store.directory, "unlock")
        let answer = try await client.post("/person/unlock", proof)
        let replayed = answer["replayed"] as? Int ?? 0, refused = answer["refused"] as? Int ?? 0
        var line = "Unlocked."
        if replayed + refused > 0 {
            line += " Writes kept while it was locked: \(replayed) made" + (refused > 0 ? ", \(refused) refused (see health access)." : ".")
        }
        print(line)
        if let damaged = answer["damaged"] as? String { print("Warning: \(damaged).") }
    }
}
