import Foundation
import HealthModel
import Hummingbird
import OpenHealthKit

/// `GET /types/{identifier}` — one type's charts and samples, as the Health app shows a type:
/// - a day (by hour), a week or a month (by day), or a year (by month), in the person's time zone, from merged
///   statistics (sources by priority, as the Health app merges them): bars of the totals of a cumulative type, a
///   minimum–maximum band with the average for a discrete one, bars of the time recorded for a category type;
/// - the samples of that time, newest first, 50 a page, each deletable (`POST /samples/{uuid}/delete`);
/// - for a quantity type, a form to add an entry by hand (`POST /types/{identifier}/entries`; the source is the
///   Health app).
struct TypePage {
    let app: HealthWebApp
    static let pageSize = 50
    /// The deepest page offered: beyond it, a shorter time.
    static let maximumPage = 100

    enum Span: String, CaseIterable, Sendable {
        case day, week, month, year
        var title: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
    }

    /// What the page shows: the type, the span and the day it ends on, the page of samples, and a form's input and
    /// problem when a posted entry was refused.
    struct View {
        var type: HKSampleType
        var span: Span
        var day: Date
        var page: Int
        var entry: (value: String, unit: String, date: String, time: String)?
        var problem: String?
        var done: String?
    }

    func add(to router: Router<BasicRequestContext>) {
        router.get("types/:identifier") { request, context in
            let type = try sampleType(context)
            let query = request.uri.queryParameters
            guard let span = Span(rawValue: query.get("span") ?? "week") else {
                throw WebRefusal(.badRequest, "The span must be day, week, month or year.")
            }
            let calendar = try app.calendar()
            var day: Date
            if let text = query.get("date") {
                guard let parsed = Self.parseDay(text, calendar: calendar) else {
                    throw WebRefusal(.badRequest, "\(text) is not a date (YYYY-MM-DD).")
                }
                day = parsed
            } else {
                // Where the data is: the type's last sample's day (an imported export may end long ago), else today.
                let last = try app.person.typeSpans().first { $0.type == type }?.last.addingTimeInterval(-0.001)
                day = calendar.startOfDay(for: last ?? Date())
            }
            let page = Int(query.get("page") ?? "1") ?? 0
            guard (1...Self.maximumPage).contains(page) else {
                throw WebRefusal(.badRequest, "Pages go from 1 to \(Self.maximumPage); choose a shorter time to see older samples.")
            }
            let notice = query.get("done")
            day = calendar.startOfDay(for: day)
            return try await render(View(type: type, span: span, day: day, page: page, done: notice), calendar: calendar)
        }
        router.post("types/:identifier/entries") { _, context in
            let type = try sampleType(context)
            let calendar = try app.calendar()
            let form = WebForm.current
            let entry = (value: form["value"] ?? "", unit: form["unit"] ?? "", date: form["date"] ?? "", time: form["time"] ?? "")
            var view = View(type: type, span: .day, day: calendar.startOfDay(for: Date()), page: 1, entry: entry)
            guard let quantityType = type as? HKQuantityType else {
                throw WebRefusal(.badRequest, "Entries by hand are for quantities; \(TypeNames.title(type.identifier)) is not one.")
            }
            func refuse(_ problem: String) async throws -> Response {
                view.problem = problem
                var response = try await render(view, calendar: calendar)
                response.status = .badRequest
                return response
            }
            guard let value = Double(entry.value.replacingOccurrences(of: ",", with: ".")), value.isFinite else {
                return try await refuse("Enter the value as a number (for example 72 or 1.5).")
            }
            guard let day = Self.parseDay(entry.date, calendar: calendar) else {
                return try await refuse("Enter the date as YYYY-MM-DD.")
            }
            view.day = day
            guard let time = Self.parseTime(entry.time) else { return try await refuse("Enter the time as HH:MM (24-hour).") }
            let unit: HKUnit
            do { unit = try HKUnit.parse(entry.unit) } catch {
                return try await refuse("\(entry.unit.isEmpty ? "The unit is missing" : "\(entry.unit) is not a unit") (for example count, kg, count/min).")
            }
            let start = day.addingTimeInterval(time)
            guard start <= Date() else { return try await refuse("That time is still to come; enter what was measured.") }
            do {
                try app.person.addEntry(quantityType, value: value, unit: unit, start: start, end: start)
            } catch let error as HKError where error.code == .errorInvalidArgument {
                return try await refuse(error.message.prefix(1).uppercased() + error.message.dropFirst() + ".")
            }
            return WebPage.redirect(to: "/types/\(type.identifier)?span=day&date=\(Self.dayText(day, calendar: calendar))&done=added")
        }
        router.post("types/:identifier/priority") { _, context in
            let type = try sampleType(context)
            let form = WebForm.current
            var order = try app.person.sourcePriority(for: type).map(\.bundleIdentifier)
            guard let moved = form["source"], let index = order.firstIndex(of: moved) else {
                throw WebRefusal(.badRequest, "That source has no data of this type.")
            }
            let target = form["direction"] == "up" ? index - 1 : form["direction"] == "down" ? index + 1 : -1
            guard order.indices.contains(target) else { throw WebRefusal(.badRequest, "That source cannot move that way.") }
            order.swapAt(index, target)
            try app.person.setSourcePriority(order, for: type)
            return WebPage.redirect(to: "/types/\(type.identifier)?span=\(form["span"].flatMap(Span.init(rawValue:))?.rawValue ?? "week")&done=priority#sources")
        }
        router.post("samples/:uuid/delete") { _, context in
            guard let text = context.parameters.get("uuid"), let uuid = UUID(uuidString: text) else {
                throw WebRefusal(.badRequest, "That is not a sample's identifier.")
            }
            let type = try app.person.deleteSample(uuid)
            let back = WebForm.current["back"].map(WebPage.localPath) ?? "/types/\(type.identifier)"
            return WebPage.redirect(to: back + (back.contains("?") ? "&" : "?") + "done=deleted")
        }
    }

