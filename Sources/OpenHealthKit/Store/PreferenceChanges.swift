import Foundation
import HealthStore
import Synchronization

/// Tells every open `HKHealthStore` on a store folder that the person changed a preferred unit, so each posts its own
/// `HKUserPreferencesDidChange` notification and `HKUserPreferencesDidChangeMessage`, as HealthKit's stores do.
enum PreferenceChanges {
    private final class Entry: Sendable {
        let directory: String
        weak let store: HKHealthStore?
        init(_ store: HKHealthStore) {
            directory = store.configuration.storeDirectory.standardizedFileURL.path
            self.store = store
        }
    }

    private static let open = Mutex<[Entry]>([])

    /// Remembers a store (weakly) so it hears of preference changes in its folder.
    static func register(_ store: HKHealthStore) {
        let entry = Entry(store)
        open.withLock { entries in
            entries.removeAll { $0.store == nil }
            entries.append(entry)
        }
    }

    /// Each open store on `directory` whose app may ask for `type`'s unit (it has asked to share or read the type) posts
    /// the notification (object: the store) and, on the main actor, the message. The others learn nothing of it.
    static func changed(_ type: HKQuantityType, in directory: URL) {
        let path = directory.standardizedFileURL.path
        let stores = open.withLock { entries in entries.compactMap { $0.directory == path ? $0.store : nil } }
        for store in stores {
            guard let engine = try? store.backend() as? EmbeddedBackend,
                  engine.app.bundleIdentifier == AuthorizationService.personReader
                    || (try? engine.samples.authorization.decidedTypes(app: engine.app.bundleIdentifier).contains(type.identifier)) == true
            else { continue }
            post(for: store)
        }
    }

    private static func post(for store: HKHealthStore) {
        NotificationCenter.default.post(name: .HKUserPreferencesDidChange, object: store)
        Task { @MainActor in NotificationCenter.default.post(HKHealthStore.HKUserPreferencesDidChangeMessage(), subject: store) }
    }

    /// The watches of stores served by the daemon, by store.
    private static let watches = Mutex<[ObjectIdentifier: Task<Void, Never>]>([:])

    /// A store served by the daemon hears of the person's changes through the daemon's preferred-units stream, from its
    /// first `preferredUnits(for:)` on (the units it may ask about; the stream reconnects after a drop, and a change
    /// made meanwhile is posted once). One watch per store, ended by ``forget(_:)``.
    static func watch(_ store: HKHealthStore, through backend: RemoteBackend) {
        let key = ObjectIdentifier(store)
        watches.withLock { watches in
            guard watches[key] == nil else { return }
            watches[key] = Task { [weak store] in
                var last: [String: String]?
                do {
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
}
