import Foundation
import HealthModel
import Hummingbird
import OpenHealthKit

/// `GET /medications` — the medications the person tracks, as the Health app's Medications: each with its form and what
/// the person set for it, a form to log a dose, and archive / remove; the doses logged lately; a form to add one.
/// `POST /medications` adds a medication, `POST /medications/:id/log` logs a dose, `/archive` (un)archives, `/remove`
/// stops tracking it (its doses deleted). Apps read them only once the person shares them (Requests).
struct MedicationsPage {
    let app: HealthWebApp

    static let statuses: [(HKMedicationDoseEvent.LogStatus, String)] = [
        (.taken, "Taken"), (.skipped, "Skipped"), (.snoozed, "Snoozed"), (.notInteracted, "Not interacted"),
        (.notificationNotSent, "Notification not sent"), (.notLogged, "Not logged"),
    ]

    func add(to router: Router<BasicRequestContext>) {
        router.get("medications") { request, _ in try render(done: request.uri.queryParameters.get("done")) }
        router.post("medications") { _, _ in
            let form = WebForm.current
            let name = (form["name"] ?? "").trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { return try render(problem: "Enter the medication’s name.", status: .badRequest) }
            guard let generalForm = HKMedicationGeneralForm.named(form["form"] ?? "") else {
                return try render(problem: "Choose one of the offered forms.", status: .badRequest)
            }
            let code = (form["rxnorm"] ?? "").trimmingCharacters(in: .whitespaces)
            guard code.allSatisfy(\.isNumber) else {
                return try render(problem: "An RxNorm code is digits only (for example 310965).", status: .badRequest)
            }
            let codings: Set<HKClinicalCoding> = code.isEmpty ? [] : [HKClinicalCoding(system: HKClinicalCoding.rxNormSystem, version: nil, code: code)]
            do {
                try app.person.addMedication(named: name, form: generalForm, codings: codings, nickname: form["nickname"],
                                             hasSchedule: form["scheduled"] != nil)
            } catch let error as HKError where error.code == .errorInvalidArgument {
                return try render(problem: Self.sentence(error.message), status: .badRequest)
            }
            return WebPage.redirect(to: "/medications?done=added")
        }
        router.post("medications/:id/log") { _, context in
            let medication = try tracked(context)
            let form = WebForm.current
            guard let raw = form["status"].flatMap(Int.init), let status = HKMedicationDoseEvent.LogStatus(rawValue: raw) else {
                return try render(problem: "Choose what became of the dose.", status: .badRequest)
            }
            let doseText = (form["dose"] ?? "").trimmingCharacters(in: .whitespaces)
            var dose: Double?
            if !doseText.isEmpty {
                guard let value = Double(doseText), value.isFinite, value >= 0 else {
                    return try render(problem: "The dose is a number of at least 0 (for example 1 or 0.5).", status: .badRequest)
                }
                dose = value
            }
            let unitText = (form["unit"] ?? "").trimmingCharacters(in: .whitespaces)
            guard let unit = try? HKUnit.parse(unitText.isEmpty ? "count" : unitText) else {
                return try render(problem: "\(unitText) is not a unit (for example count, mg, IU).", status: .badRequest)
            }
            var date = Date()
            if let text = form["at"], !text.isEmpty {
                guard let given = Self.parseMinute(text, in: try app.person.timeZone()) else {
                    return try render(problem: "Enter the time as YYYY-MM-DDTHH:MM.", status: .badRequest)
                }
                date = given
            }
            do {
                try app.person.logDose(of: medication.medication.identifier, status: status, at: date, dose: dose, unit: unit)
            } catch let error as HKError where error.code == .errorInvalidArgument {
                return try render(problem: Self.sentence(error.message), status: .badRequest)
            }
            return WebPage.redirect(to: "/medications?done=logged")
        }
        router.post("medications/:id/archive") { _, context in
            let medication = try tracked(context)
            try app.person.updateMedication(medication.medication.identifier, isArchived: !medication.isArchived)
            return WebPage.redirect(to: "/medications?done=\(medication.isArchived ? "unarchived" : "archived")")
        }
        router.post("medications/:id/remove") { _, context in
            let medication = try tracked(context)
            try app.person.removeMedication(medication.medication.identifier)
            return WebPage.redirect(to: "/medications?done=removed")
        }
    }

    /// The tracked medication the path names, or 404.
    private func tracked(_ context: BasicRequestContext) throws -> HKUserAnnotatedMedication {
        let id = context.parameters.get("id") ?? ""
        guard let medication = try app.person.medications().first(where: { $0.medication.identifier.underlyingIdentifier == id }) else {
            throw WebRefusal(.notFound, "You track no such medication.")
        }
        return medication
    }