    private func sampleType(_ context: BasicRequestContext) throws -> HKSampleType {
        let identifier = context.parameters.get("identifier") ?? ""
        guard let type = HKObjectType.type(forIdentifier: identifier) as? HKSampleType else {
            throw WebRefusal(.notFound, "There is no sample type called \(identifier).")
        }
        return type
    }

    // MARK: - The page

    func render(_ view: View, calendar: Calendar) async throws -> Response {
        let type = view.type
        var interval = Self.interval(view.span, endingOn: view.day, calendar: calendar)
        if Self.isSleep(type), view.span == .day {
            // A night: from six in the evening before to six in the evening of the day.
            interval = DateInterval(start: interval.start.addingTimeInterval(-6 * 3600), end: interval.end.addingTimeInterval(-6 * 3600))
        }
        let title = TypeNames.title(type.identifier)
        let chart = try await self.chart(view, interval: interval, calendar: calendar)
        let samples = try await self.samples(view, interval: interval, calendar: calendar)
        let here = "/types/\(type.identifier)"
        let dayText = Self.dayText(view.day, calendar: calendar)
        let tabs: [HTML] = Span.allCases.map { span in
            let link = "\(here)?span=\(span.rawValue)&date=\(dayText)"
            return span == view.span ? "<li><a href=\"\(link)\" aria-current=\"page\">\(span.title)</a></li>"
                                     : "<li><a href=\"\(link)\">\(span.title)</a></li>"
        }
        let previous = Self.shift(view.day, view.span, by: -1, calendar: calendar)
        let next = Self.shift(view.day, view.span, by: 1, calendar: calendar)
        let nextLink: HTML = next > Date() ? "<span></span>" : "<a href=\"\(here)?span=\(view.span.rawValue)&date=\(Self.dayText(next, calendar: calendar))\">Later →</a>"
        let done: String? = switch view.done {
        case "added": "Your entry was added."
        case "deleted": "The sample was deleted."
        case "priority": "The order of sources was changed: merged figures follow it from now on."
        default: nil
        }
        return WebPage.render(title, section: .summary, """
            \(WebPage.notice(done, error: false))
            <ul class="tabs" aria-label="Time span">\(tabs)</ul>
            <div class="pager"><a href="\(here)?span=\(view.span.rawValue)&date=\(Self.dayText(previous, calendar: calendar))">← Earlier</a>
            <strong>\(Self.describe(interval, view.span, calendar: calendar))</strong>\(nextLink)</div>
            \(chart)
            \(samples)
            \(entryForm(view, calendar: calendar))
            \(try priority(view))
            """)
    }

