import Foundation
import HealthModel
import HealthStore
@testable import OpenHealthKit
import Testing
import TestSupport

private let prescriptionType = HKObjectType.visionPrescriptionType()
private let issued = Date(timeIntervalSinceReferenceDate: 812_500_000)

private extension AppManifest {
    static let optician = AppManifest(bundleIdentifier: "com.example.optician", name: "Optician", version: "1.0",
                                      shareUsageDescription: "Shows your prescriptions.", updateUsageDescription: "Saves your prescriptions.")
}

private func glasses(issuedDaysLater days: Double = 0) -> HKGlassesPrescription {
    let right = HKGlassesLensSpecification(
        sphere: HKQuantity(unit: .diopter(), doubleValue: -1.25), cylinder: HKQuantity(unit: .diopter(), doubleValue: -0.5),
        axis: HKQuantity(unit: .degreeAngle(), doubleValue: 155), addPower: nil,
        vertexDistance: HKQuantity(unit: .meterUnit(with: .milli), doubleValue: 12),
        prism: HKVisionPrism(amount: HKQuantity(unit: .prismDiopter(), doubleValue: 0.5), angle: HKQuantity(unit: .degreeAngle(), doubleValue: 90), eye: .right),
        farPupillaryDistance: HKQuantity(unit: .meterUnit(with: .milli), doubleValue: 31.5), nearPupillaryDistance: nil)
    let left = HKGlassesLensSpecification(sphere: HKQuantity(unit: .diopter(), doubleValue: -1), cylinder: nil, axis: nil, addPower: nil,
                                          vertexDistance: nil, prism: nil, farPupillaryDistance: nil, nearPupillaryDistance: nil)
    let date = issued.addingTimeInterval(days * 86_400)
    return HKGlassesPrescription(rightEyeSpecification: right, leftEyeSpecification: left, dateIssued: date,
                                 expirationDate: date.addingTimeInterval(2 * 365 * 86_400), device: nil, metadata: ["clinic": "North"])
}

private func contacts() -> HKContactsPrescription {
    let lens = HKContactsLensSpecification(sphere: HKQuantity(unit: .diopter(), doubleValue: -2), cylinder: nil, axis: nil, addPower: nil,
                                           baseCurve: HKQuantity(unit: .meterUnit(with: .milli), doubleValue: 8.6),
                                           diameter: HKQuantity(unit: .meterUnit(with: .milli), doubleValue: 14.2))
    return HKContactsPrescription(rightEyeSpecification: lens, leftEyeSpecification: lens, brand: "Acuvue Oasys", dateIssued: issued,
                                  expirationDate: nil, device: nil, metadata: nil)
}

/// The optician's store, allowed to save prescriptions, holding `saved`.
private func optician(_ session: AppSession, saving saved: [HKVisionPrescription]) async throws -> HKHealthStore {
    let store = try await session.app(.optician, answering: .allowAll)
    try await store.requestAuthorization(toShare: [prescriptionType], read: [])
    try await store.save(saved)
    return store
}

