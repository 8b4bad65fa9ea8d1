import Foundation
import HealthModel
import Hummingbird
import OpenHealthKit

/// Workouts and activity rings:
/// - `GET /workouts` — workouts, newest first, 50 a page;
/// - `GET /workouts/{uuid}` — one workout's figures and its route, drawn from its points;
/// - `GET /activity?date=YYYY-MM-DD` — the rings of the week ending that day (the last day with rings by default).
struct WorkoutPages {
    let app: HealthWebApp
    static let pageSize = 50

    func add(to router: Router<BasicRequestContext>) {
        router.get("workouts") { request, _ in
            let page = Int(request.uri.queryParameters.get("page") ?? "1") ?? 0
            guard (1...TypePage.maximumPage).contains(page) else {
                throw WebRefusal(.badRequest, "Pages go from 1 to \(TypePage.maximumPage).")
            }
            return try await list(page: page)
        }
        router.get("workouts/:uuid") { _, context in
            guard let text = context.parameters.get("uuid"), let uuid = UUID(uuidString: text) else {
                throw WebRefusal(.badRequest, "That is not a workout's identifier.")
            }
            return try await detail(uuid)
        }
        router.get("activity") { request, _ in
            let calendar = try app.calendar()
            var day: Date
            if let text = request.uri.queryParameters.get("date") {
                guard let parsed = TypePage.parseDay(text, calendar: calendar) else {
                    throw WebRefusal(.badRequest, "\(text) is not a date (YYYY-MM-DD).")
                }
                day = parsed
            } else {
                day = try lastActivityDay(calendar: calendar) ?? calendar.startOfDay(for: Date())
            }
            return try activity(endingOn: day, calendar: calendar)
        }
    }

    private func list(page: Int) async throws -> Response {
        let calendar = try app.calendar()
        let total = try app.person.sampleCount(of: .workoutType())
        let descriptor = HKSampleQueryDescriptor(predicates: [.workout()], sortDescriptors: [SortDescriptor(\.startDate, order: .reverse)],
                                                 limit: page * Self.pageSize)
        let workouts = try await descriptor.result(for: app.person.healthStore).dropFirst((page - 1) * Self.pageSize)
        var style = Date.FormatStyle.dateTime.weekday(.abbreviated).day().month(.abbreviated).year().hour().minute()
        style.timeZone = calendar.timeZone
        let rows: [HTML] = workouts.map { workout in
            """
            <tr><td><a href="/workouts/\(workout.uuid.uuidString)">\(Self.activityName(workout.workoutActivityType))</a></td>\
            <td>\(workout.startDate.formatted(style))</td><td class="number">\(Self.minutes(workout.duration))</td>\
            <td class="number hide-narrow">\(workout.totalEnergyBurned.map { "\(SVGChart.figure($0.doubleValue(for: .kilocalorie()))) kcal" } ?? "")</td>\
            <td class="number hide-narrow">\(workout.totalDistance.map { "\(SVGChart.figure($0.doubleValue(for: .meterUnit(with: .kilo)))) km" } ?? "")</td>\
            <td class="hide-narrow">\(workout.sourceRevision.source.name)</td></tr>
            """
        }
        let pages = max(1, min((total + Self.pageSize - 1) / Self.pageSize, TypePage.maximumPage))
        let newer: HTML = page > 1 ? "<a href=\"/workouts?page=\(page - 1)\">← Newer</a>" : "<span></span>"
        let older: HTML = page < pages ? "<a href=\"/workouts?page=\(page + 1)\">Older →</a>" : "<span></span>"
        return WebPage.render("Workouts", section: .summary, rows.isEmpty ? "<p class=\"muted\">No workouts yet.</p>" : """
            <p class="muted">\(total.formatted()) workout\(total == 1 ? "" : "s"); page \(page) of \(pages).</p>
            <div class="table-wrap"><table><thead><tr><th scope="col">Workout</th><th scope="col">Started</th><th scope="col">Duration</th>\
            <th scope="col" class="hide-narrow">Energy</th><th scope="col" class="hide-narrow">Distance</th>\
            <th scope="col" class="hide-narrow">Source</th></tr></thead><tbody>\(rows)</tbody></table></div>
            <div class="pager">\(newer)\(older)</div>
            """)
    }

