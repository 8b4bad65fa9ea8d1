public import Foundation
package import HealthStore

/// The access point to the person's health data, as in HealthKit: one app's view of one person's store.
///
/// Give it the store folder, the app's manifest and the presenter that asks the person, or let
/// ``init()`` read them from the environment (see ``Configuration/fromEnvironment()``):
///
/// ```swift
/// let store = HKHealthStore(configuration: .init(
///     storeDirectory: URL(fileURLWithPath: "health-store"),
///     app: AppManifest(bundleIdentifier: "com.example.steps", name: "Steps",
///                      shareUsageDescription: "Charts your steps.", updateUsageDescription: "Logs walks."),
///     presenter: ScriptedPresenter(.allowAll)))
/// try await store.requestAuthorization(toShare: [HKQuantityType(.stepCount)], read: [HKQuantityType(.stepCount)])
/// store.authorizationStatus(for: HKQuantityType(.stepCount))   // .sharingAuthorized
/// ```
public final class HKHealthStore: Sendable {
    /// Where the store lives, which app is asking, and who answers authorization requests.
    public struct Configuration: Sendable {
        public var storeDirectory: URL
        public var app: AppManifest
        public var presenter: any HKAuthorizationPresenter
        /// How statistics merge overlapping sources: `.exact` (Health Connect's sweep, the default) or
        /// `.appleGrid900` (HealthKit's observed 15-minute grid; experimental).
        public var statisticsMergeMode: HKStatisticsMergeMode

        public init(storeDirectory: URL, app: AppManifest, presenter: any HKAuthorizationPresenter,
                    statisticsMergeMode: HKStatisticsMergeMode = .exact) {
            self.storeDirectory = storeDirectory
            self.app = app
            self.presenter = presenter
            self.statisticsMergeMode = statisticsMergeMode
        }
    }

    public let configuration: Configuration
    /// The opened store, or why it could not be opened (every call then fails with that error).
    private let opened: Result<SampleStore, HKError>

    /// Opens the store described by `configuration`. Opening failures surface as
    /// `HKError(.errorDatabaseInaccessible)` from each call, since HealthKit's initializer cannot throw.
    public convenience init(configuration: Configuration) {
        self.init(configuration: configuration, registering: true)
    }

    /// The person's own view (`HealthPerson.healthStore`): its reader identity is never registered as an app, and
    /// registering it through the public initializer fails.
    package init(configuration: Configuration, registering: Bool) {
        self.configuration = configuration
        do {
            let samples = SampleStore(database: try HealthDatabase(directory: configuration.storeDirectory))
            if registering { try samples.authorization.register(configuration.app) }
            opened = .success(samples)
        } catch let error as HKError {
            opened = .failure(error)
        } catch {
            opened = .failure(HKError(.errorDatabaseInaccessible, "\(error)"))
        }
    }

    /// Opens the store the environment describes, so unmodified HealthKit code runs:
    /// `OPENHEALTHKIT_STORE` (store folder), `OPENHEALTHKIT_APP` (manifest JSON file) and
    /// `OPENHEALTHKIT_PERSON` (scripted person JSON file). See ``Configuration/fromEnvironment()``.
    public convenience init() {
        switch Configuration.fromEnvironment() {
        case .success(let configuration):
            self.init(configuration: configuration)
            if case .success(let samples) = opened, let person = configuration.presenter as? ScriptedPresenter,
               let guest = person.script.guestMode {
                try? samples.authorization.setGuestMode(guest)
            }
        case .failure(let error):
            self.init(unavailable: error)
        }
    }

    private init(unavailable error: HKError) {
        configuration = Configuration(storeDirectory: URL(fileURLWithPath: "/nonexistent"),
                                      app: AppManifest(bundleIdentifier: "", name: ""), presenter: ScriptedPresenter(.denyAll))
        opened = .failure(error)
    }

    /// The authorization database of the opened store.
    package func service() throws -> AuthorizationService {
        try opened.get().authorization
    }

    /// The samples of the opened store.
    package func sampleStore() throws -> SampleStore {
        try opened.get()
    }

    /// The characteristics of the opened store.
    package func characteristicStore() throws -> CharacteristicStore {
        CharacteristicStore(database: try opened.get().database)
    }

    /// Whether health data is available: always, on this platform.
    public class func isHealthDataAvailable() -> Bool { true }

    /// Whether this store can hold clinical records: it can.
    public func supportsHealthRecords() -> Bool { true }
}