    /// The chart of the interval, and its headline figure.
    private func chart(_ view: View, interval: DateInterval, calendar: Calendar) async throws -> HTML {
        let (component, count) = Self.buckets(view.span, interval: interval, calendar: calendar)
        var starts: [Date] = []
        var cursor = interval.start
        for _ in 0..<count {
            starts.append(cursor)
            cursor = calendar.date(byAdding: component, value: 1, to: cursor) ?? cursor.addingTimeInterval(3600)
        }
        var buckets = starts.map { SVGChart.Bucket(label: Self.label($0, view.span, calendar: calendar), name: Self.name($0, view.span, calendar: calendar)) }
        let title = TypeNames.title(view.type.identifier)
        switch view.type {
        case let type as HKQuantityType:
            let cumulative = type.aggregationStyle == .cumulative
            let unit = try app.person.preferredUnit(for: type)
            let unitName = TypeNames.unit(unit, of: type)
            if view.span == .month || view.span == .year {
                // A month or a year from the store's kept days (a year of heart rate is millions of readings).
                let days = try await ChartDays(person: app.person, database: app.locking.database).days(of: type, in: interval, calendar: calendar)
                buckets = ChartDays.buckets(buckets, starts: starts, days: days, type: type, unit: unit)
            } else {
                var step = DateComponents()
                step.setValue(1, for: component)
                var descriptor = HKStatisticsCollectionQueryDescriptor(
                    predicate: .quantitySample(type: type, predicate: HKQuery.predicateForSamples(withStart: starts.first, end: cursor)),
                    options: cumulative ? .cumulativeSum : [.discreteAverage, .discreteMin, .discreteMax],
                    anchorDate: interval.start, intervalComponents: step)
                descriptor.calendar = calendar
                for statistics in try await descriptor.result(for: app.person.healthStore).statistics() {
                    guard let index = starts.firstIndex(of: statistics.startDate) else { continue }
                    buckets[index].value = cumulative ? statistics.sumQuantity()?.doubleValue(for: unit) : statistics.averageQuantity()?.doubleValue(for: unit)
                    buckets[index].minimum = statistics.minimumQuantity()?.doubleValue(for: unit)
                    buckets[index].maximum = statistics.maximumQuantity()?.doubleValue(for: unit)
                }
            }
            let total = buckets.compactMap(\.value).reduce(0, +)
            let averages = buckets.compactMap(\.value)
            let weighted = averages.reduce(0, +), samples = averages.count
            let headline: HTML = cumulative
                ? "<p><span class=\"figure\">\(SVGChart.figure(total)) \(unitName)</span> <span class=\"muted\">in total</span></p>"
                : samples == 0 ? "<p class=\"muted\">No data in this time.</p>"
                : "<p><span class=\"figure\">\(SVGChart.figure(weighted / Double(samples))) \(unitName)</span> <span class=\"muted\">on average</span></p>"
            var chart = SVGChart(buckets: buckets, style: cumulative ? .bars : .band, unit: unitName, title: title)
            if view.span == .year, !cumulative {
                chart.description = "For each month, a band from the lowest to the highest value, and a line through the average of its days' averages."
            }
            return headline.markup.isEmpty ? chart.render() : "\(headline)\(chart.render())"
        case let type as HKCategoryType where Self.isSleep(type) && view.span == .day:
            let descriptor = HKSampleQueryDescriptor(
                predicates: [.categorySample(type: type, predicate: HKQuery.predicateForSamples(withStart: interval.start, end: interval.end))],
                sortDescriptors: [SortDescriptor(\.startDate)])
            let samples = try await descriptor.result(for: app.person.healthStore)
            let asleep = samples.filter { Self.asleepValues.contains($0.value) }
                .reduce(0.0) { $0 + $1.endDate.timeIntervalSince($1.startDate) } / 3600
            let spans = samples.map { SVGShapes.SleepSpan(stage: $0.value, start: $0.startDate, end: $0.endDate) }
            let timeline = SVGShapes.sleepTimeline(spans, interval: interval, calendar: calendar,
                                                   title: "Sleep stages, \(Self.describe(interval, .week, calendar: calendar))")
            return "<p><span class=\"figure\">\(SVGChart.figure(asleep)) h</span> <span class=\"muted\">asleep</span></p>\(timeline)"
        case let type as HKCategoryType:
            // The time recorded per period (minutes of mindfulness…); for sleep, the time asleep, counted on the day the
            // sleep ended (a night belongs to the morning after).
            let sleep = Self.isSleep(type)
            let descriptor = HKSampleQueryDescriptor(
                predicates: [.categorySample(type: type, predicate: HKQuery.predicateForSamples(withStart: interval.start, end: interval.end))],
                sortDescriptors: [SortDescriptor(\.startDate)])
            var total = 0.0
            for sample in try await descriptor.result(for: app.person.healthStore) where !sleep || Self.asleepValues.contains(sample.value) {
                let when = sleep ? sample.endDate.addingTimeInterval(-0.001) : sample.startDate
                guard let index = starts.lastIndex(where: { $0 <= when }) else { continue }
                let hours = sample.endDate.timeIntervalSince(sample.startDate) / 3600
                buckets[index].value = (buckets[index].value ?? 0) + hours
                total += hours
            }
            let what = sleep ? "asleep" : "recorded"
            let chart = SVGChart(buckets: buckets, style: .bars, unit: "h", title: "\(title): hours \(what)")
            return "<p><span class=\"figure\">\(SVGChart.figure(total)) h</span> <span class=\"muted\">\(what)</span></p>\(chart.render())"
        case is HKStateOfMindType:
            // As the Health app's State of Mind chart: per period, the range of valences and their average.
            let descriptor = HKSampleQueryDescriptor(
                predicates: [.stateOfMind(HKQuery.predicateForSamples(withStart: interval.start, end: interval.end))],
                sortDescriptors: [SortDescriptor(\.startDate)])
            var valences: [Int: [Double]] = [:]
            for state in try await descriptor.result(for: app.person.healthStore) {
                guard let index = starts.lastIndex(where: { $0 <= state.startDate }) else { continue }
                valences[index, default: []].append(state.valence)
            }
            for (index, values) in valences {
                buckets[index].value = values.reduce(0, +) / Double(values.count)
                buckets[index].minimum = values.min()
                buckets[index].maximum = values.max()
            }
            let all = valences.values.joined()
            let headline: HTML = all.isEmpty ? "<p class=\"muted\">No data in this time.</p>"
                : "<p><span class=\"figure\">\(all.count)</span> <span class=\"muted\">logged, average valence \(SVGChart.figure(all.reduce(0, +) / Double(all.count)))</span></p>"
            let chart = SVGChart(buckets: buckets, style: .band, unit: "valence", title: "\(title): valence from -1 to 1")
            return "\(headline)\(chart.render())"
        default:
            return .empty
        }
    }