    private func detail(_ uuid: UUID) async throws -> Response {
        let calendar = try app.calendar()
        let store = app.person.healthStore
        let found = try await HKSampleQueryDescriptor(predicates: [.workout(HKQuery.predicateForObject(with: uuid))], sortDescriptors: [])
            .result(for: store)
        guard let workout = found.first else { throw WebRefusal(.notFound, "No workout has that identifier.") }
        var style = Date.FormatStyle.dateTime.weekday(.wide).day().month(.wide).year().hour().minute()
        style.timeZone = calendar.timeZone
        var figures: [HTML] = [
            "<dt>Started</dt><dd>\(workout.startDate.formatted(style))</dd>",
            "<dt>Duration</dt><dd>\(Self.minutes(workout.duration))</dd>",
        ]
        if let energy = workout.totalEnergyBurned {
            figures.append("<dt>Active energy</dt><dd>\(SVGChart.figure(energy.doubleValue(for: .kilocalorie()))) kcal</dd>")
        }
        if let distance = workout.totalDistance {
            figures.append("<dt>Distance</dt><dd>\(SVGChart.figure(distance.doubleValue(for: .meterUnit(with: .kilo)))) km</dd>")
        }
        if let effort = try await Self.effort(of: workout, in: store) { figures.append("<dt>Effort</dt><dd>\(effort)</dd>") }
        figures.append("<dt>Source</dt><dd>\(workout.sourceRevision.source.name)</dd>")
        let routes = try await HKSampleQueryDescriptor(predicates: [.workoutRoute(HKQuery.predicateForObjects(from: workout))],
                                                       sortDescriptors: [SortDescriptor(\.startDate)]).result(for: store)
        var maps: [HTML] = []
        for route in routes {
            var points: [(latitude: Double, longitude: Double)] = []
            for try await location in HKWorkoutRouteQueryDescriptor(route).results(for: store) {
                points.append((location.coordinate.latitude, location.coordinate.longitude))
            }
            maps.append("<h2>Route</h2>\(SVGShapes.route(points, title: "The route of the \(Self.activityName(workout.workoutActivityType).lowercased()), \(points.count) points"))")
        }
        return WebPage.render(Self.activityName(workout.workoutActivityType), section: .summary, """
            <dl class="figures">\(figures)</dl>
            \(maps.isEmpty ? "<p class=\"muted\">No route was recorded with this workout.</p>" as HTML : maps.joined())
            <p><a href="/workouts">All workouts</a></p>
            """)
    }

    private func lastActivityDay(calendar: Calendar) throws -> Date? {
        let summaries = try app.person.activitySummaries()
        return summaries.compactMap { calendar.date(from: $0.dateComponents(for: calendar)) }.max()
    }

