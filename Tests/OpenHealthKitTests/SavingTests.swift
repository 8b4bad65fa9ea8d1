import Foundation
import GRDB
import Testing
@testable import HealthStore
@testable import OpenHealthKit

let now = Date(timeIntervalSinceReferenceDate: 800_000_000)

func stepSample(_ count: Double, metadata: [String: Any]? = nil, device: HKDevice? = nil) -> HKQuantitySample {
    HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: count),
                     start: now, end: now.addingTimeInterval(600), device: device, metadata: metadata)
}

/// A store where the steps app may share and read steps.
func authorizedStepsStore(in folder: URL? = nil) async throws -> (HKHealthStore, URL) {
    let (store, _, folder) = makeStore(.allowAll, in: folder)
    try await store.requestAuthorization(toShare: [steps, heartRate], read: [steps, heartRate])
    return (store, folder)
}

/// Saving as the engine keeps it: what is in the store's rows after a save. What an app sees of saving and deleting runs
/// on both backends in HealthServerTests (`SavingTests`, `RemoteStoreTests`).
@Suite("Saving and deleting: the engine's rows")
struct SavingTests {
    @Test func savingAnUndecidedTypeFailsNotDetermined() async throws {
        let (store, _, _) = makeStore(.allowAll)
        await #expect(throws: HKError(.errorAuthorizationNotDetermined)) { try await store.save(stepSample(10)) }
    }

    @Test func savingADeniedTypeFailsDenied() async throws {
        let (store, _, _) = makeStore(.denyAll)
        try await store.requestAuthorization(toShare: [steps], read: [])
        await #expect(throws: HKError(.errorAuthorizationDenied)) { try await store.save(stepSample(10)) }
    }

    @Test func aSavedSampleComesBackEqual() async throws {
        let (store, _) = try await authorizedStepsStore()
        let device = HKDevice(name: "Watch", manufacturer: "Acme", model: "W2", hardwareVersion: "2", firmwareVersion: nil,
                              softwareVersion: "9.1", localIdentifier: nil, udiDeviceIdentifier: nil)
        let when = Date(timeIntervalSinceReferenceDate: 700_000_000.25)
        let sample = stepSample(1234.5, metadata: [
            HKMetadataKeyWasUserEntered: true, "note": "walk", "when": when, "laps": 3, "pace": 1.5,
            "temperature": HKQuantity(unit: .degreeFahrenheit(), doubleValue: 71.6),
        ], device: device)
        try await store.save(sample)
        let saved = try #require(try store.sampleStore().samples(ofType: steps, visibleTo: AppManifest.stepsApp.bundleIdentifier).first
                                 as? HKQuantitySample)
        #expect(saved.uuid == sample.uuid)
        #expect(saved is HKCumulativeQuantitySample)
        #expect(saved.startDate == sample.startDate && saved.endDate == sample.endDate)
        #expect(saved.quantity == sample.quantity)
        #expect(saved.quantity.description == "1234.5 count")
        #expect(saved.device == device)
        #expect(saved.metadataValues == sample.metadataValues)
        #expect(saved.sourceRevision.source.bundleIdentifier == "com.example.steps")
        #expect(saved.sourceRevision.source.name == "Steps")
        #expect(saved.sourceRevision.version == "1.0")
        #expect(saved.sourceRevision.productType?.isEmpty == false)
    }

    @Test func quantitiesAreStoredInCanonicalUnitsWithTheOriginalKept() async throws {
        let (store, _) = try await authorizedStepsStore()
        let hr = HKQuantitySample(type: heartRate, quantity: HKQuantity(unit: HKUnit(from: "count/min"), doubleValue: 72), start: now, end: now)
        try await store.save(hr)
        let row = try store.sampleStore().database.writer.read { db in
            try Row.fetchOne(db, sql: "SELECT value, originalValue, unit FROM sample WHERE uuid = ?", arguments: [hr.uuid.uuidString])!
        }
        #expect(row["value"] as Double == 1.2)  // count/s, the SI base
        #expect(row["originalValue"] as Double == 72)
        #expect(row["unit"] as String == "count/min")
    }

    @Test func aBatchIsSavedWholeOrNotAtAll() async throws {
        let (store, _, _) = makeStore(.init(default: .deny, share: [steps.identifier: .allow], read: [steps.identifier: .allow]))
        try await store.requestAuthorization(toShare: [steps, heartRate], read: [steps])
        let refused = HKQuantitySample(type: heartRate, quantity: HKQuantity(unit: HKUnit(from: "count/min"), doubleValue: 60), start: now, end: now)
        await #expect(throws: HKError(.errorAuthorizationDenied)) {
            try await store.save([stepSample(1), stepSample(2), refused])
        }
        #expect(try store.sampleStore().samples(ofType: steps, visibleTo: AppManifest.stepsApp.bundleIdentifier).isEmpty)
        // A repeated object fails the batch too.
        let twice = stepSample(5)
        await #expect(throws: HKError(.errorInvalidArgument)) { try await store.save([twice, stepSample(6), twice]) }
        #expect(try store.sampleStore().samples(ofType: steps, visibleTo: AppManifest.stepsApp.bundleIdentifier).isEmpty)
    }

    @Test func anAppMayDeleteOnlyWhatItSaved() async throws {
        let (store, folder) = try await authorizedStepsStore()
        let mine = stepSample(10)
        try await store.save(mine)
        var other = AppManifest.stepsApp
        other.bundleIdentifier = "com.example.other"
        let (otherStore, _, _) = makeStore(app: other, .allowAll, in: folder)
        try await otherStore.requestAuthorization(toShare: [steps], read: [steps])
        let visible = try otherStore.sampleStore().samples(ofType: steps, visibleTo: other.bundleIdentifier)
        #expect(visible.map(\.uuid) == [mine.uuid])
        await #expect(throws: HKError(.errorAuthorizationDenied)) { try await otherStore.delete(visible[0]) }
        try await store.delete(mine)
        #expect(try store.sampleStore().samples(ofType: steps, visibleTo: AppManifest.stepsApp.bundleIdentifier).isEmpty)
    }
}