    /// The samples of the interval, newest first, one page of them.
    private func samples(_ view: View, interval: DateInterval, calendar: Calendar) async throws -> HTML {
        let predicate = HKQuery.predicateForSamples(withStart: interval.start, end: interval.end)
        // Counted up to the deepest page: beyond it a shorter time is needed anyway.
        let total = try app.person.sampleCount(of: view.type, predicate: predicate, upTo: Self.maximumPage * Self.pageSize + 1)
        guard total > 0 else { return "<h2>Samples</h2><p class=\"muted\">No samples in this time.</p>" }
        let descriptor = HKSampleQueryDescriptor(predicates: [.sample(type: view.type, predicate: predicate)],
                                                 sortDescriptors: [SortDescriptor(\.startDate, order: .reverse)],
                                                 limit: view.page * Self.pageSize)
        let page = try await descriptor.result(for: app.person.healthStore).dropFirst((view.page - 1) * Self.pageSize)
        let unit = try (view.type as? HKQuantityType).map { try app.person.preferredUnit(for: $0) }
        var style = Date.FormatStyle.dateTime.day().month(.abbreviated).year().hour().minute()
        style.timeZone = calendar.timeZone
        let back = "/types/\(view.type.identifier)?span=\(view.span.rawValue)&date=\(Self.dayText(view.day, calendar: calendar))&page=\(view.page)"
        // Signed samples are marked, never refused: what the signature says against the makers the person trusts.
        var marks: [UUID: HTML] = [:]
        let signed = page.filter { $0.metadata?[HKMetadataKeyDigitalSignature] != nil }
        if !signed.isEmpty {
            let signers = try app.person.trustedSigners()
            for sample in signed { marks[sample.uuid] = Self.mark(await sample.verifyDigitalSignature(trusting: signers)) }
        }
        let rows: [HTML] = page.map { sample in
            """
            <tr><td>\(sample.startDate.formatted(style))</td><td class="number">\(Self.value(of: sample, unit: unit))\(marks[sample.uuid] ?? .empty)</td>\
            <td>\(sample.sourceRevision.source.name)</td>\
            <td><form method="post" action="/samples/\(sample.uuid.uuidString)/delete" class="inline" data-confirm="Delete this sample?">\
            \(WebPage.csrfField())<input type="hidden" name="back" value="\(back)">\
            <button type="submit" class="small secondary" aria-label="Delete the sample of \(sample.startDate.formatted(style))">Delete</button></form></td></tr>
            """
        }
        let pages = min((total + Self.pageSize - 1) / Self.pageSize, Self.maximumPage)
        let base = "/types/\(view.type.identifier)?span=\(view.span.rawValue)&date=\(Self.dayText(view.day, calendar: calendar))"
        let newer: HTML = view.page > 1 ? "<a href=\"\(base)&page=\(view.page - 1)\">← Newer</a>" : "<span></span>"
        let older: HTML = view.page < pages ? "<a href=\"\(base)&page=\(view.page + 1)\">Older →</a>" : "<span></span>"
        return """
            <h2>Samples</h2>
            <p class="muted">\(total > Self.maximumPage * Self.pageSize ? "More than \((Self.maximumPage * Self.pageSize).formatted())" : total.formatted()) in this time; \
            page \(view.page) of \(pages)\(total > Self.maximumPage * Self.pageSize ? " (a shorter time shows the older ones)" : "").</p>
            <div class="table-wrap"><table><thead><tr><th scope="col">When</th><th scope="col">Value</th><th scope="col">Source</th>\
            <th scope="col"><span class="hide-narrow">Delete</span></th></tr></thead><tbody>\(rows)</tbody></table></div>
            <div class="pager">\(newer)\(older)</div>
            """
    }

