import Foundation
import Synchronization

/// `HKUserPreferencesDidChange` for each store: from its first `preferredUnits(for:)` on, a store watches the units of
/// the types its app may ask about (its backend's `preferredUnitUpdates()`: the store's change watch embedded, which
/// hears other processes too, or the daemon's preferred-units stream) and posts the notification (object: the store)
/// and, on the main actor, the message each time they change. A change of a type the app never asked about is never
/// heard, so an app learns nothing of it.
enum PreferenceChanges {
    /// The watches, by store.
    private static let watches = Mutex<[ObjectIdentifier: Task<Void, Never>]>([:])

    /// Starts `store`'s watch, once, and returns when it has the units as they are (or after 2 s at the most, should the
    /// daemon not answer), so that a change made right after the caller's `preferredUnits(for:)` is heard.
    static func watch(_ store: HKHealthStore, through backend: any HealthBackend) async {
        let key = ObjectIdentifier(store)
        let (ready, isReady) = AsyncStream<Void>.makeStream()
        let started = watches.withLock { watches in
            guard watches[key] == nil else { return false }
            watches[key] = Task { [weak store] in
                defer { isReady.finish() }
                var last: [String: String]?
                do {
                    // The first units are those at the start (or at a reconnect, which posts only if they changed).
                    for try await units in backend.preferredUnitUpdates() {
                        guard let store else { return }
                        if let last, last != units { post(for: store) }
                        if last == nil { isReady.finish() }
                        last = units
                    }
                } catch {
                    // Refused (a revoked app) or cancelled: the store hears nothing more, as its calls now fail.
                }
            }
            return true
        }
        guard started else { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for await _ in ready {} }
            group.addTask { try? await Task.sleep(for: .seconds(2)) }
            await group.next()
            group.cancelAll()
        }
    }

    /// Ends a store's watch (the store is going away).
    static func forget(_ store: HKHealthStore) {
        watches.withLock { $0.removeValue(forKey: ObjectIdentifier(store)) }?.cancel()
    }

    private static func post(for store: HKHealthStore) {
        NotificationCenter.default.post(name: .HKUserPreferencesDidChange, object: store)
        Task { @MainActor in NotificationCenter.default.post(HKHealthStore.HKUserPreferencesDidChangeMessage(), subject: store) }
    }
}
