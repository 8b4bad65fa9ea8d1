import HealthModel
import HealthStore
import OpenHealthKit
import Synchronization

/// One `HKHealthStore` per app the daemon serves, each the app's own view of the one open store: the same facade and
/// rules an embedded app gets, so an app cannot tell the two apart but by speed.
final class AppStores: Sendable {
    private let database: HealthDatabase
    private let stores = Mutex<[String: HKHealthStore]>([:])

    init(database: HealthDatabase) {
        self.database = database
    }

    /// The store of the app `manifest` describes (made on its first request, remade when its manifest changed).
    func store(for manifest: AppManifest) -> HKHealthStore {
        stores.withLock { stores in
            if let store = stores[manifest.bundleIdentifier], store.configuration.app == manifest { return store }
            let store = HKHealthStore(configuration: .init(storeDirectory: database.directory, app: manifest, presenter: DismissingPresenter()),
                                      database: database)
            stores[manifest.bundleIdentifier] = store
            return store
        }
    }
}

/// The person's answer while the daemon cannot yet put a sheet in front of them: the sheet is dismissed, nothing
/// changes, as when HealthKit's sheet is closed. The person decides with `health permission` meanwhile.
struct DismissingPresenter: HKAuthorizationPresenter {
    func present(_ sheet: AuthorizationSheet) async -> AuthorizationSheet.Response { .dismissed }
}