    /// The type's sources in priority order (the merged statistics take overlapping data from the first), each movable.
    private func priority(_ view: View) throws -> HTML {
        let sources = try app.person.sourcePriority(for: view.type)
        guard sources.count > 1 else { return .empty }
        let rows: [HTML] = sources.enumerated().map { index, source in
            func move(_ direction: String, _ title: String, enabled: Bool) -> HTML {
                guard enabled else { return .empty }
                return """
                    <form method="post" action="/types/\(view.type.identifier)/priority" class="inline">\(WebPage.csrfField())\
                    <input type="hidden" name="source" value="\(source.bundleIdentifier)"><input type="hidden" name="span" value="\(view.span.rawValue)">\
                    <button type="submit" name="direction" value="\(direction)" class="small secondary" aria-label="\(title): \(source.name)">\(title)</button></form>
                    """
            }
            return "<li><span>\(index + 1). \(source.name)</span><span>\(move("up", "Move up", enabled: index > 0)) \(move("down", "Move down", enabled: index < sources.count - 1))</span></li>"
        }
        return """
            <h2 id="sources">Data sources</h2>
            <p class="muted">Where sources overlap, the merged figures take the data of the one higher in this list.</p>
            <ol class="switches">\(rows)</ol>
            """
    }

    private func entryForm(_ view: View, calendar: Calendar) -> HTML {
        guard let type = view.type as? HKQuantityType else { return .empty }
        let unit = (try? app.person.preferredUnit(for: type))?.unitString ?? ""
        // Now, on the 24-hour clock of the person's time zone (what `<input type="time">` takes).
        let now = calendar.dateComponents([.hour, .minute], from: Date())
        let entry = view.entry ?? (value: "", unit: unit, date: Self.dayText(calendar.startOfDay(for: Date()), calendar: calendar),
                                   time: String(format: "%02d:%02d", now.hour ?? 0, now.minute ?? 0))
        return """
            <h2 id="add">Add data</h2>
            \(WebPage.notice(view.problem))
            <form method="post" action="/types/\(type.identifier)/entries" class="row">
            \(WebPage.csrfField())
            <label>Value <input name="value" inputmode="decimal" value="\(entry.value)" required></label>
            <label>Unit <input name="unit" value="\(entry.unit)" size="8" required></label>
            <label>Date <input name="date" type="date" value="\(entry.date)" required></label>
            <label>Time <input name="time" type="time" value="\(entry.time)" required></label>
            <button type="submit">Add</button>
            </form>
            """
    }

