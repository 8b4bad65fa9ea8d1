import Foundation
import Synchronization
import HealthModel
import HealthStore
@testable import OpenHealthKit
import Testing
import TestSupport

private let medicationType = HKObjectType.userAnnotatedMedicationType()
private let doseType = HKObjectType.medicationDoseEventType()
private let morning = Date(timeIntervalSinceReferenceDate: 812_534_400)  // 2026-10-01 08:00 UTC
private let rxNorm = HKClinicalCoding.rxNormSystem

private extension AppManifest {
    static let tracker = AppManifest(bundleIdentifier: "com.example.medtracker", name: "Med Tracker", version: "1.0",
                                     shareUsageDescription: "Shows how you keep to your medications.", updateUsageDescription: nil)
}

/// The person's medications: ibuprofen (as needed) and metformin (scheduled), with doses logged for both.
private func trackTwo(_ person: HealthPerson) throws -> (ibuprofen: HKUserAnnotatedMedication, metformin: HKUserAnnotatedMedication) {
    let ibuprofen = try person.addMedication(named: "Ibuprofen 200 MG Oral Tablet", form: .tablet,
                                             codings: [HKClinicalCoding(system: rxNorm, version: nil, code: "310965")], nickname: "Headache pills")
    let metformin = try person.addMedication(named: "Metformin 500 MG", form: .tablet,
                                             codings: [HKClinicalCoding(system: rxNorm, version: "2025-01", code: "861007")], hasSchedule: true)
    try person.logDose(of: ibuprofen.medication.identifier, status: .taken, at: morning, dose: 2, unit: .count())
    try person.logDose(of: metformin.medication.identifier, status: .taken, at: morning.addingTimeInterval(600), dose: 1, unit: .count(),
                       scheduledDate: morning, scheduledDose: 1)
    try person.logDose(of: metformin.medication.identifier, status: .skipped, at: morning.addingTimeInterval(86_400), dose: nil,
                       unit: .count(), scheduledDate: morning.addingTimeInterval(86_400), scheduledDose: 1)
    return (ibuprofen, metformin)
}

