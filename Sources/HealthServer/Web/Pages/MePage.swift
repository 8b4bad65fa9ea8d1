import Foundation
import HealthModel
import Hummingbird
import OpenHealthKit

/// `GET /me` — the person's own details, as the Health app's profile holds them: the characteristics apps may ask to
/// read (biological sex, blood type, date of birth, skin type, wheelchair use, move mode), the time zone days begin
/// in, and the unit each type is shown in. `POST /me` saves the details, `POST /me/units` one type's unit.
struct MePage {
    let app: HealthWebApp

    static let sexes: [(HKBiologicalSex, String)] = [(.notSet, "Not set"), (.female, "Female"), (.male, "Male"), (.other, "Other")]
    static let bloodTypes: [(HKBloodType, String)] = [
        (.notSet, "Not set"), (.aPositive, "A+"), (.aNegative, "A−"), (.bPositive, "B+"), (.bNegative, "B−"),
        (.abPositive, "AB+"), (.abNegative, "AB−"), (.oPositive, "O+"), (.oNegative, "O−"),
    ]
    static let skinTypes: [(HKFitzpatrickSkinType, String)] = [
        (.notSet, "Not set"), (.I, "Type I"), (.II, "Type II"), (.III, "Type III"), (.IV, "Type IV"), (.V, "Type V"), (.VI, "Type VI"),
    ]
    static let wheelchairUses: [(HKWheelchairUse, String)] = [(.notSet, "Not set"), (.no, "No"), (.yes, "Yes")]
    static let moveModes: [(HKActivityMoveMode, String)] = [(.activeEnergy, "Active energy (kcal)"), (.appleMoveTime, "Move time (minutes)")]

    func add(to router: Router<BasicRequestContext>) {
        router.get("me") { request, _ in try render(done: request.uri.queryParameters.get("done")) }
        router.post("me") { _, _ in
            let form = WebForm.current
            func choice<T: RawRepresentable>(_ name: String, _ options: [(T, String)]) throws -> T where T.RawValue == Int {
                guard let text = form[name], let raw = Int(text), let value = T(rawValue: raw), options.contains(where: { $0.0.rawValue == raw }) else {
                    throw WebRefusal(.badRequest, "Choose one of the offered values for \(name).")
                }
                return value
            }
            let sex: HKBiologicalSex = try choice("biologicalSex", Self.sexes)
            let blood: HKBloodType = try choice("bloodType", Self.bloodTypes)
            let skin: HKFitzpatrickSkinType = try choice("skinType", Self.skinTypes)
            let wheelchair: HKWheelchairUse = try choice("wheelchairUse", Self.wheelchairUses)
            let move: HKActivityMoveMode = try choice("moveMode", Self.moveModes)
            var birth: DateComponents?
            if let text = form["dateOfBirth"] {
                guard let date = TypePage.parseDay(text, calendar: Calendar(identifier: .gregorian)) else {
                    return try render(problem: "Enter the date of birth as YYYY-MM-DD.", status: .badRequest)
                }
                birth = Calendar(identifier: .gregorian).dateComponents([.year, .month, .day], from: date)
            }
            var zone: TimeZone?
            if let identifier = form["timeZone"] {
                guard let found = TimeZone(identifier: identifier) else {
                    return try render(problem: "\(identifier) is not a time zone (for example Europe/Paris or America/New_York).", status: .badRequest)
                }
                zone = found
            }
            do {
                try app.person.setDateOfBirth(birth)
            } catch let error as HKError where error.code == .errorInvalidArgument {
                return try render(problem: error.message.prefix(1).uppercased() + error.message.dropFirst() + ".", status: .badRequest)
            }
            try app.person.setBiologicalSex(sex)
            try app.person.setBloodType(blood)
            try app.person.setFitzpatrickSkinType(skin)
            try app.person.setWheelchairUse(wheelchair)
            try app.person.setActivityMoveMode(move)
            try app.person.setTimeZone(zone)
            return WebPage.redirect(to: "/me?done=saved")
        }
        router.post("me/units") { _, _ in
            let form = WebForm.current
            guard let identifier = form["type"], let type = HKObjectType.type(forIdentifier: identifier) as? HKQuantityType else {
                throw WebRefusal(.badRequest, "Choose a quantity type.")
            }
            let text = form["unit"] ?? ""
            let unit: HKUnit
            do { unit = try HKUnit.parse(text) } catch {
                return try render(problem: "\(text.isEmpty ? "The unit is missing" : "\(text) is not a unit") (for example kg, lb, count/min).", status: .badRequest)
            }
            do {
                try app.person.setPreferredUnit(unit, for: type)
            } catch let error as HKError where error.code == .errorInvalidArgument {
                return try render(problem: "\(TypeNames.title(identifier)): \(error.message).", status: .badRequest)
            }
            return WebPage.redirect(to: "/me?done=unit")
        }
    }