    private func activity(endingOn day: Date, calendar: Calendar) throws -> Response {
        let first = calendar.date(byAdding: .day, value: -6, to: day)!
        var startComponents = calendar.dateComponents([.year, .month, .day], from: first)
        var endComponents = calendar.dateComponents([.year, .month, .day], from: day)
        startComponents.calendar = calendar
        endComponents.calendar = calendar
        let summaries = try app.person.activitySummaries(matching: HKQuery.predicate(forActivitySummariesBetweenStart: startComponents, end: endComponents))
        var style = Date.FormatStyle.dateTime.weekday(.abbreviated).day().month(.abbreviated)
        style.timeZone = calendar.timeZone
        let cards: [HTML] = summaries.compactMap { summary -> (Date, HTML)? in
            guard let date = calendar.date(from: summary.dateComponents(for: calendar)) else { return nil }
            // The move ring counts active energy, or minutes of movement for a person whose move mode says so.
            let minutes = summary.activityMoveMode == .appleMoveTime
            let move = minutes ? summary.appleMoveTime.doubleValue(for: .minute()) : summary.activeEnergyBurned.doubleValue(for: .kilocalorie())
            let moveGoal = minutes ? summary.appleMoveTimeGoal.doubleValue(for: .minute()) : summary.activeEnergyBurnedGoal.doubleValue(for: .kilocalorie())
            let moveUnit = minutes ? "min" : "kcal"
            let exercise = summary.appleExerciseTime.doubleValue(for: .minute()), exerciseGoal = summary.appleExerciseTimeGoal.doubleValue(for: .minute())
            let stand = summary.appleStandHours.doubleValue(for: .count()), standGoal = summary.appleStandHoursGoal.doubleValue(for: .count())
            func share(_ value: Double, _ goal: Double) -> Double { goal > 0 ? value / goal : 0 }
            let label = "\(date.formatted(style)): move \(SVGChart.figure(move)) of \(SVGChart.figure(moveGoal)) \(moveUnit), exercise \(SVGChart.figure(exercise)) of \(SVGChart.figure(exerciseGoal)) min, stand \(SVGChart.figure(stand)) of \(SVGChart.figure(standGoal)) h"
            return (date, """
                <li class="card ring-card">\(SVGShapes.rings(move: share(move, moveGoal), exercise: share(exercise, exerciseGoal), stand: share(stand, standGoal), label: label))\
                <div><strong>\(date.formatted(style))</strong><br><span class="move-text">\(SVGChart.figure(move))/\(SVGChart.figure(moveGoal)) \(moveUnit)</span><br>\
                <span class="exercise-text">\(SVGChart.figure(exercise))/\(SVGChart.figure(exerciseGoal)) min</span><br>\
                <span class="stand-text">\(SVGChart.figure(stand))/\(SVGChart.figure(standGoal)) h</span></div></li>
                """)
        }.sorted { $0.0 > $1.0 }.map(\.1)
        let previous = TypePage.dayText(calendar.date(byAdding: .day, value: -7, to: day)!, calendar: calendar)
        let next = calendar.date(byAdding: .day, value: 7, to: day)!
        let nextLink: HTML = next > Date() ? "<span></span>" : "<a href=\"/activity?date=\(TypePage.dayText(next, calendar: calendar))\">Later →</a>"
        return WebPage.render("Activity", section: .summary, """
            <div class="pager"><a href="/activity?date=\(previous)">← Earlier</a>\
            <strong>\(TypePage.describe(DateInterval(start: first, end: calendar.date(byAdding: .day, value: 1, to: day)!), .week, calendar: calendar))</strong>\(nextLink)</div>
            \(cards.isEmpty ? "<p class=\"muted\">No activity rings in this week.</p>" as HTML : "<ul class=\"cards\">\(cards)</ul>")
            """)
    }

    static func activityName(_ type: HKWorkoutActivityType) -> String {
        TypeNames.title(type.exportName.replacingOccurrences(of: "HKWorkoutActivityType", with: ""))
    }

    /// The workout's effort as Fitness shows it: the score the person (or an app) gave it, else the watch's estimate, with
    /// its band (1–3 easy, 4–6 moderate, 7–8 hard, 9–10 all out); nil when none is related to it.
    static func effort(of workout: HKWorkout, in store: HKHealthStore) async throws -> String? {
        let related = HKQuery.predicateForWorkoutEffortSamplesRelated(workout: workout, activity: nil)
        for (type, note) in [(HKQuantityType(.workoutEffortScore), ""), (HKQuantityType(.estimatedWorkoutEffortScore), ", estimated")] {
            let scores = try await HKSampleQueryDescriptor(predicates: [.quantitySample(type: type, predicate: related)],
                                                           sortDescriptors: [SortDescriptor(\.endDate, order: .reverse)], limit: 1).result(for: store)
            guard let score = scores.first?.quantity.doubleValue(for: .appleEffortScore()) else { continue }
            let band = switch score { case ..<4: "easy"; case ..<7: "moderate"; case ..<9: "hard"; default: "all out" }
            return "\(SVGChart.figure(score)) (\(band)\(note))"
        }
        return nil
    }

    static func minutes(_ duration: TimeInterval) -> String {
        let minutes = Int((duration / 60).rounded())
        return minutes >= 60 ? "\(minutes / 60) h \(minutes % 60) min" : "\(minutes) min"
    }
}
