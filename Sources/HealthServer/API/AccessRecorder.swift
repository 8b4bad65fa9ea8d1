import Foundation
import HealthStore
import Logging
import ServiceLifecycle
import Synchronization

/// The daemon's side of the access log: each request's entries are buffered and written to the store together, every
/// `interval` and when the daemon stops (after the last request), so logging costs a request no write of its own.
/// A daemon killed outright loses at most the last interval's entries; the data itself is never at stake.
final class AccessRecorder: Service, Sendable {
    private let log: AccessLog
    private let interval: Duration
    private let logger: Logger
    private let pending = Mutex<[AccessLog.Entry]>([])

    init(log: AccessLog, interval: Duration, logger: Logger) {
        self.log = log
        self.interval = interval
        self.logger = logger
    }

    /// Notes what `app` did; written at the next flush. A type is as the app wrote it (an invalid request's too), cut
    /// to 128 characters: an app cannot fill the person's log with long made-up names.
    func note(app: String, operation: String, type: String?, count: Int, outcome: String) {
        let entry = AccessLog.Entry(time: Date(), app: app, operation: operation, type: type.map { String($0.prefix(128)) }, count: count,
                                    outcome: outcome)
        pending.withLock { $0.append(entry) }
    }

    /// Notes one entry per type of `counts`, with the outcome `error` gives (nil: allowed).
    func note(app: String, operation: String, counts: [String: Int], error: (any Error)?) {
        let outcome = error.map(Self.outcome) ?? "allowed"
        for (type, count) in counts.sorted(by: { $0.key < $1.key }) {
            note(app: app, operation: operation, type: type, count: count, outcome: outcome)
        }
    }

    static func outcome(_ error: any Error) -> String {
        if let problem = error as? Problem, problem.code == .errorDatabaseInaccessible, problem.detail == HealthDatabase.lockedMessage {
            return "locked"
        }
        return switch (error as? Problem)?.status.code {
        case 401?, 403?: "denied"
        case 400?, 413?: "invalid"
        case 409?: "dismissed"
        default: "failed"
        }
    }

    /// Writes what is buffered.
    func flush() {
        let entries = pending.withLock { pending in
            defer { pending.removeAll(keepingCapacity: true) }
            return pending
        }
        guard !entries.isEmpty else { return }
        do {
            try log.record(entries)
        } catch where log.database.isLocked {
            // Kept until the store is unlocked (the oldest dropped beyond a limit, so a long lock cannot fill memory).
            pending.withLock { pending in
                pending.insert(contentsOf: entries, at: 0)
                if pending.count > Self.maximumHeldWhileLocked { pending.removeFirst(pending.count - Self.maximumHeldWhileLocked) }
            }
        } catch {
            logger.error("the access log could not be written", metadata: ["entries": "\(entries.count)", "error": "\(error)"])
        }
    }

    /// Entries held while the store is locked, at most.
    static let maximumHeldWhileLocked = 100_000

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: self.interval)
                self.flush()
            }
        }
        flush()
    }
}
