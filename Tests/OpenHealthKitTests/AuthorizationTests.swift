import Foundation
import Testing
@testable import HealthStore
@testable import OpenHealthKit

/// A store in a fresh temporary folder (a real SQLite file), for one app and one scripted person.
func makeStore(
    app: AppManifest = .stepsApp, _ script: ScriptedPresenter.Script, in folder: URL? = nil
) -> (HKHealthStore, ScriptedPresenter, URL) {
    let folder = folder ?? FileManager.default.temporaryDirectory.appendingPathComponent("ohk-\(UUID().uuidString)")
    let person = ScriptedPresenter(script)
    return (HKHealthStore(configuration: .init(storeDirectory: folder, app: app, presenter: person)), person, folder)
}

extension AppManifest {
    static let stepsApp = AppManifest(
        bundleIdentifier: "com.example.steps", name: "Steps", version: "1.0",
        shareUsageDescription: "Steps charts your steps.", updateUsageDescription: "Steps saves the walks you log.")
}

let steps = HKQuantityType(.stepCount)
let heartRate = HKQuantityType(.heartRate)

/// What only an embedded store has: several `HKHealthStore`s opened on one folder. The rules an app meets run on both
/// backends in `HealthServerTests/AuthorizationOnBothBackendsTests`.
@Suite("Authorization")
struct AuthorizationTests {
    @Test func decisionsPersistAcrossStoresOnTheSameFolder() async throws {
        let (first, _, folder) = makeStore(.allowAll)
        try await first.requestAuthorization(toShare: [steps], read: [])
        let (second, person, _) = makeStore(.denyAll, in: folder)
        #expect(second.authorizationStatus(for: steps) == .sharingAuthorized)
        try await second.requestAuthorization(toShare: [steps], read: [])
        #expect(person.presentedSheets.isEmpty)
        // Another app on the same store decides for itself.
        var other = AppManifest.stepsApp
        other.bundleIdentifier = "com.example.other"
        let (third, _, _) = makeStore(app: other, .denyAll, in: folder)
        #expect(third.authorizationStatus(for: steps) == .notDetermined)
    }
}

@Suite("HKHealthStore from the environment")
struct EnvironmentConfigurationTests {
    @Test func readsManifestAndPersonFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-env-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let app = folder.appendingPathComponent("app.json"), person = folder.appendingPathComponent("person.json")
        try Data(#"{"CFBundleIdentifier": "com.example.env", "CFBundleName": "Env", "NSHealthShareUsageDescription": "r"}"#.utf8).write(to: app)
        try Data(#"{"default": "allow", "read": {"HKQuantityTypeIdentifierHeartRate": "deny"}}"#.utf8).write(to: person)
        let configuration = try HKHealthStore.Configuration.fromEnvironment([
            "OPENHEALTHKIT_STORE": folder.appendingPathComponent("store").path,
            "OPENHEALTHKIT_APP": app.path, "OPENHEALTHKIT_PERSON": person.path,
        ]).get()
        #expect(configuration.app.bundleIdentifier == "com.example.env")
        #expect(configuration.app.shareUsageDescription == "r")
        let script = try #require(configuration.presenter as? ScriptedPresenter).script
        #expect(script.default == .allow)
        #expect(script.read["HKQuantityTypeIdentifierHeartRate"] == .deny)
    }

    @Test func aMissingManifestIsAClearError() {
        let result = HKHealthStore.Configuration.fromEnvironment(["OPENHEALTHKIT_APP": "/nonexistent/app.json"])
        guard case .failure(let error) = result else { Issue.record("expected a failure"); return }
        #expect(error.message.contains("OPENHEALTHKIT_APP"))
    }

    @Test func anUnopenableStoreFailsEveryCallWithDatabaseInaccessible() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-file-\(UUID().uuidString)")
        try Data("not a folder".utf8).write(to: file)
        let (store, _, _) = makeStore(.allowAll, in: file)
        await #expect(throws: HKError(.errorDatabaseInaccessible)) { try await store.requestAuthorization(toShare: [steps], read: []) }
        #expect(store.authorizationStatus(for: steps) == .notDetermined)
    }
}