    /// A `datetime-local` value in the person's time zone.
    static func parseMinute(_ text: String, in zone: TimeZone) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm"
        return formatter.date(from: text)
    }

    static func sentence(_ message: String) -> String { message.prefix(1).uppercased() + message.dropFirst() + "." }

    private func render(problem: String? = nil, done: String? = nil, status: HTTPResponse.Status = .ok) throws -> Response {
        let medications = try app.person.medications()
        let zone = try app.person.timeZone()
        let names = Dictionary(medications.map { ($0.medication.identifier.underlyingIdentifier, $0.medication.displayText) }, uniquingKeysWith: { a, _ in a })
        let statusOptions: [HTML] = Self.statuses.map { "<option value=\"\($0.0.rawValue)\">\($0.1)</option>" as HTML }
        let rows: [HTML] = medications.map { medication in
            let id = medication.medication.identifier.underlyingIdentifier
            let path = "/medications/\(id)"
            return """
                <li><p><strong>\(medication.medication.displayText)</strong>\(medication.nickname.map { " (“\($0)”)" as HTML } ?? .empty) \
                <span class="muted">\(medication.medication.generalForm.name)\(medication.hasSchedule ? ", scheduled" : "")\(medication.isArchived ? ", archived" : "")</span></p>
                <form method="post" action="\(path)/log" class="row">\(WebPage.csrfField())\
                <label>Dose <select name="status">\(statusOptions)</select></label>\
                <label>Amount <input name="dose" inputmode="decimal" size="5" value="1"></label>\
                <label>Unit <input name="unit" size="6" value="count"></label>\
                <label>When <input type="datetime-local" name="at"></label>\
                <button type="submit" class="small">Log</button></form>
                <form method="post" action="\(path)/archive" class="inline">\(WebPage.csrfField())<button type="submit" class="small secondary">\(medication.isArchived ? "Unarchive" : "Archive")</button></form>
                <form method="post" action="\(path)/remove" class="inline">\(WebPage.csrfField())<button type="submit" class="small secondary">Remove</button></form></li>
                """
        }
        let doses = try app.person.loggedDoses(limit: 20)
        let style = Date.FormatStyle(date: .abbreviated, time: .shortened, timeZone: zone)
        let doseRows: [HTML] = doses.map { dose in
            let status = Self.statuses.first { $0.0 == dose.logStatus }?.1 ?? "\(dose.logStatus.rawValue)"
            let amount = dose.doseQuantity.map { "\($0.formatted()) \(dose.unit.unitString)" } ?? "—"
            return "<tr><td>\(dose.startDate.formatted(style))</td><td>\(names[dose.medicationConceptIdentifier.underlyingIdentifier] ?? dose.medicationConceptIdentifier.underlyingIdentifier)</td><td>\(status)</td><td>\(amount)</td></tr>"
        }
        let forms: [HTML] = HKMedicationGeneralForm.all.map {
            "<option value=\"\($0.name)\"\($0.name == "tablet" ? " selected" as HTML : .empty)>\($0.name.capitalized)</option>" as HTML
        }
        let notice: String? = switch done {
        case "added": "The medication was added. Apps read it only once you share it with them."
        case "logged": "The dose was logged."
        case "archived": "Archived."
        case "unarchived": "Back among your medications."
        case "removed": "Removed, with its logged doses."
        default: nil
        }
        return WebPage.render("Medications", section: .me, status: status, """
            \(WebPage.notice(notice, error: false))\(WebPage.notice(problem))
            \(rows.isEmpty ? "<p>You track no medications yet.</p>" as HTML : "<ul class=\"medications\">\(rows)</ul>")
            <h2>Logged lately</h2>
            \(doseRows.isEmpty ? "<p class=\"muted\">No dose logged yet.</p>" as HTML : """
                <div class="table-wrap"><table><thead><tr><th scope="col">When</th><th scope="col">Medication</th><th scope="col">Dose</th>\
                <th scope="col">Amount</th></tr></thead><tbody>\(doseRows)</tbody></table></div>
                """)
            <h2>Add a medication</h2>
            <form method="post" action="/medications" class="stack">
            \(WebPage.csrfField())
            <label>Name <input name="name" required></label>
            <label>Form <select name="form">\(forms)</select></label>
            <label>RxNorm code (optional) <input name="rxnorm" inputmode="numeric"></label>
            <label>Nickname (optional) <input name="nickname"></label>
            <label><input type="checkbox" name="scheduled" value="1"> It has a reminder schedule</label>
            <button type="submit">Add</button>
            </form>
            """)
    }
}
