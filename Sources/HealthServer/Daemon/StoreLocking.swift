import Foundation
import HealthModel
import HealthStore
import Logging
import ServiceLifecycle
import Synchronization

/// The daemon's encrypted store locked and unlocked, as a device's lock guards HealthKit's data (issue 17).
///
/// While locked the store's key is forgotten (`HealthDatabase.lock()`): apps' reads fail with `errorDatabaseInaccessible`
/// and their writes are kept in the journal of locked writes (`LockedWriteJournal`), sealed to the store's public key.
/// Tokens are checked against the approved apps' credentials as they stood when the store was locked. Unlocking replays
/// the journal in order, each write as the app that made it and through the same checks (`HealthAPIService.replay`); new
/// writes keep going to the journal until it is empty, so the order is kept. The person locks and unlocks with the
/// passphrase (`health lock`, `health unlock`); with an idle timeout the daemon locks itself that long after the person
/// last unlocked it.
final class StoreLocking: Service, Sendable {
    enum Mode: String, Sendable { case unlocked, locked, replaying }

    let database: HealthDatabase
    let journal: LockedWriteJournal
    private let registrations: AppRegistrations
    private let idleTimeout: Duration?
    private let logger: Logger
    private let state: Mutex<State>

    private struct State {
        var mode: Mode = .unlocked
        /// The credentials tokens are checked against while the store cannot be read.
        var credentials: AppRegistrations.ApprovedCredentials?
        /// When the person last unlocked (or the daemon opened) the store.
        var lastUnlock = ContinuousClock.now
        /// How many times the store was locked since the daemon started (the web app's sessions end at a lock).
        var locks = 0
        /// Wrong passphrases in a row, and until when the next attempt is refused.
        var failures = 0
        var refusedUntil: ContinuousClock.Instant?
    }

    init(database: HealthDatabase, registrations: AppRegistrations, idleTimeout: Duration?, logger: Logger) {
        self.database = database
        self.journal = LockedWriteJournal(directory: database.directory)
        self.registrations = registrations
        self.idleTimeout = idleTimeout
        self.logger = logger
        // A store opened locked (`HealthDaemon.Configuration.startLocked`) starts so, with no credentials to check tokens
        // against: until its first unlock every app request meets the locked store.
        self.state = Mutex(State(mode: database.isLocked ? .locked : .unlocked))
    }

    var mode: Mode { state.withLock { $0.mode } }

    /// How many times the store was locked since the daemon started.
    var lockCount: Int { state.withLock { $0.locks } }

    /// Whether apps' writes go to the journal now (locked, or the journal not yet replayed) — never for the replay's own.
    var keepsWrites: Bool { !Replay.isReplaying && state.withLock { $0.mode != .unlocked } }

    /// The app a bearer token belongs to: from the store, or while it is locked from the credentials kept at locking.
    func app(forToken token: String) throws -> AppManifest? {
        if let credentials = state.withLock({ $0.mode == .locked ? $0.credentials : nil }) { return credentials.app(forToken: token) }
        return try registrations.app(forToken: token)
    }

    /// Keeps `write` in the journal if writes are being kept (decided under the same lock that unlocking checks the
    /// journal's end under, so none is left behind); false when the store takes writes directly.
    func keep(_ write: LockedWrite) throws -> Bool {
        try state.withLock { state in
            guard state.mode != .unlocked, !Replay.isReplaying else { return false }
            try journal.append(try JSONEncoder().encode(write))
            return true
        }
    }

    // MARK: - Locking

    /// Runs `proving` (which checks the passphrase or key file) under the limit on wrong ones: five in a row are
    /// answered with a wait of a minute.
    private func limited<T>(_ proving: () throws -> T) throws -> T {
        if let until = state.withLock({ $0.refusedUntil }), until > .now {
            throw LockingError.tooManyAttempts(retryAfter: until - .now)
        }
        do {
            let result = try proving()
            state.withLock { $0.failures = 0; $0.refusedUntil = nil }
            return result
        } catch let error as HKError {
            state.withLock { state in
                state.failures += 1
                if state.failures >= 5 { state.refusedUntil = .now + .seconds(60); state.failures = 0 }
            }
            throw LockingError.refused(error)
        }
    }

    /// Locks the store, the person having proved the passphrase (or key file).
    func lock(proof: StoreUnlock) throws {
        try limited { try StoreEncryption.check(proof, of: database.directory) }
        try lock()
    }

    /// Locks the store (the idle timeout, or the person). While the journal is replayed, the replay stops and goes on at
    /// the next unlock.
    func lock() throws {
        let locked = try state.withLock { state in
            guard state.mode != .locked else { return false }
            state.credentials = try registrations.approvedCredentials()
            state.mode = .locked
            state.locks += 1
            try database.lock()
            return true
        }
        if locked { logger.info("store locked") }
    }

    /// What unlocking did with the journal.
    struct Replayed: Sendable {
        var applied = 0
        var refused = 0
        /// A journal that was damaged or altered: where, and the name it was set aside under. The writes before that
        /// place were made; none after it.
        var damaged: (at: Int64, setAsideAs: String)?
    }