    // MARK: - Time

    static func isSleep(_ type: HKSampleType) -> Bool { type.identifier == HKCategoryTypeIdentifier.sleepAnalysis.rawValue }

    /// Sleep analysis values that are sleep (not in bed, not awake).
    static let asleepValues: Set<Int> = [1, 3, 4, 5]

    /// The interval a span ending on `day` covers: that day; the week of seven days ending on it; its month; the twelve
    /// months ending with its month.
    static func interval(_ span: Span, endingOn day: Date, calendar: Calendar) -> DateInterval {
        let start = calendar.startOfDay(for: day)
        switch span {
        case .day:
            return DateInterval(start: start, end: calendar.date(byAdding: .day, value: 1, to: start)!)
        case .week:
            return DateInterval(start: calendar.date(byAdding: .day, value: -6, to: start)!, end: calendar.date(byAdding: .day, value: 1, to: start)!)
        case .month:
            return calendar.dateInterval(of: .month, for: start)!
        case .year:
            let month = calendar.dateInterval(of: .month, for: start)!
            return DateInterval(start: calendar.date(byAdding: .month, value: -11, to: month.start)!, end: month.end)
        }
    }

    static func buckets(_ span: Span, interval: DateInterval, calendar: Calendar) -> (Calendar.Component, Int) {
        switch span {
        case .day: (.hour, calendar.dateComponents([.hour], from: interval.start, to: interval.end).hour ?? 24)
        case .week, .month: (.day, calendar.dateComponents([.day], from: interval.start, to: interval.end).day ?? 7)
        case .year: (.month, 12)
        }
    }

    static func shift(_ day: Date, _ span: Span, by steps: Int, calendar: Calendar) -> Date {
        switch span {
        case .day: calendar.date(byAdding: .day, value: steps, to: day)!
        case .week: calendar.date(byAdding: .day, value: 7 * steps, to: day)!
        case .month: calendar.date(byAdding: .month, value: steps, to: day)!
        case .year: calendar.date(byAdding: .year, value: steps, to: day)!
        }
    }

    static func label(_ start: Date, _ span: Span, calendar: Calendar) -> String {
        var style: Date.FormatStyle
        switch span {
        case .day:
            let hour = calendar.component(.hour, from: start)
            return hour % 6 == 0 ? String(hour) : ""
        case .week: style = .dateTime.weekday(.abbreviated)
        case .month:
            let day = calendar.component(.day, from: start)
            return day == 1 || day % 5 == 0 ? String(day) : ""
        case .year: style = .dateTime.month(.abbreviated)
        }
        style.timeZone = calendar.timeZone
        return start.formatted(style)
    }

    static func name(_ start: Date, _ span: Span, calendar: Calendar) -> String {
        var style: Date.FormatStyle = switch span {
        case .day: .dateTime.hour().minute()
        case .week, .month: .dateTime.weekday(.abbreviated).day().month(.abbreviated)
        case .year: .dateTime.month(.wide).year()
        }
        style.timeZone = calendar.timeZone
        return start.formatted(style)
    }

    static func describe(_ interval: DateInterval, _ span: Span, calendar: Calendar) -> String {
        var style = Date.FormatStyle.dateTime.day().month(.abbreviated).year()
        style.timeZone = calendar.timeZone
        let last = interval.end.addingTimeInterval(-1)
        switch span {
        case .day: return interval.start.formatted(style.weekday(.wide))
        case .week, .year: return "\(interval.start.formatted(style)) – \(last.formatted(style))"
        case .month:
            var month = Date.FormatStyle.dateTime.month(.wide).year()
            month.timeZone = calendar.timeZone
            return interval.start.formatted(month)
        }
    }