/// Medications (iOS 26): the person tracks them and logs doses; an app reads exactly the medications the person shares
/// with it object by object, and the dose events of those, through every query kind; it never writes either.
@Suite("Medications and their dose events, on every backend")
struct MedicationTests {
    @Test(arguments: Backend.allCases)
    func anAppSeesNoMedicationOrDoseUntilThePersonSharesOne(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let (ibuprofen, metformin) = try trackTwo(try session.person())
            let app = try await session.app(.tracker, answering: .allowAll)
            #expect(try await HKUserAnnotatedMedicationQueryDescriptor().result(for: app).isEmpty)
            #expect(try await run(app, type: doseType).isEmpty)

            // The person shares metformin only (the predicate narrows the sheet to the scheduled ones).
            try await app.requestPerObjectReadAuthorization(for: medicationType, predicate: HKQuery.predicateForUserAnnotatedMedications(hasSchedule: true))
            let sheet = try #require(session.presenter(for: AppManifest.tracker.bundleIdentifier)?.presentedObjectSheets.last)
            #expect(sheet.objects.map(\.medication) == [metformin] && sheet.objects.map(\.allowed) == [false])
            #expect(sheet.objects.first?.summary == "Metformin 500 MG, tablet")

            let shared = try await HKUserAnnotatedMedicationQueryDescriptor().result(for: app)
            #expect(shared == [metformin] && shared.first?.medication.relatedCodings.first?.version == "2025-01")
            let doses = try await run(app, type: doseType, sort: [NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: true)])
                .compactMap { $0 as? HKMedicationDoseEvent }
            #expect(doses.map(\.logStatus) == [.taken, .skipped])
            #expect(doses.allSatisfy { $0.medicationConceptIdentifier == metformin.medication.identifier && $0.scheduleType == .schedule })
            #expect(doses.first?.scheduledDate == morning && doses.first?.scheduledDoseQuantity == 1 && doses.first?.doseQuantity == 1)
            #expect(doses.last?.doseQuantity == nil && doses.first?.unit == .count())
            #expect(doses.first?.sourceRevision.source.bundleIdentifier == HealthPerson.healthAppSource.bundleIdentifier)
            // Ibuprofen's dose is invisible by every road, a UUID lookup included.
            let byMedication = try await run(app, type: doseType, predicate: HKQuery.predicateForMedicationDoseEvent(
                medicationConceptIdentifier: ibuprofen.medication.identifier))
            #expect(byMedication.isEmpty)
        }
    }

    @Test(arguments: Backend.allCases)
    func theDosePredicatesSelectByStatusScheduleAndMedication(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let (ibuprofen, metformin) = try trackTwo(try session.person())
            let app = try await session.app(.tracker, answering: .allowAll)
            try await app.requestPerObjectReadAuthorization(for: medicationType, predicate: nil)
            func count(_ predicate: NSPredicate) async throws -> Int { try await run(app, type: doseType, predicate: predicate).count }
            #expect(try await count(HKQuery.predicateForMedicationDoseEvent(status: .taken)) == 2)
            #expect(try await count(HKQuery.predicateForMedicationDoseEvent(statuses: [NSNumber(value: 5), NSNumber(value: 3)])) == 1)
            #expect(try await count(HKQuery.predicateForMedicationDoseEvent(scheduledDate: morning)) == 1)
            #expect(try await count(HKQuery.predicateForMedicationDoseEvent(scheduledDates: [morning, morning.addingTimeInterval(86_400)])) == 2)
            #expect(try await count(HKQuery.predicateForMedicationDoseEvent(scheduledStart: morning.addingTimeInterval(1), end: nil)) == 1)
            #expect(try await count(HKQuery.predicateForMedicationDoseEvent(scheduledStart: nil, end: nil)) == 2, "as-needed doses have no schedule")
            #expect(try await count(HKQuery.predicateForMedicationDoseEvent(medicationConceptIdentifiers: [
                ibuprofen.medication.identifier, metformin.medication.identifier])) == 3)
            let compound = NSCompoundPredicate(andPredicateWithSubpredicates: [
                HKQuery.predicateForMedicationDoseEvent(medicationConceptIdentifier: metformin.medication.identifier),
                HKQuery.predicateForMedicationDoseEvent(status: .taken)])
            #expect(try await count(compound) == 1)
            // The predicates agree in memory.
            let all = try await run(app, type: doseType)
            #expect(all.filter { HKQuery.predicateForMedicationDoseEvent(status: .taken).evaluate(with: $0) }.count == 2)

            await #expect(throws: HKError(.errorInvalidArgument)) {
                try await run(app, type: doseType, predicate: HKQuery.predicateForMedicationDoseEvent(statuses: [NSNumber(value: 9)]))
            }
            await #expect(throws: HKError(.errorInvalidArgument)) {
                try await run(app, type: doseType, predicate: HKQuery.predicateForUserAnnotatedMedications(isArchived: false))
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func theMedicationQueryFiltersByArchivedAndScheduleAndHonoursItsLimit(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let person = try session.person()
            let (ibuprofen, metformin) = try trackTwo(person)
            let app = try await session.app(.tracker, answering: .allowAll)
            try await app.requestPerObjectReadAuthorization(for: medicationType, predicate: nil)
            try person.updateMedication(ibuprofen.medication.identifier, isArchived: true)
            let active = try await HKUserAnnotatedMedicationQueryDescriptor(predicate: HKQuery.predicateForUserAnnotatedMedications(isArchived: false))
                .result(for: app)
            #expect(active.map(\.medication.identifier) == [metformin.medication.identifier])
            let archived = try await HKUserAnnotatedMedicationQueryDescriptor(predicate: HKQuery.predicateForUserAnnotatedMedications(isArchived: true))
                .result(for: app)
            #expect(archived.first?.isArchived == true && archived.first?.nickname == "Headache pills")
            #expect(try await HKUserAnnotatedMedicationQueryDescriptor(limit: 1).result(for: app).count == 1)

            // The completion form: one call per medication, then done.
            let calls = Mutex<[String]>([])
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                app.execute(HKUserAnnotatedMedicationQuery(predicate: nil, limit: HKObjectQueryNoLimit) { _, medication, finished, error in
                    calls.withLock { $0.append(medication.map { $0.medication.displayText } ?? (error == nil && finished ? "done" : "error")) }
                    if finished { done.resume() }
                })
            }
            #expect(calls.withLock { $0 } == ["Ibuprofen 200 MG Oral Tablet", "Metformin 500 MG", "done"])
            await #expect(throws: HKError(.errorInvalidArgument)) {
                try await HKUserAnnotatedMedicationQueryDescriptor(predicate: HKQuery.predicateForMedicationDoseEvent(status: .taken)).result(for: app)
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func anAppCannotWriteDoseEventsNorAskForThemAsAType(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let (_, metformin) = try trackTwo(try session.person())
            let app = try await session.app(.tracker, answering: .allowAll)
            // With both usage descriptions, so each refusal is the type's own.
            let writer = try await session.app(.other, answering: .allowAll)
            for (share, read, words) in [([doseType], [], "read-only"), ([], [doseType], "read with the medications they belong to"),
                                         ([], [medicationType], "authorized object by object")] as [(Set<HKSampleType>, Set<HKObjectType>, String)] {
                do {
                    try await writer.requestAuthorization(toShare: share, read: read)
                    Issue.record("requesting \(share) \(read) was not refused")
                } catch let error as HKError {
                    #expect(error.code == .errorInvalidArgument && error.message.contains(words), "\(error.message)")
                }
            }
            let forged = try HKMedicationDoseEvent.validated(scheduleType: .asNeeded, medication: metformin.medication.identifier, scheduledDate: nil,
                                                             scheduledDoseQuantity: nil, doseQuantity: 1, logStatus: .taken, unit: .count(),
                                                             start: morning, end: morning)
            await #expect(throws: HKError(.errorAuthorizationDenied)) { try await app.save(forged) }
        }
    }

    @Test(arguments: Backend.allCases)
    func turningAMedicationOffHidesItsDosesAndRemovingItTellsTheAnchoredQuery(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let person = try session.person()
            let (ibuprofen, metformin) = try trackTwo(person)
            let app = try await session.app(.tracker, answering: .allowAll)
            try await app.requestPerObjectReadAuthorization(for: medicationType, predicate: nil)
            let first = try await HKAnchoredObjectQueryDescriptor(predicates: [.sample(type: doseType)], anchor: nil).result(for: app)
            #expect(first.addedSamples.count == 3)

            // Removing ibuprofen deletes its dose: the app, which could read it, hears of the deletion.
            #expect(try person.removeMedication(ibuprofen.medication.identifier) == 1)
            let after = try await HKAnchoredObjectQueryDescriptor(predicates: [.sample(type: doseType)], anchor: first.newAnchor).result(for: app)
            #expect(after.deletedObjects.count == 1 && after.addedSamples.isEmpty)
            #expect(try await HKUserAnnotatedMedicationQueryDescriptor().result(for: app).map(\.medication.identifier) == [metformin.medication.identifier])

            // Asked again, the person turns metformin off: no medication, no dose.
            let denying = try await session.app(.tracker, answering: .init(default: .allow, readObjects: .deny))
            try await denying.requestPerObjectReadAuthorization(for: medicationType, predicate: nil)
            #expect(try await HKUserAnnotatedMedicationQueryDescriptor().result(for: denying).isEmpty)
            #expect(try await run(denying, type: doseType).isEmpty)
        }
    }

    @Test func thePersonsEntriesAreChecked() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-meds-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let person = try HealthPerson(storeDirectory: folder)
        #expect(throws: HKError(.errorInvalidArgument)) { try person.addMedication(named: "  ", form: .tablet) }
        #expect(throws: HKError(.errorInvalidArgument)) {
            try person.addMedication(named: "X", form: .tablet, codings: [HKClinicalCoding(system: "", version: nil, code: "1")])
        }
        let aspirin = try person.addMedication(named: "Aspirin", form: .tablet, codings: [HKClinicalCoding(system: rxNorm, version: nil, code: "1191")])
        #expect(aspirin.medication.identifier.underlyingIdentifier == "1191" && aspirin.medication.identifier.domain == .medication)
        #expect(throws: HKError(.errorInvalidArgument)) { try person.addMedication(named: "Aspirin again", form: .tablet,
                                                                                    codings: [HKClinicalCoding(system: rxNorm, version: nil, code: "1191")]) }
        let id = aspirin.medication.identifier
        #expect(throws: HKError(.errorInvalidArgument)) { try person.logDose(of: id, status: .taken, at: morning, dose: -1, unit: .count()) }
        #expect(throws: HKError(.errorInvalidArgument)) {
            try person.logDose(of: id, status: .taken, at: morning, dose: 1, unit: .count(), scheduledDate: morning, scheduledDose: nil)
        }
        #expect(throws: HKError(.errorInvalidArgument)) {
            try person.logDose(of: .medication("not-tracked"), status: .taken, at: morning, dose: 1, unit: .count())
        }
        #expect(try person.sampleStore.samples(ofType: doseType, visibleTo: AuthorizationService.personReader).isEmpty, "nothing half-written")
    }

    @Test func theModelObjectsSurviveASecureArchive() throws {
        let concept = HKMedicationConcept(identifier: .medication("861007"), displayText: "Metformin", generalForm: .tablet,
                                          relatedCodings: [HKClinicalCoding(system: rxNorm, version: "1", code: "861007")])
        let medication = HKUserAnnotatedMedication(nickname: "Morning", isArchived: false, hasSchedule: true, medication: concept)
        let data = try NSKeyedArchiver.archivedData(withRootObject: medication, requiringSecureCoding: true)
        let back = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: HKUserAnnotatedMedication.self, from: data))
        #expect(back == medication)
        let dose = try HKMedicationDoseEvent.validated(scheduleType: .schedule, medication: concept.identifier, scheduledDate: morning,
                                                       scheduledDoseQuantity: 1, doseQuantity: 1, logStatus: .taken, unit: .count(),
                                                       start: morning, end: morning)
        let doseData = try NSKeyedArchiver.archivedData(withRootObject: dose, requiringSecureCoding: true)
        let doseBack = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: HKMedicationDoseEvent.self, from: doseData))
        #expect(doseBack.scheduledDate == morning && doseBack.logStatus == .taken && doseBack.medicationConceptIdentifier == concept.identifier)
        #expect(doseBack.medicationDoseEventType == doseType)
    }
}
