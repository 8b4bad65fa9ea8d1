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
    static let recordsApp = AppManifest(
        bundleIdentifier: "com.example.records", name: "Records",
        shareUsageDescription: "Reads data.", clinicalUsageDescription: "Reads your health records.",
        requiredReadTypeIdentifiers: [HKClinicalTypeIdentifier.labResultRecord.rawValue,
                                      HKClinicalTypeIdentifier.immunizationRecord.rawValue,
                                      HKClinicalTypeIdentifier.allergyRecord.rawValue])
}

let steps = HKQuantityType(.stepCount)
let heartRate = HKQuantityType(.heartRate)

@Suite("Authorization")
struct AuthorizationTests {
    @Test func shareStatusIsPerTypeAndReportsShareOnly() async throws {
        let (store, _, _) = makeStore(.init(default: .deny, share: [steps.identifier: .allow], read: [heartRate.identifier: .allow]))
        #expect(store.authorizationStatus(for: steps) == .notDetermined)
        try await store.requestAuthorization(toShare: [steps, heartRate], read: [heartRate])
        #expect(store.authorizationStatus(for: steps) == .sharingAuthorized)
        #expect(store.authorizationStatus(for: heartRate) == .sharingDenied)
        // Read was allowed for heart rate, yet the status says only what share is.
        let bodyMass = HKQuantityType(.bodyMass)
        try await store.requestAuthorization(toShare: [], read: [bodyMass])
        #expect(store.authorizationStatus(for: bodyMass) == .notDetermined)
    }

    @Test func requestStatusSaysWhetherAnythingWouldBePresented() async throws {
        let (store, _, _) = makeStore(.allowAll)
        #expect(try await store.statusForAuthorizationRequest(toShare: [steps], read: [steps]) == .shouldRequest)
        try await store.requestAuthorization(toShare: [steps], read: [steps])
        #expect(try await store.statusForAuthorizationRequest(toShare: [steps], read: [steps]) == .unnecessary)
        #expect(try await store.statusForAuthorizationRequest(toShare: [steps], read: [steps, heartRate]) == .shouldRequest)
        // Share decided does not mean read decided.
        #expect(try await store.statusForAuthorizationRequest(toShare: [heartRate], read: []) == .shouldRequest)
    }

    @Test func completionHandlerFormGivesUnnecessaryOffTheCallersThread() async throws {
        let (store, _, _) = makeStore(.allowAll)
        try await store.requestAuthorization(toShare: [steps], read: [])
        let status: HKAuthorizationRequestStatus = await withCheckedContinuation { continuation in
            store.getRequestStatusForAuthorization(toShare: [steps], read: []) { status, _ in continuation.resume(returning: status) }
        }
        #expect(status == .unnecessary)
    }

    @Test func decidedTypesAreNotPresentedAgainAndNewOnesAloneAre() async throws {
        let (store, person, _) = makeStore(.allowAll)
        try await store.requestAuthorization(toShare: [steps], read: [steps])
        #expect(person.presentedSheets.count == 1)
        try await store.requestAuthorization(toShare: [steps], read: [steps])
        #expect(person.presentedSheets.count == 1)
        try await store.requestAuthorization(toShare: [steps], read: [steps, heartRate])
        #expect(person.presentedSheets.count == 2)
        #expect(person.presentedSheets[1].readTypes == [heartRate.identifier])
        #expect(person.presentedSheets[1].shareTypes.isEmpty)
    }

    @Test func aDeniedTypeIsDecidedToo() async throws {
        let (store, person, _) = makeStore(.denyAll)
        try await store.requestAuthorization(toShare: [steps], read: [steps])
        try await store.requestAuthorization(toShare: [steps], read: [steps])
        #expect(person.presentedSheets.count == 1)
        #expect(store.authorizationStatus(for: steps) == .sharingDenied)
    }

