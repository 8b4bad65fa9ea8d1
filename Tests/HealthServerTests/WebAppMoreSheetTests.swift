import Foundation
import HealthAPI
@testable import HealthServer
import OpenHealthKit
import Testing

private let steps = HKQuantityType(.stepCount)
private let heartRate = HKQuantityType(.heartRate)
private let conditions = HKClinicalType(.conditionRecord)
private let labs = HKClinicalType(.labResultRecord)

/// An app that writes and reads data and asks to read health records: its manifest says why for each.
private let recordsApp = Components.Schemas.AppManifest(
    cfBundleIdentifier: "com.example.records", cfBundleName: "Records & Steps", nsHealthShareUsageDescription: "Shows your steps.",
    nsHealthUpdateUsageDescription: "Logs your walks.", nsHealthClinicalHealthRecordsShareUsageDescription: "Explains your <b>conditions</b>.")

private extension WebClient.Page {
    /// The hidden fields of the page's forms but the CSRF token: what a form carries besides its switches.
    var sheetCarriedFields: [(String, String)] {
        inputs.filter { $0["type"] == "hidden" && $0["name"] != "csrf" }.map { ($0["name"] ?? "", $0["value"] ?? "") }
    }

    /// The values of the submit buttons called `action`.
    var sheetActions: [String] { Self.tags("button", in: body).filter { $0["name"] == "action" }.compactMap { $0["value"] } }
}

/// The authorization sheet of an app asking for data and for health records: two sheets, the records' after the
/// data's, the choices of the first carried to the Allow of the second.
@Suite("The web app: the two-step authorization sheet")
struct WebAppMoreSheetTests {
    @Test func dataThenRecordsAllowAnswersBothSheetsChoices() async throws {
        try await WebAppHarness.with { web in
            let client = try await web.app(recordsApp)
            let (call, id) = try await web.requestAuthorization(client, share: [steps], read: [steps, heartRate, conditions, labs])
            let data = try await web.browser.get("/requests/\(id)")
            #expect(data.status == 200, "\(data.status)")
            #expect(data.hidden("stage") == "data")
            #expect(data.checkboxes("share").map(\.value) == [steps.identifier])
            #expect(Set(data.checkboxes("read").map(\.value)) == [steps.identifier, heartRate.identifier], "no health records on the data's sheet")
            #expect(data.body.contains("<button type=\"submit\" name=\"action\" value=\"next\">Next: health records</button>"), "\(data.body)")
            #expect(data.sheetActions == ["all", "next", "deny"], "no Allow before the records' sheet: \(data.sheetActions)")
            #expect(data.body.contains("<p class=\"usage\">Logs your walks.</p>") && data.body.contains("<p class=\"usage\">Shows your steps.</p>"))
            #expect(!data.body.contains("Health records</legend>"))

            // Next, with writing steps and reading heart rate on (reading steps off).
            let records = try await web.browser.post("/requests/\(id)", data.sheetCarriedFields + [("share", steps.identifier), ("read", heartRate.identifier),
                                                                                        ("action", "next")])
            #expect(records.status == 200, "\(records.status) \(records.message ?? "")")
            #expect(records.hidden("stage") == "records")
            let carried = records.sheetCarriedFields.filter { $0.0 != "stage" }.map { "\($0.0)=\($0.1)" }.sorted()
            #expect(carried == ["read=\(heartRate.identifier)", "share=\(steps.identifier)"], "the data's choices ride along: \(carried)")
            #expect(records.checkboxes("share").isEmpty, "no data switches here")
            #expect(Set(records.checkboxes("read").map(\.value)) == [conditions.identifier, labs.identifier] && records.checked("read").isEmpty)
            #expect(records.body.contains("<fieldset class=\"records\"><legend>Health records</legend>"))
            #expect(records.body.contains("<p class=\"usage\">Explains your &lt;b&gt;conditions&lt;/b&gt;.</p>"), "the clinical usage description, escaped")
            #expect(records.sheetActions == ["all", "allow", "deny"], "\(records.sheetActions)")
            #expect(try web.daemon.person().pendingAuthorizationRequests().map(\.id) == [id], "Next answers nothing")

            // Allow with conditions on (lab results off).
            let allowed = try await web.browser.post("/requests/\(id)", records.sheetCarriedFields + [("read", conditions.identifier), ("action", "allow")])
            #expect(allowed.status == 303 && allowed.location == "/requests?done=answered", "\(allowed.status) \(allowed.message ?? "")")
            _ = try await call.value.noContent
            #expect(try web.permission("com.example.records", steps) == (share: true, read: false))
            #expect(try web.permission("com.example.records", heartRate).read == true)
            #expect(try web.permission("com.example.records", conditions).read == true)
            #expect(try web.permission("com.example.records", labs).read == false)
            let access = try #require(try web.daemon.person().apps().first { $0.app.bundleIdentifier == "com.example.records" })
            #expect(Set(access.types.filter { $0.read == true }.map(\.typeIdentifier)) == [heartRate.identifier, conditions.identifier])
            #expect(Set(access.types.filter { $0.share == true }.map(\.typeIdentifier)) == [steps.identifier])
            #expect(try await WebAppHarness.statuses(client, [steps]) == [.sharingAuthorized])
            #expect(try web.daemon.person().pendingAuthorizationRequests().isEmpty)
        }
    }

