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
            let presenter = ParkedPresenter(database: database)
            let store = HKHealthStore(configuration: .init(storeDirectory: database.directory, app: manifest, presenter: presenter),
                                      database: database)
            stores[manifest.bundleIdentifier] = store
            return store
        }
    }
}
