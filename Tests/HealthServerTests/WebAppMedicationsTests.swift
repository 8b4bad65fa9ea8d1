import Foundation
@testable import HealthServer
import OpenHealthKit
import Testing

/// The web Health app's Medications page: the person adds a medication, logs doses, archives and removes it; bad input is
/// answered with the page and a message, an unknown medication is a 404, a form without its CSRF token is refused.
@Suite("The web app: medications")
struct WebAppMedicationsTests {
    @Test func thePersonAddsLogsArchivesAndRemovesAMedication() async throws {
        try await WebAppHarness.with { web in
            let empty = try await web.browser.get("/medications")
            #expect(empty.status == 200 && empty.heading == "Medications" && empty.body.contains("You track no medications yet."))
            #expect(try await web.browser.get("/me").body.contains("href=\"/medications\""))

            let added = try await web.browser.post("/medications", [("name", "Ibuprofen 200 MG Oral Tablet"), ("form", "tablet"), ("rxnorm", "310965"),
                                                                    ("nickname", "Headache <pills>")])
            #expect(added.status == 303 && added.location == "/medications?done=added", "\(added.status) \(added.message ?? "")")
            let person = try web.daemon.person()
            let tracked = try #require(try person.medications().first)
            #expect(tracked.medication.identifier.underlyingIdentifier == "310965" && tracked.nickname == "Headache <pills>" && !tracked.hasSchedule)

            let page = try await web.browser.get("/medications")
            #expect(page.body.contains("(“Headache &lt;pills&gt;”)"), "escaped")
            let logged = try await web.browser.post("/medications/310965/log", [("status", "4"), ("dose", "2"), ("unit", "count"), ("at", "2026-11-20T08:30")])
            #expect(logged.status == 303 && logged.location == "/medications?done=logged", "\(logged.status) \(logged.message ?? "")")
            let doses = try person.loggedDoses(limit: 10)
            #expect(doses.count == 1 && doses.first?.logStatus == .taken && doses.first?.doseQuantity == 2 && doses.first?.scheduleType == .asNeeded)
            #expect(try await web.browser.get("/medications").body.contains("<td>Taken</td><td>2 count</td>"))

            _ = try await web.browser.get("/medications")
            #expect(try await web.browser.post("/medications/310965/archive").location == "/medications?done=archived")
            #expect(try person.medications().first?.isArchived == true)
            _ = try await web.browser.get("/medications")
            #expect(try await web.browser.post("/medications/310965/remove").location == "/medications?done=removed")
            #expect(try person.medications().isEmpty)
            #expect(try person.loggedDoses(limit: 10).isEmpty)
        }
    }

    @Test func badInputIsTheFormWithAMessageAndAnUnknownMedicationIsA404() async throws {
        try await WebAppHarness.with { web in
            _ = try await web.browser.get("/medications")
            let nameless = try await web.browser.post("/medications", [("name", "  "), ("form", "tablet")])
            #expect(nameless.status == 400 && nameless.message == "Enter the medication’s name." && nameless.forms.contains { $0["action"] == "/medications" })
            let form = try await web.browser.post("/medications", [("name", "X"), ("form", "pill")])
            #expect(form.status == 400 && form.message == "Choose one of the offered forms.")
            let code = try await web.browser.post("/medications", [("name", "X"), ("form", "tablet"), ("rxnorm", "12a")])
            #expect(code.status == 400 && code.message?.contains("RxNorm code is digits only") == true)
            #expect(try await web.browser.post("/medications", [("name", "Aspirin"), ("form", "tablet"), ("rxnorm", "1191")]).status == 303)
            _ = try await web.browser.get("/medications")
            let twice = try await web.browser.post("/medications", [("name", "Aspirin again"), ("form", "tablet"), ("rxnorm", "1191")])
            #expect(twice.status == 400 && twice.message == "Medication 1191 is tracked already.", "\(twice.message ?? "")")
            for (field, value, message) in [("dose", "-1", "The dose is a number of at least 0"), ("unit", "furlongs", "furlongs is not a unit"),
                                            ("at", "yesterday", "Enter the time as YYYY-MM-DDTHH:MM."), ("status", "9", "Choose what became of the dose.")] {
                var fields = [("status", "4"), ("dose", "1"), ("unit", "count")].filter { $0.0 != field }
                fields.append((field, value))
                _ = try await web.browser.get("/medications")
                let refused = try await web.browser.post("/medications/1191/log", fields)
                #expect(refused.status == 400 && refused.message?.contains(message) == true, "\(field): \(refused.status) \(refused.message ?? "")")
            }
            #expect(try web.daemon.person().loggedDoses(limit: 10).isEmpty, "nothing half-written")
            _ = try await web.browser.get("/medications")
            #expect(try await web.browser.post("/medications/999/log", [("status", "4")]).status == 404)
            let forged = try await web.browser.post("/medications/1191/remove", csrf: .none)
            #expect(forged.status == 403)
            #expect(try web.daemon.person().medications().count == 1)
        }
    }
}