@Suite("Characteristics")
struct CharacteristicTests {
    @Test func appsReadWhatThePersonSetOnlyWithReadPermission() async throws {
        let (store, _, folder) = makeStore(.allowAll)
        try store.characteristicStore().set(.bloodType, to: String(HKBloodType.oNegative.rawValue))
        try store.characteristicStore().set(.dateOfBirth, to: "1984-06-02")
        #expect(try store.bloodType().bloodType == .notSet)  // not authorized looks like not set
        try await store.requestAuthorization(toShare: [], read: [HKCharacteristicType(.bloodType), HKCharacteristicType(.dateOfBirth)])
        #expect(try store.bloodType().bloodType == .oNegative)
        let dob = try store.dateOfBirthComponents()
        #expect(dob.year == 1984 && dob.month == 6 && dob.day == 2)
        #expect(try store.biologicalSex().biologicalSex == .notSet)  // never entered
        let (denied, _, _) = makeStore(app: AppManifest(bundleIdentifier: "com.example.denied", name: "D", shareUsageDescription: "r"),
                                       .denyAll, in: folder)
        try await denied.requestAuthorization(toShare: [], read: [HKCharacteristicType(.bloodType)])
        #expect(try denied.bloodType().bloodType == .notSet)
        #expect(try denied.dateOfBirthComponents().year == nil)
    }
}

@Suite("Preferred units")
struct PreferredUnitTests {
    @Test func anAppMustAskForATypeBeforeLearningItsUnit() async throws {
        let (store, _, _) = makeStore(.allowAll)
        let error = await #expect(throws: HKError.self) { try await store.preferredUnits(for: [heartRate]) }
        #expect(error?.code == .errorAuthorizationNotDetermined)
        try await store.requestAuthorization(toShare: [], read: [heartRate])
        #expect(try await store.preferredUnits(for: [heartRate])[heartRate] == HKUnit(from: "count/min"))  // not count/s
    }

    @Test func thePersonsChoiceReachesAppsAndAnImportNeverOverridesIt() async throws {
        let (store, _, folder) = makeStore(.allowAll)
        let mass = HKQuantityType(.bodyMass)
        try await store.requestAuthorization(toShare: [mass], read: [])
        let person = try HealthPerson(storeDirectory: folder)
        try person.setPreferredUnit(.pound(), for: mass)
        #expect(try await store.preferredUnits(for: [mass])[mass] == .pound())
        #expect(throws: HKError.self) { try person.setPreferredUnit(.meter(), for: mass) }
        // An export written in kg: learned only where the person has not chosen.
        _ = try person.importExport(at: exportFixtures.appendingPathComponent("NicolasReyrolle_apple-health-analyzer/exports/record_body_mass.xml"))
        #expect(try person.preferredUnit(for: mass) == .pound())
        _ = try person.importExport(at: exportFixtures.appendingPathComponent("NicolasReyrolle_apple-health-analyzer/exports/record_heart_rate.xml"))
        #expect(try person.preferredUnitSettings().map { "\($0.type.identifier) \($0.unit.unitString) \($0.byPerson)" }
                == ["HKQuantityTypeIdentifierBodyMass lb true", "HKQuantityTypeIdentifierHeartRate count/min false"])
    }

    @Test func unsetTypesFollowTheUsualUnitsWhereThePersonLives() {
        let us = Locale(identifier: "en_US"), france = Locale(identifier: "fr_FR")
        func unit(_ identifier: HKQuantityTypeIdentifier, _ locale: Locale) -> String {
            PreferredUnitStore.defaultUnit(for: HKQuantityType(identifier), locale: locale).unitString
        }
        #expect(unit(.bodyMass, us) == "lb" && unit(.bodyMass, france) == "kg")
        #expect(unit(.distanceWalkingRunning, us) == "mi" && unit(.distanceWalkingRunning, france) == "km")
        #expect(unit(.bodyTemperature, us) == "degF" && unit(.bodyTemperature, france) == "degC")
        #expect(unit(.height, france) == "cm" && unit(.heartRate, france) == "count/min" && unit(.stepCount, us) == "count")
        #expect(unit(.activeEnergyBurned, us) == "kcal" && unit(.dietaryProtein, us) == "g")
    }
}
