import Foundation
import HealthAPI
@testable import HealthServer
import HealthStore
import OpenHealthKit
import Testing

private let prescriptionType = HKObjectType.visionPrescriptionType()

/// A glasses prescription as an app sends it.
private func prescription(_ uuid: UUID, issued: String) -> Components.Schemas.Sample {
    let formatter = ISO8601DateFormatter()
    let start = formatter.date(from: issued)!
    return .init(uuid: uuid.uuidString, _type: prescriptionType.identifier, startDate: start, endDate: start.addingTimeInterval(2 * 365 * 86_400),
                 visionPrescription: .init(prescriptionType: 1, rightEye: .init(sphere: -1.25, cylinder: -0.5, axis: 155),
                                           leftEye: .init(sphere: -1)))
}

/// Per-object sheets (vision prescriptions) answered in the web app: listed under Requests, each prescription with its
/// switch; the app's page under Sources lists what it may read and stops it.
@Suite("The web app: per-object sheets")
struct WebAppObjectSheetTests {
    @Test func thePersonChoosesWhichPrescriptionsAnAppReadsAndStopsOneLater() async throws {
        try await WebAppHarness.with { web in
            let optician = try await web.app(.init(cfBundleIdentifier: "com.example.optician", cfBundleName: "Optician",
                                                   nsHealthShareUsageDescription: "Shows prescriptions.", nsHealthUpdateUsageDescription: "Saves them."))
            try web.daemon.person().setPermission(app: "com.example.optician", type: prescriptionType, share: true, read: nil)
            let first = UUID(), second = UUID()
            _ = try await optician.saveObjects(body: .json(.init(samples: [prescription(first, issued: "2026-03-01T09:00:00Z"),
                                                                            prescription(second, issued: "2026-09-01T09:00:00Z")]))).noContent

            let reader = try await web.app(.init(cfBundleIdentifier: "com.example.frames", cfBundleName: "Frames <Shop>",
                                                 nsHealthShareUsageDescription: "Fits your frames.", nsHealthUpdateUsageDescription: "Nothing."))
            let call = Task {
                try await reader.requestObjectAuthorization(body: .json(.init(_type: prescriptionType.identifier, timeoutSeconds: 120)))
            }
            var waiting: [PendingObjectReads.Request] = []
            for _ in 0..<1_200 where waiting.isEmpty {   // up to 30 s
                waiting = try web.daemon.person().pendingObjectReadRequests()
                if waiting.isEmpty { try await Task.sleep(for: .milliseconds(25)) }
            }
            let request = try #require(waiting.first)
            let list = try await web.browser.get("/requests")
            #expect(list.body.contains("href=\"/objects/\(request.id)\">Frames &lt;Shop&gt;</a> asks which vision prescriptions it may read"))
            let sheet = try await web.browser.get("/objects/\(request.id)")
            #expect(sheet.status == 200 && sheet.body.contains("Glasses prescription, issued 2026-03-01, expires 2028-02-29 (from Optician)"), "\(sheet.body)")
            #expect(sheet.checked("object").isEmpty)

            let answered = try await web.browser.post("/objects/\(request.id)", [("action", "allow"), ("object", first.uuidString),
                                                                                 ("object", UUID().uuidString)])   // not on the sheet: ignored
            #expect(answered.status == 303 && answered.location == "/requests?done=answered", "\(answered.status) \(answered.message ?? "")")
            _ = try await call.value.noContent
            let read = try await reader.querySamples(body: .json(.init(_type: prescriptionType.identifier))).ok.body.json.samples
            #expect(read.map(\.uuid) == [first.uuidString] && read.first?.visionPrescription?.rightEye?.axis == 155)

            let page = try await web.browser.get("/sources/apps/com.example.frames")
            #expect(page.body.contains("Vision prescriptions it may read") && page.body.contains("issued 2026-03-01"))
            #expect(!page.body.contains("issued 2026-09-01"))
            let stopped = try await web.browser.post("/sources/apps/com.example.frames/objects/\(first.uuidString)")
            #expect(stopped.status == 303, "\(stopped.status) \(stopped.message ?? "")")
            let after = try await reader.querySamples(body: .json(.init(_type: prescriptionType.identifier))).ok.body.json.samples
            #expect(after.isEmpty)
        }
    }

