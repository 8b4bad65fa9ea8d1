package import Foundation
import GRDB
import Synchronization

/// What changed in a store: the sample types this process saved or deleted, or — when another process wrote
/// to the file — "possibly anything" (`types == nil`).
package struct StoreChange: Sendable {
    package let types: Set<String>?

    /// Whether the change may concern `type`.
    package func touches(_ type: String) -> Bool { types?.contains(type) ?? true }

    /// Which of `candidates` the change may concern.
    package func touched(among candidates: Set<String>) -> Set<String> { types.map { $0.intersection(candidates) } ?? candidates }
}

/// Tells long-running queries that a store changed, after the transaction committed. One instance per store
/// folder in this process (`StoreChanges.for(_:)`), so every `HKHealthStore` opened on the same folder hears the
/// others' saves and deletes with their types. While anyone listens, it also polls SQLite's `data_version`
/// (every 200 ms) to hear commits by other processes — a CLI import, another app — which it reports as
/// "possibly anything"; the queries then look for themselves.
package final class StoreChanges: Sendable {
    private struct State {
        var subscribers: [UUID: AsyncStream<StoreChange>.Continuation] = [:]
        var polling = false
    }
    private let state = Mutex(State())
    private let directory: URL

    private static let byFolder = Mutex<[String: StoreChanges]>([:])

    private init(directory: URL) {
        self.directory = directory
    }

    /// The notifier of the store in `directory`.
    package static func `for`(_ directory: URL) -> StoreChanges {
        let key = directory.standardizedFileURL.path
        return byFolder.withLock { all in
            if let existing = all[key] { return existing }
            let created = StoreChanges(directory: directory.standardizedFileURL)
            all[key] = created
            return created
        }
    }

    /// A stream of changes from now on; it ends when the consumer cancels.
    package func subscribe() -> AsyncStream<StoreChange> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<StoreChange>.makeStream(bufferingPolicy: .unbounded)
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        let startPolling = state.withLock { state in
            state.subscribers[id] = continuation
            defer { state.polling = true }
            return !state.polling
        }
        if startPolling { poll() }
        return stream
    }

    /// Announces that `types` changed (called after the commit).
    package func post(_ types: Set<String>) {
        guard !types.isEmpty else { return }
        post(StoreChange(types: types))
    }

    private func post(_ change: StoreChange) {
        for continuation in state.withLock({ Array($0.subscribers.values) }) { continuation.yield(change) }
    }

    /// Watches `data_version` on a connection of its own until nobody listens.
    private func poll() {
        let directory = directory
        Task.detached { [weak self] in
            var configuration = Configuration()
            configuration.readonly = true
            // An encrypted store's connection goes through its VFS, with nothing in temporary files.
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA temp_store = MEMORY") }
            let path = try? HealthDatabase.connectionPath(of: directory)
            @Sendable func version(_ queue: DatabaseQueue) async -> Int? {
                (try? await queue.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") }) ?? nil
            }
            guard let path, let queue = try? DatabaseQueue(path: path, configuration: configuration), var last = await version(queue) else {
                self?.state.withLock { $0.polling = false }
                return
            }
            while true {
                try? await Task.sleep(for: .milliseconds(200))
                guard let self else { return }
                let listening = self.state.withLock { state in
                    if state.subscribers.isEmpty { state.polling = false }
                    return !state.subscribers.isEmpty
                }
                guard listening else { return }
                guard let current = await version(queue) else { continue }
                if current != last {
                    last = current
                    self.post(StoreChange(types: nil))
                }
            }
        }
    }
}
