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
}