    @Test func cancellingTheSheetFailsTheAppsCallAndAnUnknownSheetIsA404() async throws {
        try await WebAppHarness.with { web in
            let reader = try await web.app(.init(cfBundleIdentifier: "com.example.frames", cfBundleName: "Frames",
                                                 nsHealthShareUsageDescription: "Fits your frames.", nsHealthUpdateUsageDescription: "Nothing."))
            let call = Task {
                try await reader.requestObjectAuthorization(body: .json(.init(_type: prescriptionType.identifier, timeoutSeconds: 120)))
            }
            var waiting: [PendingObjectReads.Request] = []
            for _ in 0..<1_200 where waiting.isEmpty {
                waiting = try web.daemon.person().pendingObjectReadRequests()
                if waiting.isEmpty { try await Task.sleep(for: .milliseconds(25)) }
            }
            let request = try #require(waiting.first)
            let sheet = try await web.browser.get("/objects/\(request.id)")
            #expect(sheet.body.contains("You have none."))
            _ = try await web.browser.post("/objects/\(request.id)", [("action", "cancel")])
            guard case .conflict = try await call.value else {
                Issue.record("a closed sheet did not fail the call")
                return
            }
            let gone = try await web.browser.get("/objects/0123456789abcdef01234567")
            #expect(gone.status == 404)
        }
    }

    /// Medications through the daemon and the web app: the person picks which to share under Requests, the app reads them
    /// and their dose events over the wire, and Sources stops one (its doses go with it).
    @Test func thePersonSharesOneMedicationAndItsDosesThenStopsIt() async throws {
        try await WebAppHarness.with { web in
            let person = try web.daemon.person()
            let aspirin = try person.addMedication(named: "Aspirin 81 MG", form: .tablet,
                                                   codings: [HKClinicalCoding(system: HKClinicalCoding.rxNormSystem, version: nil, code: "243670")])
            let insulin = try person.addMedication(named: "Insulin glargine", form: .injection, nickname: "Night shot", hasSchedule: true)
            let logged = Date(timeIntervalSinceReferenceDate: 812_534_400)
            try person.logDose(of: aspirin.medication.identifier, status: .taken, at: logged, dose: 1, unit: .count())
            try person.logDose(of: insulin.medication.identifier, status: .taken, at: logged, dose: 10, unit: .internationalUnit(),
                               scheduledDate: logged, scheduledDose: 10)

            let reader = try await web.app(.init(cfBundleIdentifier: "com.example.meds", cfBundleName: "Meds",
                                                 nsHealthShareUsageDescription: "Tracks your medications.", nsHealthUpdateUsageDescription: "Nothing."))
            let medicationType = HKObjectType.userAnnotatedMedicationType().identifier
            let call = Task { try await reader.requestObjectAuthorization(body: .json(.init(_type: medicationType, timeoutSeconds: 120))) }
            var waiting: [PendingObjectReads.Request] = []
            for _ in 0..<1_200 where waiting.isEmpty {   // up to 30 s
                waiting = try web.daemon.person().pendingObjectReadRequests()
                if waiting.isEmpty { try await Task.sleep(for: .milliseconds(25)) }
            }
            let request = try #require(waiting.first)
            #expect(try await web.browser.get("/requests").body.contains("asks which medications it may read"))
            let sheet = try await web.browser.get("/objects/\(request.id)")
            #expect(sheet.body.contains("Aspirin 81 MG, tablet") && sheet.body.contains("Insulin glargine (“Night shot”), injection"), "\(sheet.body)")
            let insulinOnSheet = try #require(request.sheet.objects.first { $0.medication == insulin })
            let answered = try await web.browser.post("/objects/\(request.id)", [("action", "allow"), ("object", insulinOnSheet.uuid.uuidString)])
            #expect(answered.status == 303, "\(answered.status) \(answered.message ?? "")")
            _ = try await call.value.noContent

            let shared = try await reader.queryMedications(body: .json(.init())).ok.body.json.medications
            #expect(shared.map(\.medication.displayText) == ["Insulin glargine"] && shared.first?.nickname == "Night shot")
            let doses = try await reader.querySamples(body: .json(.init(_type: HKMedicationDoseEventTypeIdentifierMedicationDoseEvent))).ok.body.json.samples
            #expect(doses.count == 1 && doses.first?.medicationDoseEvent?.unit == "IU" && doses.first?.medicationDoseEvent?.scheduleType == 2)

            let page = try await web.browser.get("/sources/apps/com.example.meds")
            #expect(page.body.contains("Medications it may read") && page.body.contains("Insulin glargine") && !page.body.contains("Aspirin"))
            let stopped = try await web.browser.post("/sources/apps/com.example.meds/objects/\(insulinOnSheet.uuid.uuidString)")
            #expect(stopped.status == 303, "\(stopped.status) \(stopped.message ?? "")")
            #expect(try await reader.queryMedications(body: .json(.init())).ok.body.json.medications.isEmpty)
            #expect(try await reader.querySamples(body: .json(.init(_type: HKMedicationDoseEventTypeIdentifierMedicationDoseEvent))).ok.body.json.samples.isEmpty)
        }
    }
}