    @Test func missingUsageDescriptionsAreAnErrorAndNothingIsPresented() async throws {
        var noUpdate = AppManifest.stepsApp
        noUpdate.updateUsageDescription = nil
        let (store, person, _) = makeStore(app: noUpdate, .allowAll)
        await #expect {
            try await store.requestAuthorization(toShare: [steps], read: [])
        } throws: { error in
            (error as? HKError)?.code == .errorInvalidArgument && (error as? HKError)?.message.contains("NSHealthUpdateUsageDescription") == true
        }
        var noShare = AppManifest.stepsApp
        noShare.shareUsageDescription = ""
        let (store2, person2, _) = makeStore(app: noShare, .allowAll)
        await #expect(throws: HKError(.errorInvalidArgument)) { try await store2.requestAuthorization(toShare: [], read: [steps]) }
        #expect(person.presentedSheets.isEmpty && person2.presentedSheets.isEmpty)
    }

    @Test func clinicalTypesCannotBeRequestedForSharing() async throws {
        let (store, person, _) = makeStore(app: .recordsApp, .allowAll)
        await #expect {
            try await store.requestAuthorization(toShare: [HKClinicalType(.labResultRecord)], read: [])
        } throws: { error in
            (error as? HKError)?.message.contains("clinical types are read-only") == true
        }
        #expect(person.presentedSheets.isEmpty)
    }

    @Test func clinicalReadNeedsTheClinicalUsageDescription() async throws {
        let (store, _, _) = makeStore(app: .stepsApp, .allowAll)
        await #expect {
            try await store.requestAuthorization(toShare: [], read: [HKClinicalType(.labResultRecord)])
        } throws: { error in
            (error as? HKError)?.message.contains("NSHealthClinicalHealthRecordsShareUsageDescription") == true
        }
    }

    @Test func deniedRequiredClinicalTypeFailsTheRequestWithoutNamingIt() async throws {
        let immunization = HKClinicalType(.immunizationRecord)
        let (store, _, _) = makeStore(app: .recordsApp, .init(default: .allow, read: [immunization.identifier: .deny]))
        let records: Set<HKObjectType> = [HKClinicalType(.labResultRecord), immunization, HKClinicalType(.allergyRecord)]
        await #expect {
            try await store.requestAuthorization(toShare: [], read: records)
        } throws: { error in
            guard let error = error as? HKError else { return false }
            return error.code == .errorRequiredAuthorizationDenied && !error.message.contains("Immunization")
        }
        // Allowed in full, the same request succeeds.
        let (allowed, _, _) = makeStore(app: .recordsApp, .allowAll)
        try await allowed.requestAuthorization(toShare: [], read: records)
    }

    @Test func fewerThanThreeRequiredClinicalTypesIsAnError() async throws {
        var app = AppManifest.recordsApp
        app.requiredReadTypeIdentifiers = [HKClinicalTypeIdentifier.labResultRecord.rawValue]
        let (store, person, _) = makeStore(app: app, .allowAll)
        await #expect {
            try await store.requestAuthorization(toShare: [], read: [HKClinicalType(.labResultRecord)])
        } throws: { error in
            (error as? HKError)?.message.contains("three or more") == true
        }
        #expect(person.presentedSheets.isEmpty)
    }

    @Test func guestModeCompletesWithoutPresentingAndKeepsStatuses() async throws {
        let (store, person, _) = makeStore(.allowAll)
        try await store.requestAuthorization(toShare: [steps], read: [])
        try store.service().setGuestMode(true)
        try await store.requestAuthorization(toShare: [steps, heartRate], read: [heartRate])
        #expect(person.presentedSheets.count == 1)
        #expect(store.authorizationStatus(for: steps) == .sharingAuthorized)
        #expect(store.authorizationStatus(for: heartRate) == .notDetermined)
    }

    @Test func dismissingTheSheetDecidesNothing() async throws {
        let (store, _, _) = makeStore(.init(default: .allow, dismiss: true))
        await #expect(throws: HKError(.errorUserCanceled)) { try await store.requestAuthorization(toShare: [steps], read: []) }
        #expect(store.authorizationStatus(for: steps) == .notDetermined)
        #expect(try await store.statusForAuthorizationRequest(toShare: [steps], read: []) == .shouldRequest)
    }

    @Test func thePersonsRevocationAppliesImmediately() async throws {
        let (store, _, _) = makeStore(.allowAll)
        try await store.requestAuthorization(toShare: [steps], read: [steps])
        try store.service().setPermission(app: AppManifest.stepsApp.bundleIdentifier, type: steps.identifier, share: false, read: false)
        #expect(store.authorizationStatus(for: steps) == .sharingDenied)
        #expect(try store.service().canRead(app: AppManifest.stepsApp.bundleIdentifier, type: steps.identifier) == false)
    }

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

    @Test func completionFormReportsSuccess() async throws {
        let (store, _, _) = makeStore(.allowAll)
        let ok: Bool = await withCheckedContinuation { continuation in
            store.requestAuthorization(toShare: [steps], read: nil) { success, _ in continuation.resume(returning: success) }
        }
        #expect(ok)
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
