import ArgumentParser
import Foundation
import HealthServer

/// `health lock`: locks the encrypted store the daemon serves, as locking a phone does HealthKit's.
struct LockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock",
        abstract: "Lock the encrypted store a daemon (health serve) serves: apps' reads are refused, their writes kept until it is unlocked.",
        discussion: """
            Asks for the passphrase ($OPENHEALTHKIT_PASSPHRASE, or $OPENHEALTHKIT_KEY_FILE instead), so that no app can \
            lock the store. The daemon forgets the key: while the store is locked, apps' reads fail with \
            errorDatabaseInaccessible and their writes are sealed into health.journal, which only the unlocked store \
            can read. `health unlock` makes them. `health serve --lock-after` locks the store by itself.
            """)

    @OptionGroup var store: StoreOptions
    @Option(help: "The daemon's Unix socket (default: $XDG_RUNTIME_DIR/openhealthkit/healthd.sock).")
    var socket: String?

    func run() async throws {
        let client = DaemonLockClient(socket: socket ?? HealthDaemon.Configuration.defaultSocketPath())
        try client.checkSocket()
        let proof = try DaemonLockClient.proof(for: store.directory, "lock")
        _ = try await client.post("/person/lock", proof)
        print("Locked. Apps cannot read the store until you unlock it (health unlock); what they write meanwhile is kept, sealed.")
    }
}
