import Foundation
import Testing
import OpenHealthKit
@testable import OpenHealthKitUI

let fitRecords = AppManifest(bundleIdentifier: "com.example.fitrecords", name: "Fit Records", version: "1.0",
                             shareUsageDescription: "Fit Records reads your heart rate.",
                             updateUsageDescription: "Fit Records saves your workouts.")
let activeEnergy = HKQuantityType(.activeEnergyBurned)
let heartRate = HKQuantityType(.heartRate)
let height = HKQuantityType(.height)
let workouts = HKObjectType.workoutType()

/// A store in a fresh folder (a real SQLite file) for Fit Records, with a scripted person.
func fitRecordsStore(_ script: ScriptedPresenter.Script, in folder: URL? = nil) -> (HKHealthStore, ScriptedPresenter, URL) {
    let folder = folder ?? FileManager.default.temporaryDirectory.appendingPathComponent("ui-\(UUID().uuidString)")
    let person = ScriptedPresenter(script)
    return (HKHealthStore(configuration: .init(storeDirectory: folder, app: fitRecords, presenter: person)), person, folder)
}

/// The article's version 1: writes active energy and workouts, reads active energy and heart rate.
@MainActor func version1(_ store: HKHealthStore) -> HealthIntegrationModel {
    HealthIntegrationModel(store: store, writeTypes: [activeEnergy, workouts], readTypes: [activeEnergy, heartRate])
}

@Suite("Authorization-management state")
@MainActor
struct HealthIntegrationModelTests {
    @Test func itIsLoadingUntilFirstRefreshedThenNotDetermined() async {
        let (store, person, _) = fitRecordsStore(.allowAll)
        let model = version1(store)
        #expect(model.state == .loading)
        await model.refresh()
        #expect(model.state == .notDetermined)
        #expect(!model.isAtLeastOneWriteTypeAuthorized)
        #expect(person.presentedSheets.isEmpty)
    }

    @Test func integratingShowsEachWriteTypesStatus() async throws {
        let (store, person, _) = fitRecordsStore(.init(default: .allow, share: [workouts.identifier: .deny]))
        let model = version1(store)
        await model.refresh()
        try await model.requestAuthorization()
        #expect(model.state == .determined([
            .init(type: activeEnergy, status: .sharingAuthorized), .init(type: workouts, status: .sharingDenied),
        ]))
        #expect(model.isAtLeastOneWriteTypeAuthorized)
        #expect(person.presentedSheets.count == 1)
    }

    @Test func denyingEveryWriteTypeLooksNotIntegratedEvenWithReadsAllowed() async throws {
        let (store, _, _) = fitRecordsStore(.init(default: .deny, read: [heartRate.identifier: .allow]))
        let model = version1(store)
        try await model.requestAuthorization()
        #expect(model.state == .determined([
            .init(type: activeEnergy, status: .sharingDenied), .init(type: workouts, status: .sharingDenied),
        ]))
        #expect(!model.isAtLeastOneWriteTypeAuthorized)
    }

    @Test func aNewWriteTypeMakesItPartiallyDeterminedUntilAdditionalAccess() async throws {
        let (store, person, _) = fitRecordsStore(.allowAll)
        try await version1(store).requestAuthorization()
        // Version 2 adds height to the types it writes.
        let model = HealthIntegrationModel(store: store, writeTypes: [activeEnergy, workouts, height], readTypes: [activeEnergy, heartRate])
        await model.refresh()
        #expect(model.state == .partiallyDetermined(
            determinedWriteTypes: [.init(type: activeEnergy, status: .sharingAuthorized), .init(type: workouts, status: .sharingAuthorized)],
            nonDeterminedWriteTypes: [.init(type: height, status: .notDetermined)]))
        try await model.requestAuthorization()
        // Only the new type was put before the person.
        #expect(person.presentedSheets.last?.shareTypes == [height.identifier])
        #expect(person.presentedSheets.last?.readTypes == [])
        #expect(model.state == .determined([
            .init(type: activeEnergy, status: .sharingAuthorized), .init(type: workouts, status: .sharingAuthorized),
            .init(type: height, status: .sharingAuthorized),
        ]))
    }

    @Test func aNewReadTypeAsksAgainWithoutAnyStatusForIt() async throws {
        let (store, person, _) = fitRecordsStore(.allowAll)
        try await version1(store).requestAuthorization()
        let model = HealthIntegrationModel(store: store, writeTypes: [activeEnergy, workouts],
                                           readTypes: [activeEnergy, heartRate, HKQuantityType(.restingHeartRate)])
        await model.refresh()
        #expect(model.state == .partiallyDetermined(
            determinedWriteTypes: [.init(type: activeEnergy, status: .sharingAuthorized), .init(type: workouts, status: .sharingAuthorized)],
            nonDeterminedWriteTypes: []))
        try await model.requestAuthorization()
        #expect(person.presentedSheets.last?.readTypes == [HKQuantityType(.restingHeartRate).identifier])
        #expect(model.state == .determined([
            .init(type: activeEnergy, status: .sharingAuthorized), .init(type: workouts, status: .sharingAuthorized),
        ]))
    }

    @Test func refreshingPicksUpChangesThePersonMadeInTheHealthApp() async throws {
        let (store, _, folder) = fitRecordsStore(.allowAll)
        let model = version1(store)
        try await model.requestAuthorization()
        try HealthPerson(storeDirectory: folder).setPermission(app: fitRecords.bundleIdentifier, type: workouts, share: false, read: nil)
        await model.refresh()
        #expect(model.state == .determined([
            .init(type: activeEnergy, status: .sharingAuthorized), .init(type: workouts, status: .sharingDenied),
        ]))
    }

    @Test func anUnreachableStoreIsHealthDataNotAvailable() async throws {
        // A store whose folder cannot be created: its status requests fail, which the article maps to "not available".
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ui-file-\(UUID().uuidString)")
        try Data().write(to: file)
        let (store, _, _) = fitRecordsStore(.allowAll, in: file.appendingPathComponent("store"))
        let model = version1(store)
        await model.refresh()
        #expect(model.state == .healthDataNotAvailable)
    }

    @Test func closingTheSheetLeavesItNotDeterminedAndReportsTheError() async throws {
        let (store, _, _) = fitRecordsStore(.init(dismiss: true))
        let model = version1(store)
        await #expect(throws: HKError(.errorUserCanceled)) { try await model.requestAuthorization() }
        #expect(model.state == .notDetermined)
    }
}