    @Test func turnOnAllOnTheRecordsSheetTurnsOnTheRecordsAndKeepsTheDataChoices() async throws {
        try await WebAppHarness.with { web in
            let client = try await web.app(recordsApp)
            let (call, id) = try await web.requestAuthorization(client, share: [steps], read: [steps, conditions])
            let data = try await web.browser.get("/requests/\(id)")
            let records = try await web.browser.post("/requests/\(id)", data.sheetCarriedFields + [("read", steps.identifier), ("action", "next")])
            let all = try await web.browser.post("/requests/\(id)", records.sheetCarriedFields + [("action", "all")])
            #expect(all.status == 200 && all.hidden("stage") == "records", "\(all.status)")
            #expect(all.checked("read") == [conditions.identifier], "\(all.checked("read"))")
            #expect(all.sheetCarriedFields.filter { $0.0 != "stage" }.map { "\($0.0)=\($0.1)" } == ["read=\(steps.identifier)"], "writing steps stays off")
            #expect(try web.daemon.person().pendingAuthorizationRequests().map(\.id) == [id])
            let allowed = try await web.browser.post("/requests/\(id)", all.sheetCarriedFields + [("read", conditions.identifier), ("action", "allow")])
            #expect(allowed.status == 303, "\(allowed.status)")
            _ = try await call.value.noContent
            #expect(try web.permission("com.example.records", steps) == (share: false, read: true))
            #expect(try web.permission("com.example.records", conditions).read == true)
        }
    }

    @Test func dontAllowOnTheRecordsSheetDeniesBothSheetsTypes() async throws {
        try await WebAppHarness.with { web in
            let client = try await web.app(recordsApp)
            let (call, id) = try await web.requestAuthorization(client, share: [steps], read: [conditions])
            let data = try await web.browser.get("/requests/\(id)")
            let records = try await web.browser.post("/requests/\(id)", data.sheetCarriedFields + [("share", steps.identifier), ("action", "next")])
            #expect(records.sheetCarriedFields.contains { $0 == ("share", steps.identifier) })
            let denied = try await web.browser.post("/requests/\(id)", records.sheetCarriedFields + [("read", conditions.identifier), ("action", "deny")])
            #expect(denied.status == 303, "\(denied.status)")
            _ = try await call.value.noContent
            #expect(try web.permission("com.example.records", steps).share == false)
            #expect(try web.permission("com.example.records", conditions).read == false)
            #expect(try await WebAppHarness.statuses(client, [steps]) == [.sharingDenied])
        }
    }

    @Test func anAppAskingOnlyForRecordsGetsTheRecordsSheetAtOnce() async throws {
        try await WebAppHarness.with { web in
            let client = try await web.app(recordsApp)
            let (call, id) = try await web.requestAuthorization(client, share: [], read: [conditions])
            let sheet = try await web.browser.get("/requests/\(id)")
            #expect(sheet.hidden("stage") == "records" && sheet.sheetActions == ["all", "allow", "deny"], "\(sheet.sheetActions)")
            #expect(sheet.checkboxes("read").map(\.value) == [conditions.identifier])
            let allowed = try await web.browser.post("/requests/\(id)", sheet.sheetCarriedFields + [("read", conditions.identifier), ("action", "allow")])
            #expect(allowed.status == 303)
            _ = try await call.value.noContent
            #expect(try web.permission("com.example.records", conditions).read == true)
        }
    }
}