    static func dayText(_ day: Date, calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: day)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    static func parseDay(_ text: String, calendar: Calendar) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...9999).contains(year), (1...12).contains(month), (1...31).contains(day) else { return nil }
        let components = DateComponents(year: year, month: month, day: day)
        guard let date = calendar.date(from: components),
              calendar.dateComponents([.year, .month, .day], from: date) == components else { return nil }
        return date
    }

    /// Seconds after midnight of "HH:MM".
    static func parseTime(_ text: String) -> TimeInterval? {
        let parts = text.split(separator: ":")
        guard parts.count >= 2, let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        return TimeInterval(hour * 3600 + minute * 60)
    }

    /// A signed sample's mark: what its signature says, the reason as its tooltip.
    static func mark(_ verification: SampleSignatureVerification) -> HTML {
        let (text, style): (String, String) = switch verification.status {
        case .verified: ("✓ signed\(verification.signer.map { " by \($0)" } ?? "")", "signed verified")
        case .valuesDiffer: ("⚠ changed since it was signed", "signed altered")
        case .contentNotUnderstood: ("signed (values not comparable)", "signed")
        case .untrustedSigner: ("signed by a maker you do not trust", "signed")
        case .invalid: ("⚠ signature does not verify", "signed altered")
        case .unsigned: ("", "")
        }
        guard !text.isEmpty else { return .empty }
        return "<br><span class=\"\(style)\" title=\"\(verification.reason)\">\(text)</span>"
    }

    static func value(of sample: HKSample, unit: HKUnit?) -> String {
        switch sample {
        case let quantity as HKQuantitySample:
            guard let unit else { return "" }
            return "\(SVGChart.figure(quantity.quantity.doubleValue(for: unit))) \(TypeNames.unit(unit, of: quantity.sampleType))"
        case let category as HKCategorySample:
            let minutes = category.endDate.timeIntervalSince(category.startDate) / 60
            return "value \(category.value), \(SVGChart.figure(minutes)) min"
        case let workout as HKWorkout:
            return "\(WorkoutPages.activityName(workout.workoutActivityType)), \(SVGChart.figure(workout.duration / 60)) min"
        case let correlation as HKCorrelation:
            return "\(correlation.objects.count) values"
        case let state as HKStateOfMind:
            let words = state.labels.map { "\($0)" } + state.associations.map { "\($0)" }
            return "\(state.kind == .dailyMood ? "daily mood" : "emotion") \(SVGChart.figure(state.valence)) (\(state.valenceClassification))"
                + (words.isEmpty ? "" : ": " + words.joined(separator: ", "))
        case let gad7 as HKGAD7Assessment:
            return "score \(gad7.score) of 21, \(gad7.risk)"
        case let phq9 as HKPHQ9Assessment:
            return "score \(phq9.score) of 27, \(phq9.risk)"
        case let audiogram as HKAudiogramSample:
            let hertz = audiogram.sensitivityPoints.map { $0.frequency.doubleValue(for: .hertz()) }
            guard let low = hertz.first, let high = hertz.last else { return "no points" }
            return "\(hertz.count) frequencies, \(SVGChart.figure(low))–\(SVGChart.figure(high)) Hz"
        case let prescription as HKVisionPrescription:
            func eye(_ name: String, _ lens: HKLensSpecification?) -> String? {
                guard let lens else { return nil }
                var text = "\(name) \(SVGChart.figure(lens.sphere.doubleValue(for: .diopter()))) D"
                if let cylinder = lens.cylinder { text += " cyl \(SVGChart.figure(cylinder.doubleValue(for: .diopter())))" }
                if let axis = lens.axis { text += " × \(SVGChart.figure(axis.doubleValue(for: .degreeAngle())))°" }
                return text
            }
            let lenses = [eye("right", prescription.lenses.right), eye("left", prescription.lenses.left)].compactMap { $0 }
            return ObjectAuthorizationSheet.summary(of: prescription) + (lenses.isEmpty ? "" : ": " + lenses.joined(separator: ", "))
        default:
            return ""
        }
    }
}
