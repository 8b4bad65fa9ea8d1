import Foundation
import HealthModel
import Hummingbird
import OpenHealthKit

/// `GET /` — the Summary: a card for each type the store holds (its latest day's figure, how many samples, from how
/// many sources), each leading to its charts; and what waits for the person (apps' requests).
struct SummaryPage {
    let app: HealthWebApp

    func add(to router: Router<BasicRequestContext>) {
        router.get("/") { _, _ in try await render() }
    }

    private func render() async throws -> Response {
        // Types and their spans by index seeks (counting a year of heart rate would take most of a second).
        let spans = try app.person.typeSpans()
        let others = try app.person.otherContents()
        let pending = try app.person.pendingAuthorizationRequests().count + app.person.pendingRecordSharingRequests().count
        let waiting: HTML = pending == 0 ? .empty : """
            <p class="notice" role="status"><a href="/requests">\(pending) app request\(pending == 1 ? "" : "s") \
            wait\(pending == 1 ? "s" : "") for your answer.</a></p>
            """
        guard !spans.isEmpty else {
            return WebPage.render("Summary", section: .summary, """
                \(waiting)
                <p>Your store holds no health data yet.</p>
                <p><a class="button" href="/import">Import your Health export</a></p>
                \(app.sampleExport == nil ? .empty : """
                    <form method="post" action="/import/sample">\(WebPage.csrfField())\
                    <p>No export at hand? <button type="submit" class="secondary">Import the sample export</button></p></form>
                    """ as HTML)
                <p class="muted">Apps you allow can add data too; <code>health import PATH</code> imports from the terminal.</p>
                """)
        }
        let calendar = try app.calendar()
        var cards: [HTML] = []
        var style = Date.FormatStyle.dateTime.weekday(.abbreviated).day().month(.abbreviated).year().hour().minute()
        style.timeZone = calendar.timeZone
        for line in spans.sorted(by: { TypeNames.title($0.type.identifier) < TypeNames.title($1.type.identifier) }) {
            let latest = try await latestFigure(line.type, last: line.last, calendar: calendar)
            cards.append("""
                <li class="card"><a href="\(line.type is HKWorkoutType ? "/workouts" : "/types/\(line.type.identifier)")">
                <span class="type">\(TypeNames.title(line.type.identifier))</span>
                \(latest.map { "<div class=\"figure\">\($0.figure)</div><div class=\"muted\">\($0.when)</div>" as HTML }
                    ?? "<div class=\"muted\">latest \(line.last.formatted(style))</div>")
                </a></li>
                """)
        }
        var extras: [HTML] = []
        if others.activitySummaries > 0 {
            extras.append("<li><a href=\"/activity\">\(others.activitySummaries.formatted()) days of activity rings</a></li>")
        }
        if others.healthRecords > 0 { extras.append("<li><a href=\"/records\">\(others.healthRecords.formatted()) health records</a></li>") }
        return WebPage.render("Summary", section: .summary, """
            \(waiting)
            <ul class="cards">\(cards)</ul>
            <p class="actions"><a href="/import">Import or export</a> <a href="/workouts">Workouts</a> <a href="/activity">Activity</a></p>
            \(extras.isEmpty ? .empty : "<h2>Also in your store</h2><ul>\(extras)</ul>" as HTML)
            """)
    }

    /// The figure of the type's last day with data (the day's total for a cumulative type, its average otherwise, in the
    /// person's unit), or nil for a type that is not a quantity.
    private func latestFigure(_ type: HKSampleType, last: Date, calendar: Calendar) async throws -> (figure: String, when: String)? {
        guard let type = type as? HKQuantityType else { return nil }
        let day = calendar.dateInterval(of: .day, for: last.addingTimeInterval(-0.001)) ?? DateInterval(start: last, duration: 0)
        let cumulative = type.aggregationStyle == .cumulative
        let descriptor = HKStatisticsQueryDescriptor(
            predicate: .quantitySample(type: type, predicate: HKQuery.predicateForSamples(withStart: day.start, end: day.end)),
            options: cumulative ? .cumulativeSum : .discreteAverage)
        guard let statistics = try await descriptor.result(for: app.person.healthStore),
              let quantity = cumulative ? statistics.sumQuantity() : statistics.averageQuantity() else { return nil }
        let unit = try app.person.preferredUnit(for: type)
        var style = Date.FormatStyle.dateTime.weekday(.abbreviated).day().month(.abbreviated).year()
        style.timeZone = calendar.timeZone
        return ("\(SVGChart.figure(quantity.doubleValue(for: unit))) \(TypeNames.unit(unit, of: type))",
                (cumulative ? "total on " : "average on ") + day.start.formatted(style))
    }
}