    /// Unlocks the store and replays its journal: `apply` makes each write as the app that made it, throwing only when
    /// the store cannot take it (the replay then stops, to go on at the next unlock or start).
    func unlock(_ proof: StoreUnlock, apply: (LockedWrite) async throws -> Bool) async throws -> Replayed {
        // The key is derived once: unlocking the store proves the passphrase (an unlocked store only checks it).
        if state.withLock({ $0.mode == .locked }) {
            try limited { try database.unlock(with: proof) }
            state.withLock { $0.mode = .replaying; $0.credentials = nil; $0.lastUnlock = .now }
        } else {
            try limited { try StoreEncryption.check(proof, of: database.directory) }
            state.withLock { $0.lastUnlock = .now }
        }
        logger.info("store unlocked")
        return try await replay(apply: apply)
    }

    /// The person signing in to the web Health app with the store's passphrase, under the same limit on wrong ones as
    /// unlocking (the two share it: a guesser gains nothing by alternating). On an encrypted store signing in is
    /// unlocking: a locked store is unlocked and its journal replayed (returned); a plain store's passphrase is checked
    /// against its hash (``PersonPassphrase``).
    func signIn(_ passphrase: String, apply: (LockedWrite) async throws -> Bool) async throws -> Replayed? {
        if StoreEncryption.isEncrypted(database.directory) {
            return try await unlock(.passphrase(passphrase), apply: apply)
        }
        try limited { try PersonPassphrase.check(passphrase, of: database.directory) }
        return nil
    }

    /// Sets the first passphrase of a plain store (the web app's first run); two first runs at once cannot both set one.
    func setFirstPassphrase(_ passphrase: String) throws {
        try state.withLock { _ in try PersonPassphrase.set(passphrase, in: database.directory) }
    }

    /// After a replay that failed at the start (the store could not take a write): writes keep going to the journal, and
    /// the next unlock replays it.
    func replayPending() {
        state.withLock { if $0.mode == .unlocked { $0.mode = .replaying } }
    }

    /// Replays the journal into the (unlocked) store, in order, each entry once: how far it went is recorded after each
    /// entry, and one applied again after a crash changes nothing (its objects are saved already, or deleted already).
    func replay(apply: (LockedWrite) async throws -> Bool) async throws -> Replayed {
        var replayed = Replayed()
        while true {
            guard !database.isLocked else { return replayed }
            guard let id = try journal.id() else {
                state.withLock { if $0.mode == .replaying { $0.mode = .unlocked } }
                return replayed
            }
            var applied = try LockedWriteJournal.appliedThrough(id, in: database)
            let contents = try journal.entries(after: applied)
            for entry in contents?.entries ?? [] {
                let write = try JSONDecoder().decode(LockedWrite.self, from: entry.payload)
                if try await Replay.$isReplaying.withValue(true, operation: { try await apply(write) }) {
                    replayed.applied += 1
                } else {
                    replayed.refused += 1
                }
                try LockedWriteJournal.markApplied(id, through: entry.end, in: database)
                applied = entry.end
            }
            if let damagedAt = contents?.damagedAt {
                // Nothing past an altered entry is trusted: the journal is set aside for the person, and the store takes
                // writes again.
                let name = try state.withLock { state in
                    defer { if state.mode == .replaying { state.mode = .unlocked } }
                    return try journal.setAside()
                }
                replayed.damaged = (damagedAt, name)
                logger.error("the journal of writes kept while locked was damaged or altered; set aside",
                             metadata: ["at": "\(damagedAt)", "as": "\(name)"])
                return replayed
            }
            // Done when no write was kept meanwhile: then the journal goes, and writes go to the store again.
            let done = try state.withLock { state in
                guard try journal.remove(ifEndingAt: applied) else { return false }
                if state.mode == .replaying { state.mode = .unlocked }
                return true
            }
            if done {
                if replayed.applied + replayed.refused > 0 { logger.info("journal replayed", metadata: ["applied": "\(replayed.applied)", "refused": "\(replayed.refused)"]) }
                return replayed
            }
        }
    }

    // MARK: - The idle timeout

    func run() async throws {
        guard let idleTimeout else {
            try? await gracefulShutdown()   // a service that ends early stops the daemon
            return
        }
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let due = self.state.withLock { $0.lastUnlock } + idleTimeout
                if due <= .now {
                    if self.mode == .unlocked {
                        do { try self.lock() } catch { self.logger.error("the store could not be locked", metadata: ["error": "\(error)"]) }
                    }
                    try? await Task.sleep(for: min(idleTimeout, .seconds(1)))
                } else {
                    try? await Task.sleep(until: due)
                }
            }
        }
    }
}

/// Whether the current task is replaying the journal (its writes go to the store, not to the journal again).
enum Replay {
    @TaskLocal static var isReplaying = false
}

/// Why the person's lock or unlock was refused (besides a wrong passphrase, which is the store's own error).
enum LockingError: Error {
    /// The passphrase or key file does not open the store (the store's error says which).
    case refused(HKError)
    case tooManyAttempts(retryAfter: Duration)
}

/// A write an app made while the store was locked, as kept in the journal: who made it (the registration and the hash of
/// the token it presented), when, and the request as the API decoded it.
struct LockedWrite: Codable, Sendable {
    enum Operation: String, Codable, Sendable {
        case save, delete, addWorkoutSamples, saveQuantitySeries, saveHeartbeatSeries
    }

    var id = UUID()
    var registration: String
    var tokenHash: Data
    var bundleIdentifier: String
    var madeAt: Date
    var operation: Operation
    /// The request body (JSON of the generated type).
    var body: Data
}
