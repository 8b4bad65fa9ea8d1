import Foundation
import HealthModel
import HealthStore
import Hummingbird
import OpenHealthKit

/// What apps did, for the person to check:
/// - `GET /access-log` — what each app read and wrote through the daemon, newest first, filtered by app, type and day;
/// - `GET /deliveries` — background deliveries to apps' callback URLs, and their failures.
struct LogPages {
    let app: HealthWebApp
    static let limit = 500

    func add(to router: Router<BasicRequestContext>) {
        router.get("access-log") { request, _ in
            let query = request.uri.queryParameters
            let appFilter = query.get("app").flatMap { $0.isEmpty ? nil : $0 }
            let typeFilter = query.get("type").flatMap { $0.isEmpty ? nil : $0 }
            let calendar = try app.calendar()
            var since: Date?, until: Date?
            if let day = query.get("day"), !day.isEmpty {
                guard let start = TypePage.parseDay(day, calendar: calendar) else {
                    return try accessLog(app: appFilter, type: typeFilter, day: day, problem: "\(day) is not a date (YYYY-MM-DD).", calendar: calendar)
                }
                since = start
                until = calendar.date(byAdding: .day, value: 1, to: start)
            }
            return try accessLog(app: appFilter, type: typeFilter, day: query.get("day"), since: since, until: until, calendar: calendar)
        }
        router.get("deliveries") { request, _ in
            let stateText = request.uri.queryParameters.get("state").flatMap { $0.isEmpty ? nil : $0 }
            let state = stateText.flatMap(BackgroundDeliveryQueue.State.init(rawValue:))
            if stateText != nil, state == nil { throw WebRefusal(.badRequest, "Unknown delivery state \(stateText ?? "").") }
            var style = Date.FormatStyle.dateTime.day().month(.abbreviated).hour().minute().second()
            style.timeZone = try app.calendar().timeZone
            let rows: [HTML] = try app.person.deliveries(state: state, limit: Self.limit).map { delivery in
                """
                <tr><td>\(delivery.createdAt.formatted(style))</td><td>\(delivery.app)</td>\
                <td>\(delivery.types.map(TypeNames.title).joined(separator: ", "))</td><td>\(delivery.state.rawValue)</td>\
                <td class="number">\(delivery.attempts)</td><td>\(delivery.lastError ?? "")</td></tr>
                """
            }
            let options: [HTML] = [HTML("<option value=\"\">any</option>")] + BackgroundDeliveryQueue.State.allCases.map { option in
                "<option value=\"\(option.rawValue)\"\(option == state ? " selected" as HTML : .empty)>\(option.rawValue)</option>"
            }
            return WebPage.render("Deliveries", section: .deliveries, """
                <form method="get" action="/deliveries" class="row"><label>State <select name="state">\(options)</select></label>\
                <button type="submit" class="secondary">Show</button></form>
                \(rows.isEmpty ? "<p class=\"muted\">No deliveries.</p>" as HTML : """
                    <div class="table-wrap"><table><thead><tr><th scope="col">Changed</th><th scope="col">App</th><th scope="col">Types</th>\
                    <th scope="col">State</th><th scope="col">Attempts</th><th scope="col">Last error</th></tr></thead><tbody>\(rows)</tbody></table></div>
                    """)
                """)
        }
    }

    private func accessLog(app appFilter: String?, type typeFilter: String?, day: String?, since: Date? = nil, until: Date? = nil,
                           problem: String? = nil, calendar: Calendar) throws -> Response {
        var style = Date.FormatStyle.dateTime.day().month(.abbreviated).hour().minute().second()
        style.timeZone = calendar.timeZone
        let entries = problem != nil ? [] : try app.person.accessLog(app: appFilter, type: typeFilter, since: since, until: until, limit: Self.limit)
        let rows: [HTML] = entries.map { entry in
            """
            <tr><td>\(entry.time.formatted(style))</td><td>\(entry.app)</td><td>\(entry.operation)</td>\
            <td>\(entry.type.map(TypeNames.title) ?? "")</td><td class="number">\(entry.count)</td><td>\(entry.outcome)</td></tr>
            """
        }
        let apps = try app.person.apps().map(\.app)
        let appOptions: [HTML] = [HTML("<option value=\"\">any</option>")] + apps.map { manifest in
            "<option value=\"\(manifest.bundleIdentifier)\"\(manifest.bundleIdentifier == appFilter ? " selected" as HTML : .empty)>\(manifest.name)</option>"
        }
        return WebPage.render("Access log", section: .accessLog, status: problem == nil ? .ok : .badRequest, """
            <form method="get" action="/access-log" class="row">
            <label>App <select name="app">\(appOptions)</select></label>
            <label>Type <input name="type" value="\(typeFilter ?? "")" placeholder="HKQuantityTypeIdentifierStepCount"></label>
            <label>Day <input name="day" type="date" value="\(day ?? "")"></label>
            <button type="submit" class="secondary">Filter</button></form>
            \(WebPage.notice(problem))
            \(rows.isEmpty ? (problem == nil ? "<p class=\"muted\">Nothing recorded\(appFilter != nil || typeFilter != nil || since != nil ? " that matches" : "").</p>" as HTML : .empty) : """
                <p class="muted">\(entries.count == Self.limit ? "The newest \(Self.limit)" : "\(entries.count)") entr\(entries.count == 1 ? "y" : "ies").</p>
                <div class="table-wrap"><table><thead><tr><th scope="col">When</th><th scope="col">App</th><th scope="col">What</th>\
                <th scope="col">Type</th><th scope="col">Objects</th><th scope="col">Outcome</th></tr></thead><tbody>\(rows)</tbody></table></div>
                """)
            """)
    }
}
