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

    /// Starts `store`'s watch, once.
    static func watch(_ store: HKHealthStore, through backend: any HealthBackend) {
        let key = ObjectIdentifier(store)
        watches.withLock { watches in
            guard watches[key] == nil else { return }
            watches[key] = Task { [weak store] in
                var last: [String: String]?
                do {
                    // The first units are those at the start (or at a reconnect, which posts only if they changed).
                    for try await units in backend.preferredUnitUpdates() {
                        guard let store else { return }
                        if let last, last != units { post(for: store) }
                        last = units
                    }
                } catch {
                    // Refused (a revoked app) or cancelled: the store hears nothing more, as its calls now fail.
                }
            }
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
