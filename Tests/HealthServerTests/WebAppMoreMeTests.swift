import Foundation
@testable import HealthServer
import OpenHealthKit
import Testing

private let bodyMass = HKQuantityType(.bodyMass)
private let heartRate = HKQuantityType(.heartRate)

private extension WebClient.Page {
    /// The value of the `<option selected>` of the `<select name="name">`, nil when the page has no such select or none
    /// of its options is selected.
    func meSelected(_ name: String) -> String? {
        guard let select = Self.first(#"<select name="\#(name)">(.*?)</select>"#, in: body) else { return nil }
        return Self.tags("option", in: select).first { $0["selected"] != nil }?["value"]
    }

    /// Every option value of the `<select name="name">`, in page order.
    func meOptions(_ name: String) -> [String] {
        guard let select = Self.first(#"<select name="\#(name)">(.*?)</select>"#, in: body) else { return [] }
        return Self.tags("option", in: select).compactMap { $0["value"] }
    }
}

/// What the person's characteristics and time zone are, read through the person's side of the store.
private struct Details: Equatable, CustomStringConvertible {
    var sex: HKBiologicalSex
    var blood: HKBloodType
    var skin: HKFitzpatrickSkinType
    var wheelchair: HKWheelchairUse
    var move: HKActivityMoveMode
    var birth: DateComponents
    var zone: String?

    var description: String { "\(sex) \(blood) \(skin) \(wheelchair) \(move) \(birth.year ?? 0)-\(birth.month ?? 0)-\(birth.day ?? 0) \(zone ?? "-")" }

    static func read(_ web: WebAppHarness) throws -> Details {
        let person = try web.daemon.person()
        let store = person.healthStore
        let birth = try store.dateOfBirthComponents()
        return Details(sex: try store.biologicalSex().biologicalSex, blood: try store.bloodType().bloodType,
                       skin: try store.fitzpatrickSkinType().skinType, wheelchair: try store.wheelchairUse().wheelchairUse,
                       move: try store.activityMoveMode().activityMoveMode,
                       birth: DateComponents(year: birth.year, month: birth.month, day: birth.day),
                       zone: try person.timeZoneSetting().flatMap { $0.byPerson ? $0.zone.identifier : nil })
    }
}

/// The form `/me` posts, field by field (each a string as the browser sends it).
private func detailsForm(sex: HKBiologicalSex = .female, blood: HKBloodType = .abNegative, skin: HKFitzpatrickSkinType = .IV,
                         wheelchair: HKWheelchairUse = .no, move: HKActivityMoveMode = .appleMoveTime, birth: String = "1990-04-15",
                         zone: String = "Europe/Paris") -> [(String, String)] {
    [("dateOfBirth", birth), ("biologicalSex", String(sex.rawValue)), ("bloodType", String(blood.rawValue)), ("skinType", String(skin.rawValue)),
     ("wheelchairUse", String(wheelchair.rawValue)), ("moveMode", String(move.rawValue)), ("timeZone", zone)]
}

/// The person's own details (`/me`): the characteristics apps may read, the time zone days begin in, and the units.
@Suite("The web app: Me")
struct WebAppMoreMeTests {
    @Test func theMePageSelectsTheStoredCharacteristicsAndShowsTheUnits() async throws {
        try await WebAppHarness.with { web in
            let fresh = try await web.browser.get("/me")
            #expect(fresh.status == 200 && fresh.heading == "Me", "\(fresh.status)")
            #expect(fresh.meSelected("biologicalSex") == "0" && fresh.meSelected("bloodType") == "0", "Not set at first")
            #expect(fresh.meSelected("moveMode") == String(HKActivityMoveMode.activeEnergy.rawValue))
            #expect(fresh.meOptions("bloodType").count == 9 && fresh.meOptions("skinType").count == 7 && fresh.meOptions("biologicalSex").count == 4)
            #expect(fresh.field("dateOfBirth") == "" && fresh.field("timeZone") == "")
            #expect(fresh.body.contains("No units set yet"), "no unit rows yet")

            let person = try web.daemon.person()
            try person.setBiologicalSex(.male)
            try person.setBloodType(.oNegative)
            try person.setFitzpatrickSkinType(.II)
            try person.setWheelchairUse(.yes)
            try person.setActivityMoveMode(.appleMoveTime)
            try person.setDateOfBirth(DateComponents(year: 1984, month: 2, day: 29))
            try person.setTimeZone(TimeZone(identifier: "America/New_York")!)
            try person.setPreferredUnit(.pound(), for: bodyMass)
            let page = try await web.browser.get("/me")
            #expect(page.meSelected("biologicalSex") == String(HKBiologicalSex.male.rawValue))
            #expect(page.meSelected("bloodType") == String(HKBloodType.oNegative.rawValue))
            #expect(page.meSelected("skinType") == String(HKFitzpatrickSkinType.II.rawValue))
            #expect(page.meSelected("wheelchairUse") == String(HKWheelchairUse.yes.rawValue))
            #expect(page.meSelected("moveMode") == String(HKActivityMoveMode.appleMoveTime.rawValue))
            #expect(page.body.contains("<option value=\"\(HKBloodType.oNegative.rawValue)\" selected>O−</option>"))
            #expect(page.field("dateOfBirth") == "1984-02-29" && page.field("timeZone") == "America/New_York")
            #expect(page.rows.count == 1 && page.rows.first?.first == "Body Mass" && page.rows.first?.last == "yours", "\(page.rows)")
            #expect(page.field("unit") == "lb" && page.hidden("type") == bodyMass.identifier)
            #expect(page.forms.contains { $0["action"] == "/me/units" } && page.forms.contains { $0["action"] == "/me" })
        }
    }

    @Test func savingTheDetailsChangesEveryCharacteristicAndTheTimeZone() async throws {
        try await WebAppHarness.with { web in
            _ = try await web.browser.get("/me")
            let saved = try await web.browser.post("/me", detailsForm())
            #expect(saved.status == 303 && saved.location == "/me?done=saved", "\(saved.status) \(saved.message ?? "")")
            #expect(try Details.read(web) == Details(sex: .female, blood: .abNegative, skin: .IV, wheelchair: .no, move: .appleMoveTime,
                                                     birth: DateComponents(year: 1990, month: 4, day: 15), zone: "Europe/Paris"))
            #expect(try web.daemon.person().timeZone().identifier == "Europe/Paris")
            let shown = try await web.browser.get(try #require(saved.location))
            #expect(shown.notice == "Saved.")
            #expect(shown.meSelected("bloodType") == String(HKBloodType.abNegative.rawValue) && shown.field("dateOfBirth") == "1990-04-15")
            #expect(shown.field("timeZone") == "Europe/Paris")

            // Not set again, with the date of birth and the time zone left empty: each is cleared.
            let cleared = try await web.browser.post("/me", detailsForm(sex: .notSet, blood: .notSet, skin: .notSet, wheelchair: .notSet,
                                                                        move: .activeEnergy, birth: "", zone: ""))
            #expect(cleared.status == 303, "\(cleared.status) \(cleared.message ?? "")")
            let after = try Details.read(web)
            #expect(after == Details(sex: .notSet, blood: .notSet, skin: .notSet, wheelchair: .notSet, move: .activeEnergy,
                                     birth: DateComponents(), zone: nil), "\(after)")
        }
    }

    @Test func badDetailsAre400AndChangeNothing() async throws {
        try await WebAppHarness.with { web in
            _ = try await web.browser.get("/me")
            #expect(try await web.browser.post("/me", detailsForm()).status == 303)
            let before = try Details.read(web)
            let cases: [(form: [(String, String)], message: String)] = [
                (detailsForm(birth: "1990-13-40"), "Enter the date of birth as YYYY-MM-DD."),
                (detailsForm(birth: "15/04/1990"), "Enter the date of birth as YYYY-MM-DD."),
                (detailsForm(birth: "2999-01-01"), "A date of birth cannot be in the future."),
                (detailsForm(zone: "Mars/Olympus_Mons"), "Mars/Olympus_Mons is not a time zone (for example Europe/Paris or America/New_York)."),
            ]
            for (index, bad) in cases.enumerated() {
                // Every other field differs from what is stored, so a partial save would show.
                var form = bad.form.filter { $0.0 == "dateOfBirth" || $0.0 == "timeZone" }
                form += [("biologicalSex", "2"), ("bloodType", "1"), ("skinType", "1"), ("wheelchairUse", "2"), ("moveMode", "1")]
                let refused = try await web.browser.post("/me", form)
                #expect(refused.status == 400, "case \(index): \(refused.status)")
                #expect(refused.message == bad.message, "case \(index): \(refused.message ?? refused.body)")
                #expect(refused.heading == "Me" && refused.forms.contains { $0["action"] == "/me" }, "case \(index): the Me page with its form")
                let now = try Details.read(web)
                #expect(now == before, "case \(index): \(now)")
            }
            // A choice that is not offered is refused by name.
            for (field, value) in [("bloodType", "42"), ("biologicalSex", "female"), ("moveMode", "0"), ("skinType", "")] {
                var form = detailsForm(sex: .male, blood: .aPositive)
                form.removeAll { $0.0 == field }
                form.append((field, value))
                let refused = try await web.browser.post("/me", form)
                #expect(refused.status == 400 && refused.isHTML, "\(field)=\(value): \(refused.status)")
                #expect(refused.message == "Choose one of the offered values for \(field).", "\(refused.message ?? refused.body)")
                #expect(try Details.read(web) == before, "\(field)=\(value)")
            }
            // The time zone in the address of a zone name with markup is escaped.
            let marked = try await web.browser.post("/me", detailsForm(zone: "<b>Nowhere</b>"))
            #expect(marked.status == 400 && !marked.body.contains("<b>Nowhere</b>") && marked.body.contains("&lt;b&gt;Nowhere&lt;/b&gt;"))
            #expect(try Details.read(web) == before)
        }
    }

    @Test func detailsWithoutTheTokenAreRefusedAndChangeNothing() async throws {
        try await WebAppHarness.with { web in
            _ = try await web.browser.get("/me")
            let before = try Details.read(web)
            for csrf: WebClient.CSRF in [.none, .token("forged")] {
                let refused = try await web.browser.post("/me", detailsForm(), csrf: csrf)
                #expect(refused.status == 403, "\(csrf): \(refused.status)")
                let unit = try await web.browser.post("/me/units", [("type", bodyMass.identifier), ("unit", "lb")], csrf: csrf)
                #expect(unit.status == 403, "\(csrf): \(unit.status)")
            }
            #expect(try Details.read(web) == before)
            #expect(try web.daemon.person().preferredUnitSettings().isEmpty)
        }
    }

    @Test func aUnitIsChangedFromThePageAndOneThatDoesNotFitIsRefused() async throws {
        try await WebAppHarness.with { web in
            _ = try await web.browser.get("/me")
            let changed = try await web.browser.post("/me/units", [("type", bodyMass.identifier), ("unit", "lb")])
            #expect(changed.status == 303 && changed.location == "/me?done=unit", "\(changed.status) \(changed.message ?? "")")
            #expect(try web.daemon.person().preferredUnit(for: bodyMass) == .pound())
            let shown = try await web.browser.get("/me?done=unit")
            #expect(shown.notice == "The unit was changed.")
            #expect(shown.rows.first { $0.first == "Body Mass" }?.last == "yours" && shown.field("unit") == "lb", "\(shown.rows)")
            // The type's page shows it in the new unit.
            let type = try await web.browser.get("/types/\(bodyMass.identifier)")
            #expect(type.field("unit") == "lb")

            // kg is a mass, not a heart rate.
            let wrongKind = try await web.browser.post("/me/units", [("type", heartRate.identifier), ("unit", "kg")])
            #expect(wrongKind.status == 400, "\(wrongKind.status)")
            let message = try #require(wrongKind.message, "\(wrongKind.body)")
            #expect(message.hasPrefix("Heart Rate: ") && message.contains("kg") && message.hasSuffix("."), "\(message)")
            #expect(wrongKind.heading == "Me")
            #expect(try web.daemon.person().preferredUnitSettings().map(\.type) == [bodyMass], "heart rate's unit was not set")

            // Not a unit at all.
            let unknown = try await web.browser.post("/me/units", [("type", bodyMass.identifier), ("unit", "furlongs")])
            #expect(unknown.status == 400 && unknown.heading == "Me", "\(unknown.status)")
            #expect(unknown.message?.contains("furlongs") == true, "\(unknown.message ?? unknown.body)")
            #expect(unknown.message == "furlongs is not a unit (for example kg, lb, count/min).", "\(unknown.message ?? "")")
            let missing = try await web.browser.post("/me/units", [("type", bodyMass.identifier), ("unit", "")])
            #expect(missing.status == 400, "\(missing.status)")
            #expect(missing.message == "The unit is missing (for example kg, lb, count/min).", "\(missing.message ?? "")")
            #expect(try web.daemon.person().preferredUnit(for: bodyMass) == .pound(), "the refused units changed nothing")

            // A type that is not a quantity type, or none.
            for type in ["HKCategoryTypeIdentifierSleepAnalysis", "HKQuantityTypeIdentifierNoSuchThing", ""] {
                let refused = try await web.browser.post("/me/units", [("type", type), ("unit", "count")])
                #expect(refused.status == 400 && refused.message == "Choose a quantity type.", "\(type): \(refused.status) \(refused.message ?? "")")
            }
            #expect(try web.daemon.person().preferredUnitSettings().count == 1)
        }
    }
}
