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

@Suite("Saving and deleting")
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

    @Test func savingTheSameObjectTwiceIsAnError() async throws {
        let (store, _) = try await authorizedStepsStore()
        let sample = stepSample(3)
        try await store.save(sample)
        await #expect(throws: HKError(.errorInvalidArgument)) { try await store.save(sample) }
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

    @Test func deletionLeavesATombstoneWithSyncMetadata() async throws {
        let (store, _) = try await authorizedStepsStore()
        let sample = stepSample(10, metadata: [HKMetadataKeySyncIdentifier: "walk-1", HKMetadataKeySyncVersion: 2, "note": "x"])
        try await store.save(sample)
        try await store.delete(sample)
        let deleted = try store.sampleStore().deletedObjects(ofType: steps, visibleTo: AppManifest.stepsApp.bundleIdentifier)
        #expect(deleted.map(\.uuid) == [sample.uuid])
        #expect(deleted[0].metadata?[HKMetadataKeySyncIdentifier] as? String == "walk-1")
        #expect(deleted[0].metadata?[HKMetadataKeySyncVersion] as? Int == 2)
        #expect(deleted[0].metadata?["note"] == nil)
    }

    @Test func aDeniedReaderSeesOnlyItsOwnSamplesAsIfNobodyElseHadData() async throws {
        let (store, folder) = try await authorizedStepsStore()
        try await store.save(stepSample(100))
        var reader = AppManifest.stepsApp
        reader.bundleIdentifier = "com.example.reader"
        let (readerStore, _, _) = makeStore(app: reader, .init(default: .allow, read: [steps.identifier: .deny]), in: folder)
        try await readerStore.requestAuthorization(toShare: [steps], read: [steps])
        let readerSamples = { try readerStore.sampleStore().samples(ofType: steps, visibleTo: reader.bundleIdentifier) }
        #expect(try readerSamples().isEmpty)
        let own = stepSample(7)
        try await readerStore.save(own)
        #expect(try readerSamples().map(\.uuid) == [own.uuid])
        // Other sources' deletions are invisible too.
        let theirs = try store.sampleStore().samples(ofType: steps, visibleTo: AppManifest.stepsApp.bundleIdentifier)
            .first { $0.sourceRevision.source.bundleIdentifier == "com.example.steps" }!
        try await store.delete(theirs)
        #expect(try readerStore.sampleStore().deletedObjects(ofType: steps, visibleTo: reader.bundleIdentifier).isEmpty)
        // Once allowed, everything shows.
        try readerStore.service().setPermission(app: reader.bundleIdentifier, type: steps.identifier, share: nil, read: true)
        #expect(try readerStore.sampleStore().deletedObjects(ofType: steps, visibleTo: reader.bundleIdentifier).count == 1)
    }

    @Test func guestModeRefusesSavesAndDeletesButReadsWork() async throws {
        let (store, _) = try await authorizedStepsStore()
        let sample = stepSample(10)
        try await store.save(sample)
        try store.service().setGuestMode(true)
        await #expect(throws: HKError(.errorNotPermissibleForGuestUserMode)) { try await store.save(stepSample(1)) }
        await #expect(throws: HKError(.errorNotPermissibleForGuestUserMode)) { try await store.delete(sample) }
        #expect(try store.sampleStore().samples(ofType: steps, visibleTo: AppManifest.stepsApp.bundleIdentifier).count == 1)
        #expect(store.authorizationStatus(for: steps) == .sharingAuthorized)
    }

    @Test func correlationsSaveWithTheirMembersAndNeedTheMembersShareTypes() async throws {
        let (store, _, _) = makeStore(.allowAll)
        let systolic = HKQuantitySample(type: HKQuantityType(.bloodPressureSystolic),
                                        quantity: HKQuantity(unit: .millimeterOfMercury(), doubleValue: 120), start: now, end: now)
        let diastolic = HKQuantitySample(type: HKQuantityType(.bloodPressureDiastolic),
                                         quantity: HKQuantity(unit: .millimeterOfMercury(), doubleValue: 80), start: now, end: now)
        let reading = HKCorrelation(type: HKCorrelationType(.bloodPressure), start: now, end: now, objects: [systolic, diastolic])
        await #expect(throws: HKError(.errorAuthorizationNotDetermined)) { try await store.save(reading) }
        try await store.requestAuthorization(toShare: [systolic.sampleType, diastolic.sampleType], read: [HKCorrelationType(.bloodPressure)])
        try await store.save(reading)
        let saved = try #require(try store.sampleStore().samples(ofType: HKCorrelationType(.bloodPressure), visibleTo: AppManifest.stepsApp.bundleIdentifier).first as? HKCorrelation)
        #expect(saved.uuid == reading.uuid)
        #expect(Set(saved.objects.map(\.uuid)) == [systolic.uuid, diastolic.uuid])
    }

    @Test func completionFormsReportFailure() async throws {
        let (store, _, _) = makeStore(.allowAll)
        let result: (Bool, HKError.Code?) = await withCheckedContinuation { continuation in
            store.save(stepSample(1)) { ok, error in continuation.resume(returning: (ok, (error as? HKError)?.code)) }
        }
        #expect(result.0 == false && result.1 == .errorAuthorizationNotDetermined)
    }

    @Test func manyTasksSaveConcurrentlyIntoOneStore() async throws {
        let (store, _) = try await authorizedStepsStore()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<20 {
                group.addTask { try await store.save((0..<50).map { stepSample(Double(i * 50 + $0)) }) }
            }
            try await group.waitForAll()
        }
        #expect(try store.sampleStore().samples(ofType: steps, visibleTo: AppManifest.stepsApp.bundleIdentifier).count == 1000)
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
