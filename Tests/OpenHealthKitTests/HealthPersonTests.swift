import Foundation
import Testing
@testable import OpenHealthKit
import TestSupport

@Suite("The person's side")
struct HealthPersonTests {
    /// Health data is the person's alone: a new store is private to its user whatever the umask, so `health serve`
    /// accepts a store `health import` made.
    @Test func aNewStoreIsPrivateToItsUser() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-\(UUID().uuidString)/store")
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let previous = umask(0o022)
        defer { umask(previous) }
        let person = try HealthPerson(storeDirectory: folder)
        try person.setGuestMode(false)
        func mode(_ name: String) throws -> Int {
            try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[.posixPermissions] as! Int
        }
        #expect(try [mode(""), mode("health.sqlite"), mode("health.sqlite-wal")] == [0o700, 0o600, 0o600])
    }

    @Test func theDefaultStoreIsThePerUserDataFolderUnlessTheEnvironmentNamesOne() {
        #expect(HKHealthStore.Configuration.defaultStoreDirectory(["OPENHEALTHKIT_STORE": "/srv/health", "XDG_DATA_HOME": "/x"]).path == "/srv/health")
        #expect(HKHealthStore.Configuration.defaultStoreDirectory(["XDG_DATA_HOME": "/home/ana/.data", "HOME": "/home/ana"]).path
                    == "/home/ana/.data/openhealthkit")
        #expect(HKHealthStore.Configuration.defaultStoreDirectory(["HOME": "/home/ana"]).path == "/home/ana/.local/share/openhealthkit")
        // A relative XDG_DATA_HOME is invalid by the XDG spec and ignored.
        #expect(HKHealthStore.Configuration.defaultStoreDirectory(["XDG_DATA_HOME": "data", "HOME": "/home/ana"]).path
                    == "/home/ana/.local/share/openhealthkit")
    }

    static let watchApp = AppManifest(bundleIdentifier: "com.example.watch", name: "Watch", version: "2.1",
                                      shareUsageDescription: "Reads.", updateUsageDescription: "Writes.")

    @Test func appsListWhatEachAskedAndWhatWasDecided() async throws {
        let (store, _, folder) = makeStore(.init(default: .deny, share: [steps.identifier: .allow], read: [heartRate.identifier: .allow]))
        try await store.requestAuthorization(toShare: [steps], read: [heartRate, steps])
        let (_, _, _) = makeStore(app: Self.watchApp, .allowAll, in: folder)
        let person = try HealthPerson(storeDirectory: folder)
        let apps = try person.apps()
        #expect(apps.map(\.app.bundleIdentifier) == ["com.example.steps", "com.example.watch"])
        #expect(apps[0].app.shareUsageDescription == AppManifest.stepsApp.shareUsageDescription)
        #expect(apps[0].types == [
            .init(typeIdentifier: heartRate.identifier, shareRequested: false, readRequested: true, share: nil, read: true),
            .init(typeIdentifier: steps.identifier, shareRequested: true, readRequested: true, share: true, read: false),
        ])
        #expect(apps[1].types.isEmpty)
    }

    @Test func revokingAppliesToTheVeryNextCall() async throws {
        let (store, _, folder) = makeStore(.allowAll)
        try await store.requestAuthorization(toShare: [steps], read: [steps])
        try await store.save(stepSample(10))
        let person = try HealthPerson(storeDirectory: folder)
        try person.revokeAll(app: AppManifest.stepsApp.bundleIdentifier)
        #expect(store.authorizationStatus(for: steps) == .sharingDenied)
        await #expect(throws: HKError(.errorAuthorizationDenied)) { try await store.save(stepSample(5)) }
        try person.setPermission(app: AppManifest.stepsApp.bundleIdentifier, type: steps, share: true, read: nil)
        try await store.save(stepSample(5))
        #expect(try person.apps()[0].types[0].read == false)
    }

    @Test func thePersonCannotGiveWriteAccessToReadOnlyTypesOrUnknownApps() throws {
        let (_, _, folder) = makeStore(.allowAll)
        _ = try HKHealthStore(configuration: .init(storeDirectory: folder, app: .stepsApp, presenter: ScriptedPresenter(.allowAll))).service()
        let person = try HealthPerson(storeDirectory: folder)
        #expect(throws: HKError(.errorInvalidArgument)) {
            try person.setPermission(app: "com.example.steps", type: HKObjectType.clinicalType(forIdentifier: .labResultRecord)!,
                                     share: true, read: nil)
        }
        #expect(throws: HKError(.errorInvalidArgument)) {
            try person.setPermission(app: "com.example.steps", type: HKObjectType.characteristicType(forIdentifier: .bloodType)!,
                                     share: true, read: nil)
        }
        #expect(throws: HKError(.errorInvalidArgument)) {
            try person.setPermission(app: "com.example.nobody", type: steps, share: false, read: false)
        }
        #expect(throws: HKError(.errorInvalidArgument)) { try person.revokeAll(app: "com.example.nobody") }
    }

    @Test func characteristicsThePersonEntersReachAppsAllowedToReadThem() async throws {
        let bloodType = HKObjectType.characteristicType(forIdentifier: .bloodType)!
        let birth = HKObjectType.characteristicType(forIdentifier: .dateOfBirth)!
        let (store, _, folder) = makeStore(.allowAll)
        try await store.requestAuthorization(toShare: [], read: [bloodType, birth])
        let person = try HealthPerson(storeDirectory: folder)
        try person.setBloodType(.oNegative)
        try person.setDateOfBirth(DateComponents(year: 1984, month: 2, day: 29))
        #expect(try store.bloodType().bloodType == .oNegative)
        #expect(try store.dateOfBirthComponents().day == 29)
        #expect(throws: HKError(.errorInvalidArgument)) { try person.setDateOfBirth(DateComponents(year: 1985, month: 2, day: 29)) }
        #expect(throws: HKError(.errorInvalidArgument)) { try person.setDateOfBirth(DateComponents(year: 3000, month: 1, day: 1)) }
        try person.setBloodType(.notSet)
        #expect(try store.bloodType().bloodType == .notSet)
    }

    @Test func guestModeIsThePersonsSwitch() async throws {
        let (store, _, folder) = makeStore(.allowAll)
        try await store.requestAuthorization(toShare: [steps], read: [steps])
        let person = try HealthPerson(storeDirectory: folder)
        try person.setGuestMode(true)
        #expect(try person.isGuestMode())
        await #expect(throws: HKError(.errorNotPermissibleForGuestUserMode)) { try await store.save(stepSample(1)) }
        try person.setGuestMode(false)
        try await store.save(stepSample(1))
    }

    @Test func sourcePriorityDefaultsToFirstWriteAndFollowsThePersonsOrder() async throws {
        let (mine, _, folder) = makeStore(.allowAll)
        let (watch, _, _) = makeStore(app: Self.watchApp, .allowAll, in: folder)
        try await mine.requestAuthorization(toShare: [steps], read: [])
        try await watch.requestAuthorization(toShare: [steps], read: [])
        try await mine.save(stepSample(1))
        try await watch.save(stepSample(2))
        let person = try HealthPerson(storeDirectory: folder)
        #expect(try person.sourcePriority(for: steps).map(\.bundleIdentifier) == ["com.example.steps", "com.example.watch"])
        try person.setSourcePriority(["com.example.watch"], for: steps)
        #expect(try person.sourcePriority(for: steps).map(\.bundleIdentifier) == ["com.example.watch", "com.example.steps"])
        #expect(try person.sourcePriority(for: heartRate).isEmpty)
        #expect(throws: HKError(.errorInvalidArgument)) { try person.setSourcePriority(["com.example.unknown"], for: steps) }
        #expect(throws: HKError(.errorInvalidArgument)) { try person.setSourcePriority(["com.example.watch", "com.example.watch"], for: steps) }
        // A failed change leaves the order as it was.
        #expect(try person.sourcePriority(for: steps).map(\.bundleIdentifier) == ["com.example.watch", "com.example.steps"])
    }

    @Test func thePersonsOwnViewReadsEverySourceAndNoAppCanClaimIt() async throws {
        let s = try await TwoSources.make(readerMayRead: false)
        try await s.watch.save(stepsSample(10, from: 0, to: 60))
        try await s.phone.save(stepsSample(20, from: 60, to: 120))
        let person = try HealthPerson(storeDirectory: s.folder)
        #expect(try await run(person.healthStore, type: steps).count == 2)
        #expect(try await run(s.phone, type: steps).count == 1, "the phone app may not read others' steps")
        await #expect(throws: HKError.self) { try await person.healthStore.save(stepsSample(1, from: 200, to: 260)) }

        let impostor = AppManifest(bundleIdentifier: "(the person)", name: "Impostor", shareUsageDescription: "x")
        let (store, _, _) = makeStore(app: impostor, .allowAll, in: s.folder)
        await #expect(throws: HKError.self) { try await store.requestAuthorization(toShare: [], read: [steps]) }
        await #expect(throws: HKError.self) { try await run(store, type: steps) }
    }
}