    private func render(problem: String? = nil, done: String? = nil, status: HTTPResponse.Status = .ok) throws -> Response {
        let store = app.person.healthStore
        func select<T: RawRepresentable>(_ name: String, _ label: String, _ options: [(T, String)], _ current: T) -> HTML where T.RawValue == Int {
            let items: [HTML] = options.map { option in
                "<option value=\"\(option.0.rawValue)\"\(option.0.rawValue == current.rawValue ? " selected" as HTML : .empty)>\(option.1)</option>"
            }
            return "<label>\(label) <select name=\"\(name)\">\(items)</select></label>"
        }
        let birth = try store.dateOfBirthComponents()
        let birthText = birth.year.map { String(format: "%04d-%02d-%02d", $0, birth.month ?? 1, birth.day ?? 1) } ?? ""
        let zone = try app.person.timeZoneSetting()
        let units: [HTML] = try app.person.preferredUnitSettings().sorted { TypeNames.title($0.type.identifier) < TypeNames.title($1.type.identifier) }
            .map { setting in
                """
                <tr><td>\(TypeNames.title(setting.type.identifier))</td><td><form method="post" action="/me/units" class="row">\(WebPage.csrfField())\
                <input type="hidden" name="type" value="\(setting.type.identifier)">\
                <label class="visually-hidden" for="unit-\(setting.type.identifier)">Unit of \(TypeNames.title(setting.type.identifier))</label>\
                <input id="unit-\(setting.type.identifier)" name="unit" value="\(setting.unit.unitString)" size="10">\
                <button type="submit" class="small secondary">Change</button></form></td>\
                <td class="muted hide-narrow">\(setting.byPerson ? "yours" : "from your export")</td></tr>
                """
            }
        let notice: String? = switch done {
        case "saved": "Saved."
        case "unit": "The unit was changed."
        default: nil
        }
        return WebPage.render("Me", section: .me, status: status, """
            \(WebPage.notice(notice, error: false))\(WebPage.notice(problem))
            <h2>Health details</h2>
            <form method="post" action="/me" class="stack">
            \(WebPage.csrfField())
            <label>Date of birth <input type="date" name="dateOfBirth" value="\(birthText)"></label>
            \(select("biologicalSex", "Sex", Self.sexes, try store.biologicalSex().biologicalSex))
            \(select("bloodType", "Blood type", Self.bloodTypes, try store.bloodType().bloodType))
            \(select("skinType", "Fitzpatrick skin type", Self.skinTypes, try store.fitzpatrickSkinType().skinType))
            \(select("wheelchairUse", "Wheelchair", Self.wheelchairUses, try store.wheelchairUse().wheelchairUse))
            \(select("moveMode", "Move ring", Self.moveModes, try store.activityMoveMode().activityMoveMode))
            <label>Time zone (days begin at midnight there) <input name="timeZone" value="\(zone?.byPerson == true ? zone?.zone.identifier ?? "" : "")" placeholder="\(try app.person.timeZone().identifier)"></label>
            <button type="submit">Save</button>
            </form>
            <h2>Medications</h2>
            <p><a href="/medications">Your medications</a>: the ones you track, and the doses you log.</p>
            <h2>Units</h2>
            \(units.isEmpty ? "<p class=\"muted\">No units set yet: each type shows in the usual unit.</p>" as HTML : """
                <div class="table-wrap"><table><thead><tr><th scope="col">Type</th><th scope="col">Unit</th><th scope="col" class="hide-narrow">Set by</th></tr></thead>\
                <tbody>\(units)</tbody></table></div>
                """)
            """)
    }
}
