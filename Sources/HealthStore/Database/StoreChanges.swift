package import Foundation
import Synchronization

/// Tells long-running queries that samples of some types were saved or deleted in a store, after the
/// transaction committed. One instance per store folder in this process (`StoreChanges.for(_:)`), so every
/// `HKHealthStore` opened on the same folder hears the others' changes. Other processes' writes are not
/// heard (yet): they would need polling SQLite's `data_version`.
package final class StoreChanges: Sendable {
    private let subscribers = Mutex<[UUID: AsyncStream<Set<String>>.Continuation]>([:])

    private static let byFolder = Mutex<[String: StoreChanges]>([:])

    /// The notifier of the store in `directory`.
    package static func `for`(_ directory: URL) -> StoreChanges {
        let key = directory.standardizedFileURL.path
        return byFolder.withLock { all in
            if let existing = all[key] { return existing }
            let created = StoreChanges()
            all[key] = created
            return created
        }
    }

    /// A stream of the sets of type identifiers changed, from now on; it ends when the consumer cancels.
    package func subscribe() -> AsyncStream<Set<String>> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<Set<String>>.makeStream(bufferingPolicy: .unbounded)
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        subscribers.withLock { $0[id] = continuation }
        return stream
    }

    /// Announces that `types` changed (called after the commit).
    package func post(_ types: Set<String>) {
        guard !types.isEmpty else { return }
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(types) }
    }
}