/// Vision prescriptions on every backend, and per-object read authorization: an app reads the prescriptions it saved and
/// exactly those the person chose for it on the per-object sheet, through every query kind.
@Suite("Vision prescriptions and per-object authorization, on every backend")
struct VisionPrescriptionTests {
    @Test(arguments: Backend.allCases)
    func anAppReadsItsOwnPrescriptionsBackWithEveryLens(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let saved: [HKVisionPrescription] = [glasses(), contacts()]
            let store = try await optician(session, saving: saved)
            let read = try await HKSampleQueryDescriptor(predicates: [.visionPrescription()], sortDescriptors: []).result(for: store)
            #expect(Set(read.map(\.uuid)) == Set(saved.map(\.uuid)))
            let readGlasses = try #require(read.first { $0 is HKGlassesPrescription } as? HKGlassesPrescription)
            #expect(readGlasses.rightEye == saved[0].lenses.right && readGlasses.leftEye == saved[0].lenses.left)
            #expect(readGlasses.rightEye?.prism?.verticalBase == .up && readGlasses.rightEye?.vertexDistance == HKQuantity(unit: .meterUnit(with: .milli), doubleValue: 12))
            #expect(readGlasses.expirationDate == saved[0].expirationDate && readGlasses.metadata?["clinic"] as? String == "North")
            let readContacts = try #require(read.first { $0 is HKContactsPrescription } as? HKContactsPrescription)
            #expect(readContacts.brand == "Acuvue Oasys" && readContacts.expirationDate == nil && readContacts.endDate == .distantFuture)
            #expect(readContacts.rightEye?.baseCurve == HKQuantity(unit: .meterUnit(with: .milli), doubleValue: 8.6))
        }
    }

    @Test(arguments: Backend.allCases)
    func readingIsNeverRequestedWholeButObjectByObject(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.other, answering: .allowAll)
            let whole = await error { try await store.requestAuthorization(toShare: [], read: [prescriptionType]) }
            #expect(whole?.0 == .errorInvalidArgument && whole?.1.contains("requestPerObjectReadAuthorization") == true, "\(String(describing: whole))")
            let notPerObject = await error { try await store.requestPerObjectReadAuthorization(for: HKQuantityType(.stepCount), predicate: nil) }
            #expect(notPerObject?.0 == .errorInvalidArgument && notPerObject?.1.contains("does not require per-object") == true)
        }
    }

    @Test(arguments: Backend.allCases)
    func anotherAppSeesExactlyThePrescriptionsThePersonChose(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let first = glasses(), second = glasses(issuedDaysLater: 30)
            let opticianStore = try await optician(session, saving: [first, second])
            let reader = try await session.app(.other, answering: .allowAll)
            // Before any choice: nothing of the optician's, from any query kind.
            #expect(try await run(reader, type: prescriptionType).isEmpty)
            #expect(try await sources(reader, prescriptionType).isEmpty)

            // The person lets it read the first one: the sheet lists it (the predicate narrows to it), and it is allowed.
            try await reader.requestPerObjectReadAuthorization(for: prescriptionType, predicate: HKQuery.predicateForObjects(with: [first.uuid]))
            #expect(try await run(reader, type: prescriptionType).map(\.uuid) == [first.uuid])
            #expect(try await sources(reader, prescriptionType).map(\.bundleIdentifier) == [AppManifest.optician.bundleIdentifier])
            let anchored = try await HKAnchoredObjectQueryDescriptor(predicates: [.visionPrescription()], anchor: nil).result(for: reader)
            #expect(anchored.addedSamples.map(\.uuid) == [first.uuid])
            let byUUID = try await run(reader, type: prescriptionType, predicate: HKQuery.predicateForObjects(with: [second.uuid]))
            #expect(byUUID.isEmpty)

            // The optician deletes it: the reader's anchored query learns of the deletion, as of an object it could read.
            try await opticianStore.delete(first)
            let after = try await HKAnchoredObjectQueryDescriptor(predicates: [.visionPrescription()], anchor: anchored.newAnchor).result(for: reader)
            #expect(after.deletedObjects.map(\.uuid) == [first.uuid] && after.addedSamples.isEmpty)
        }
    }

    @Test(arguments: Backend.allCases)
    func theSheetListsEachObjectWithItsSwitchAndAnAnswerReplacesThem(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let theirs = glasses()
            _ = try await optician(session, saving: [theirs])
            let reader = try await session.app(.other, answering: .allowAll)
            try await reader.requestAuthorization(toShare: [prescriptionType], read: [])
            let own = contacts()
            try await reader.save(own)
            // Before any answer it reads what it saved, as in HealthKit.
            #expect(try await run(reader, type: prescriptionType).map(\.uuid) == [own.uuid])
            try await reader.requestPerObjectReadAuthorization(for: prescriptionType, predicate: nil)
            let sheet = try #require(session.presenter(for: AppManifest.other.bundleIdentifier)?.presentedObjectSheets.last)
            // Its own prescription is on the sheet too, switched on: the person may turn it off.
            #expect(sheet.objects.map(\.uuid) == [theirs.uuid, own.uuid] && sheet.objects.map(\.allowed) == [false, true])
            #expect(sheet.objects.first?.summary.hasPrefix("Glasses prescription, issued") == true, "\(sheet.objects.first?.summary ?? "")")
            #expect(Set(try await run(reader, type: prescriptionType).map(\.uuid)) == [theirs.uuid, own.uuid])

            // Asked again, both switches start on; the person now turns them off: it reads neither, its own included.
            let denying = try await session.app(.other, answering: .init(default: .allow, readObjects: .deny))
            try await denying.requestPerObjectReadAuthorization(for: prescriptionType, predicate: nil)
            let second = try #require(session.presenter(for: AppManifest.other.bundleIdentifier)?.presentedObjectSheets.last)
            #expect(second.objects.map(\.allowed) == [true, true])
            #expect(try await run(denying, type: prescriptionType).isEmpty)
        }
    }

    /// An app deletes a prescription it saved even after the person turned off its reading of it, on every backend alike.
    @Test(arguments: Backend.allCases)
    func anAppDeletesWhatItSavedEvenWhenItMayNoLongerReadIt(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let own = glasses()
            let store = try await optician(session, saving: [own])
            #expect(try session.person().withdrawObjectReadGrant(app: AppManifest.optician.bundleIdentifier, uuid: own.uuid))
            #expect(try await run(store, type: prescriptionType).isEmpty)
            try await store.delete(own)
            #expect(try session.person().objectReadGrants(app: AppManifest.optician.bundleIdentifier).isEmpty)
            let all = try session.person().sampleStore.samples(ofType: prescriptionType, visibleTo: AuthorizationService.personReader)
            #expect(all.isEmpty, "deleted")
        }
    }

    /// The person stops an app reading a prescription under Sources: one it was given, or one it saved.
    @Test func thePersonTurnsOffAnObjectUnderSourcesWhoeverSavedIt() async throws {
        try await AppSession.with(.embedded) { session in
            let theirs = glasses()
            _ = try await optician(session, saving: [theirs])
            let reader = try await session.app(.other, answering: .allowAll)
            try await reader.requestAuthorization(toShare: [prescriptionType], read: [])
            let own = contacts()
            try await reader.save(own)
            try await reader.requestPerObjectReadAuthorization(for: prescriptionType, predicate: nil)
            let person = try session.person()
            #expect(try person.objectReadGrants(app: AppManifest.other.bundleIdentifier).map(\.uuid) == [theirs.uuid, own.uuid])
            #expect(try person.withdrawObjectReadGrant(app: AppManifest.other.bundleIdentifier, uuid: own.uuid))
            #expect(try await run(reader, type: prescriptionType).map(\.uuid) == [theirs.uuid])
            #expect(try person.withdrawObjectReadGrant(app: AppManifest.other.bundleIdentifier, uuid: theirs.uuid))
            #expect(try await run(reader, type: prescriptionType).isEmpty)
            #expect(try person.withdrawObjectReadGrant(app: AppManifest.other.bundleIdentifier, uuid: theirs.uuid) == false, "already off")
        }
    }

    /// An observer hears only of the prescriptions the app may read: the optician's new one is silent until the person
    /// gives it, and a change to a given one is heard.
    @Test(.timeLimit(.minutes(3)), arguments: Backend.allCases)
    func anObserverHearsOnlyOfPrescriptionsTheAppMayRead(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let given = glasses()
            let opticianStore = try await optician(session, saving: [given])
            let reader = try await session.app(.other, answering: .allowAll)
            try await reader.requestPerObjectReadAuthorization(for: prescriptionType, predicate: HKQuery.predicateForObjects(with: [given.uuid]))
            let log = ObserverLog()
            let query = HKObserverQuery(sampleType: prescriptionType, predicate: nil, updateHandler: log.handler)
            reader.execute(query)
            var calls = log.stream.makeAsyncIterator()
            #expect(await calls.next() == 1, "fires once when it starts")
            log.complete()
            try await opticianStore.save(glasses(issuedDaysLater: 10))   // not given: silent
            try await Task.sleep(for: .milliseconds(500))
            #expect(log.calls == 1, "a prescription the app may not read is not heard of")
            try await opticianStore.delete(given)                          // given: heard
            #expect(await calls.next() == 2)
            reader.stop(query)
        }
    }

    @Test(arguments: Backend.allCases)
    func aClosedSheetChangesNothingAndIsCancelled(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let theirs = glasses()
            _ = try await optician(session, saving: [theirs])
            let reader = try await session.app(.other, answering: .init(default: .allow, dismiss: true))
            let closed = await error { try await reader.requestPerObjectReadAuthorization(for: prescriptionType, predicate: nil) }
            #expect(closed?.0 == .errorUserCanceled)
            #expect(try await run(reader, type: prescriptionType).isEmpty)
        }
    }

    @Test(arguments: Backend.allCases)
    func theSheetIsShownEvenWithNothingToChoose(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let reader = try await session.app(.other, answering: .allowAll)
            try await reader.requestPerObjectReadAuthorization(for: prescriptionType, predicate: nil)
            #expect(session.presenter(for: AppManifest.other.bundleIdentifier)?.presentedObjectSheets.map(\.objects.count) == [0])
        }
    }

    @Test func theCompletionHandlerFormReportsSuccess() async throws {
        try await AppSession.with(.embedded) { session in
            let reader = try await session.app(.other, answering: .allowAll)
            let (success, failure): (Bool, (any Error)?) = await withCheckedContinuation { continuation in
                reader.requestPerObjectReadAuthorization(for: prescriptionType, predicate: nil) { continuation.resume(returning: ($0, $1)) }
            }
            #expect(success && failure == nil)
        }
    }

    @Test func anAppCannotDeleteAPrescriptionItWasOnlyAllowedToRead() async throws {
        try await AppSession.with(.embedded) { session in
            let theirs = glasses()
            _ = try await optician(session, saving: [theirs])
            let reader = try await session.app(.other, answering: .allowAll)
            try await reader.requestAuthorization(toShare: [prescriptionType], read: [])
            // Hidden: as absent.
            let hidden = await error { try await reader.delete(theirs) }
            #expect(hidden?.0 == .errorInvalidArgument && hidden?.1.contains("is not in the store") == true, "\(String(describing: hidden))")
            try await reader.requestPerObjectReadAuthorization(for: prescriptionType, predicate: nil)
            // Readable now, still not its own.
            let readable = await error { try await reader.delete(theirs) }
            #expect(readable?.0 == .errorAuthorizationDenied, "\(String(describing: readable))")
        }
    }

    /// The person answers at the terminal: `health authorize --pending` lists each prescription and asks about it.
    @Test func healthAuthorizePendingAsksAboutEachPrescription() async throws {
        try await DaemonHarness.with { daemon in
            let opticianToken = try await daemon.connect("com.example.optician", name: "Optician", share: [prescriptionType])
            let body = #"{"samples":[{"uuid":"6F9619FF-8B86-D011-B42D-00C04FC964FF","type":"HKVisionPrescriptionTypeIdentifier","startDate":"2026-03-01T09:00:00Z","endDate":"4001-01-01T00:00:00Z","visionPrescription":{"prescriptionType":2,"brand":"Oasys","rightEye":{"sphere":-2,"baseCurve":8.6}}}]}"#
            let saved = try await daemon.raw(.POST, "/v1/objects", body: body, token: opticianToken)
            #expect(saved.status == 204, "\(saved.body)")
            let token = try await daemon.connect("com.example.frames", name: "Frames")
            let request = Task { try await daemon.raw(.POST, "/v1/authorization/object-requests", body: #"{"type":"HKVisionPrescriptionTypeIdentifier"}"#, token: token) }
            for _ in 0..<1_200 where try daemon.person().pendingObjectReadRequests().isEmpty { try await Task.sleep(for: .milliseconds(25)) }
            let shown = try await daemon.answerAtTheTerminal("y\n")
            #expect(shown == """
                Frames (com.example.frames) asks to read your vision prescriptions, one by one.
                  Why it reads: Shows your data.
                  Contacts prescription (Oasys), issued 2026-03-01 (from Optician)
                Allow Frames to read it? [y/n/q] It may read 1 of 1.

                """, "\(shown)")
            #expect(try await request.value.status == 204)
            let read = try await daemon.raw(.POST, "/v1/queries/samples", body: #"{"type":"HKVisionPrescriptionTypeIdentifier"}"#, token: token)
            #expect(read.status == 200 && read.body.contains("6F9619FF-8B86-D011-B42D-00C04FC964FF") && read.body.contains(#""brand":"Oasys""#), "\(read.body)")
        }
    }

    @Test func theDaemonRefusesAMalformedPrescriptionNamingTheField() async throws {
        let base = #"{"uuid":"6F9619FF-8B86-D011-B42D-00C04FC964FF","type":"HKVisionPrescriptionTypeIdentifier","startDate":"2026-11-24T10:00:00Z","endDate":"2027-11-24T10:00:00Z","visionPrescription":{"prescriptionType":1,"rightEye":{"sphere":-1.25,"prism":{"amount":0.5,"angle":90,"eye":2}}}}"#
        let cases: [(String, String)] = [
            (base.replacingOccurrences(of: #""prescriptionType":1"#, with: #""prescriptionType":3"#), "/samples/0/visionPrescription/prescriptionType"),
            (base.replacingOccurrences(of: #""eye":2"#, with: #""eye":7"#), "/samples/0/visionPrescription/rightEye/prism/eye"),
            (base.replacingOccurrences(of: #""eye":2"#, with: #""eye":1"#), "/samples/0/visionPrescription/rightEye"),
            (base.replacingOccurrences(of: #""endDate":"2027-11-24T10:00:00Z""#, with: #""endDate":"2025-11-24T10:00:00Z""#), "/samples/0/endDate"),
            (base.replacingOccurrences(of: #","rightEye":{"sphere":-1.25,"prism":{"amount":0.5,"angle":90,"eye":2}}"#, with: #","brand":"X","rightEye":{"sphere":-1.25}"#)
                .replacingOccurrences(of: #""prescriptionType":1"#, with: #""prescriptionType":1"#), "/samples/0/visionPrescription"),
        ]
        try await DaemonHarness.with { daemon in
            let token = try await daemon.connect("com.example.optician", share: [prescriptionType])
            for (sample, field) in cases {
                #expect(sample != base)
                let answer = try await daemon.raw(.POST, "/v1/objects", body: #"{"samples":[\#(sample)]}"#, token: token)
                #expect(answer.status == 400 && answer.json["field"] as? String == field, "\(field): \(answer.body)")
            }
            let good = try await daemon.raw(.POST, "/v1/objects", body: #"{"samples":[\#(base)]}"#, token: token)
            #expect(good.status == 204, "\(good.body)")
            let wrongType = try await daemon.raw(.POST, "/v1/authorization/object-requests", body: #"{"type":"HKQuantityTypeIdentifierStepCount"}"#, token: token)
            #expect(wrongType.status == 400 && (wrongType.json["detail"] as? String)?.contains("does not require per-object") == true, "\(wrongType.body)")
        }
    }
}

/// The error code and message of a call that should fail.
private func error(_ body: () async throws -> Void) async -> (HKError.Code, String)? {
    do {
        try await body()
        return nil
    } catch let error as HKError {
        return (error.code, error.message)
    } catch {
        return (.errorInvalidArgument, "\(error)")
    }
}
