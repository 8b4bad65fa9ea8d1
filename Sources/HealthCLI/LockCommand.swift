import ArgumentParser
import Foundation

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

    @OptionGroup var daemon: DaemonLockClient.Options

    func run() async throws {
        _ = try await daemon.post("/person/lock", asking: "lock")
        print("Locked. Apps cannot read the store until you unlock it (health unlock); what they write meanwhile is kept, sealed.")
    }
}
