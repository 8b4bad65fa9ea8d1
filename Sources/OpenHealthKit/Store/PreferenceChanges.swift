import Foundation
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

    /// Each open store on `directory` posts the notification (object: the store) and, on the main actor, the message.
    static func changed(in directory: URL) {
        let path = directory.standardizedFileURL.path
        let stores = open.withLock { entries in entries.compactMap { $0.directory == path ? $0.store : nil } }
        for store in stores {
            NotificationCenter.default.post(name: .HKUserPreferencesDidChange, object: store)
            Task { @MainActor in NotificationCenter.default.post(HKHealthStore.HKUserPreferencesDidChangeMessage(), subject: store) }
        }
    }
}
