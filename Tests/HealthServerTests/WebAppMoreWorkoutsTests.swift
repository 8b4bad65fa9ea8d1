import Foundation
@testable import HealthServer
import OpenHealthKit
import Testing

private let exports = WebAppMoreFixtures.exports.appendingPathComponent("NicolasReyrolle_apple-health-analyzer/exports")

/// The store's workouts, newest first, as the person sees them.
private func workouts(_ web: WebAppHarness) async throws -> [HKWorkout] {
    try await HKSampleQueryDescriptor(predicates: [.workout()], sortDescriptors: [SortDescriptor(\.startDate, order: .reverse)])
        .result(for: web.daemon.person().healthStore)
}

/// A point of an SVG drawing, from `"x,y"` or a circle's centre.
private struct Point: Equatable {
    var x: Double
    var y: Double
}

/// Workouts with their routes (`/workouts`, `/workouts/{uuid}`) and the activity rings (`/activity`).
@Suite("The web app: workouts and activity")
struct WebAppMoreWorkoutsTests {
    @Test func workoutsAreListedNewestFirstAndARouteIsDrawnFromItsPoints() async throws {
        try await WebAppHarness.with { web in
            let empty = try await web.browser.get("/workouts")
            #expect(empty.status == 200 && empty.heading == "Workouts" && empty.body.contains("No workouts yet."))
            // A run with its GPS route (3,654 points) and a strength workout without one, as the person's export holds them.
            let person = try web.daemon.person()
            #expect(try person.importExport(at: exports.appendingPathComponent("workout_running.xml")).added[HKWorkoutRouteTypeIdentifier] == 1)
            _ = try person.importExport(at: exports.appendingPathComponent("workout_strength.xml"))
            _ = try web.utc()
            let stored = try await workouts(web)
            #expect(stored.map(\.workoutActivityType) == [.running, .functionalStrengthTraining])
            let run = stored[0], strength = stored[1]

            let list = try await web.browser.get("/workouts")
            #expect(list.body.contains("2 workouts; page 1 of 1."), "\(list.body)")
            #expect(list.rows.map { $0[0] } == ["Running", "Functional Strength Training"], "\(list.rows)")
            #expect(list.rows.map { $0[2] } == ["1 h 1 min", "20 min"], "60.9 and 20.3 minutes: \(list.rows)")
            #expect(list.rows.allSatisfy { $0.last == "Apple Watch" }, "\(list.rows)")
            #expect(list.body.contains("<a href=\"/workouts/\(run.uuid.uuidString)\">Running</a>"))
            #expect(list.body.contains("<a href=\"/workouts/\(strength.uuid.uuidString)\">Functional Strength Training</a>"))

            let route = try #require(try await HKSampleQueryDescriptor(predicates: [.workoutRoute(HKQuery.predicateForObjects(from: run))],
                                                                       sortDescriptors: []).result(for: person.healthStore).first)
            #expect(route.count == 3_654)
            let detail = try await web.browser.get("/workouts/\(run.uuid.uuidString)")
            #expect(detail.status == 200 && detail.heading == "Running", "\(detail.status)")
            #expect(detail.body.contains("<dt>Duration</dt><dd>1 h 1 min</dd>") && detail.body.contains("<dt>Source</dt><dd>Apple Watch</dd>"))
            #expect(detail.body.contains("<h2>Route</h2><svg class=\"route\""), "\(detail.body)")
            #expect(detail.body.contains("<title id=\"route-title\">The route of the running, 3654 points</title>"))
            let line = try #require(WebClient.Page.first(#"<polyline class="route-line" points="([^"]*)"/>"#, in: detail.body))
            let points = line.split(separator: " ").map { pair -> Point in
                let xy = pair.split(separator: ",").compactMap { Double($0) }
                return Point(x: xy.first ?? .nan, y: xy.last ?? .nan)
            }
            #expect(points.count >= 2 && points.count <= route.count, "\(points.count) of \(route.count) points")
            #expect(points.count < route.count, "points closer than a pixel are drawn once")
            #expect(points.allSatisfy { (0...480).contains($0.x) && (0...360).contains($0.y) }, "inside the drawing")
            // The route fills the drawing to its margin one way or the other.
            let xs = points.map(\.x), ys = points.map(\.y)
            #expect(abs((xs.max()! - xs.min()!) - 448) < 1 || abs((ys.max()! - ys.min()!) - 328) < 1, "\(xs.min()!)…\(xs.max()!) \(ys.min()!)…\(ys.max()!)")
            func circle(_ kind: String) -> Point? {
                WebClient.Page.tags("circle", in: detail.body).first { $0["class"] == kind }
                    .flatMap { tag in Double(tag["cx"] ?? "").flatMap { x in Double(tag["cy"] ?? "").map { Point(x: x, y: $0) } } }
            }
            #expect(circle("route-start") == points.first && circle("route-end") == points.last, "the start and end marked where the line begins and ends")
            #expect(detail.body.contains("<title>Start</title>") && detail.body.contains("<title>End</title>"))

            let plain = try await web.browser.get("/workouts/\(strength.uuid.uuidString)")
            #expect(plain.status == 200 && plain.heading == "Functional Strength Training")
            #expect(plain.body.contains("No route was recorded with this workout.") && !plain.body.contains("<svg class=\"route\""))
            #expect(plain.body.contains("<dt>Duration</dt><dd>20 min</dd>"))
        }
    }

    @Test func aWorkoutShowsItsEffortTheRatedScoreBeforeTheEstimate() async throws {
        try await WebAppHarness.with { web in
            _ = try web.utc()
            let app = HKHealthStore(configuration: .init(storeDirectory: web.daemon.store, app: .steps, presenter: ScriptedPresenter(.allowAll)))
            let effort = HKQuantityType(.workoutEffortScore), estimated = HKQuantityType(.estimatedWorkoutEffortScore)
            try await app.requestAuthorization(toShare: [HKObjectType.workoutType(), effort, estimated], read: [])
            let start = WebAppHarness.at("2025-06-10", "07:00")
            let workout = HKWorkout(activityType: .cycling, start: start, end: start.addingTimeInterval(3600))
            try await app.save(workout)
            func score(_ type: HKQuantityType, _ value: Double) -> HKQuantitySample {
                HKQuantitySample(type: type, quantity: HKQuantity(unit: .appleEffortScore(), doubleValue: value), start: start, end: workout.endDate)
            }
            let page = "/workouts/\(workout.uuid.uuidString)"
            #expect(!(try await web.browser.get(page).body.contains("<dt>Effort</dt>")), "no effort related yet")
            #expect(try await app.relateWorkoutEffortSample(score(estimated, 6), with: workout, activity: nil))
            #expect(try await web.browser.get(page).body.contains("<dt>Effort</dt><dd>6 (moderate, estimated)</dd>"))
            #expect(try await app.relateWorkoutEffortSample(score(effort, 8), with: workout, activity: nil))
            #expect(try await web.browser.get(page).body.contains("<dt>Effort</dt><dd>8 (hard)</dd>"))
        }
    }

    @Test func anUnknownWorkoutIs404AndAMalformedOne400() async throws {
        try await WebAppHarness.with { web in
            let unknown = try await web.browser.get("/workouts/\(UUID().uuidString)")
            #expect(unknown.status == 404 && unknown.isHTML && unknown.message == "No workout has that identifier.", "\(unknown.status)")
            for bad in ["not-a-uuid", "%3Cscript%3E"] {
                let malformed = try await web.browser.get("/workouts/\(bad)")
                #expect(malformed.status == 400 && malformed.message == "That is not a workout's identifier.", "\(bad): \(malformed.status)")
                #expect(!malformed.body.contains("<script>"))
            }
            for page in ["0", "101", "x"] {
                let refused = try await web.browser.get("/workouts?page=\(page)")
                #expect(refused.status == 400 && refused.message == "Pages go from 1 to 100.", "\(page): \(refused.status)")
            }
        }
    }

    /// A day's rings: energy in kcal, exercise in minutes, stand in hours, each with its goal.
    private func rings(_ day: Int, move: Double, moveGoal: Double = 500, exercise: Double, stand: Double) -> HKActivitySummary {
        let summary = HKActivitySummary(dateComponents: DateComponents(year: 2025, month: 6, day: day))
        summary.activeEnergyBurned = HKQuantity(unit: .kilocalorie(), doubleValue: move)
        summary.activeEnergyBurnedGoal = HKQuantity(unit: .kilocalorie(), doubleValue: moveGoal)
        summary.appleExerciseTime = HKQuantity(unit: .minute(), doubleValue: exercise)
        summary.exerciseTimeGoal = HKQuantity(unit: .minute(), doubleValue: 30)
        summary.appleStandHours = HKQuantity(unit: .count(), doubleValue: stand)
        summary.standHoursGoal = HKQuantity(unit: .count(), doubleValue: 12)
        return summary
    }

    /// Each ring of the page's cards: its kind (move, exercise, stand) and how much of its circle is drawn.
    private func ringShares(_ page: WebClient.Page) -> [[(kind: String, share: Double)]] {
        WebClient.Page.all(#"<svg class="rings"[^>]*>(.*?)</svg>"#, in: page.body).map { svg in
            WebClient.Page.tags("circle", in: svg).filter { $0["class"]?.hasPrefix("ring ") == true }.map { circle in
                let dash = (circle["stroke-dasharray"] ?? "").split(separator: " ").compactMap { Double($0) }
                let radius = Double(circle["r"] ?? "") ?? 0
                let circumference = 2 * Double.pi * radius
                #expect(dash.count == 2 && abs(dash[1] - circumference) < 0.06, "\(circle)")
                return (String(circle["class"]!.dropFirst(5)), (dash.first ?? -1) / circumference)
            }
        }
    }

    @Test func theWeeksRingsAreDrawnInProportionToTheirGoalsWithTheirFigures() async throws {
        try await WebAppHarness.with { web in
            _ = try web.utc()
            let none = try await web.browser.get("/activity?date=2025-06-12")
            #expect(none.status == 200 && none.heading == "Activity" && none.body.contains("No activity rings in this week."))
            try web.daemon.person().saveActivitySummaries([
                rings(1, move: 900, exercise: 60, stand: 12),         // the week before
                rings(10, move: 250, exercise: 15, stand: 6),
                rings(11, move: 750, exercise: 45, stand: 3),         // past the move and exercise goals
                rings(12, move: 0, moveGoal: 0, exercise: 0, stand: 0),  // no move goal
            ])
            let week = try await web.browser.get("/activity?date=2025-06-12")
            #expect(week.status == 200)
            let cards = ringShares(week)
            #expect(cards.count == 3, "the 10th, 11th and 12th: \(cards.count)")
            #expect(cards.allSatisfy { $0.map(\.kind) == ["move", "exercise", "stand"] })
            func near(_ card: [(kind: String, share: Double)], _ shares: [Double]) -> Bool {
                card.count == 3 && zip(card.map(\.share), shares).allSatisfy { abs($0 - $1) < 0.002 }
            }
            // Newest first: the 12th (nothing), the 11th (full, full, a quarter), the 10th (half, half, half).
            #expect(near(cards[0], [0, 0, 0]), "\(cards[0])")
            #expect(near(cards[1], [1, 1, 0.25]), "\(cards[1])")
            #expect(near(cards[2], [0.5, 0.5, 0.5]), "\(cards[2])")
            #expect(week.body.contains("<span class=\"move-text\">250/500 kcal</span>") && week.body.contains("<span class=\"exercise-text\">15/30 min</span>")
                    && week.body.contains("<span class=\"stand-text\">6/12 h</span>"), "\(week.body)")
            #expect(week.body.contains("<span class=\"move-text\">750/500 kcal</span>"), "beyond the goal the figure says how far")
            let titles = WebClient.Page.all(#"<svg class="rings"[^>]*><title>(.*?)</title>"#, in: week.body)
            #expect(titles.count == 3 && titles[2].hasSuffix(": move 250 of 500 kcal, exercise 15 of 30 min, stand 6 of 12 h"), "\(titles)")
            #expect(!week.body.contains("900/500 kcal"), "the 1st is another week")

            // Without a date: the week of the last day with rings.
            let latest = try await web.browser.get("/activity")
            #expect(ringShares(latest).count == 3)
            let earlier = try await web.browser.get("/activity?date=2025-06-05")
            #expect(ringShares(earlier).count == 1 && earlier.body.contains("<span class=\"move-text\">900/500 kcal</span>"))
            #expect(week.body.contains("<a href=\"/activity?date=2025-06-05\">← Earlier</a>"))
        }
    }

    @Test func aMoveRingCountingMinutesIsDrawnFromTheMinutes() async throws {
        try await WebAppHarness.with { web in
            _ = try web.utc()
            let summary = rings(10, move: 0, moveGoal: 0, exercise: 15, stand: 6)
            summary.activityMoveMode = .appleMoveTime
            summary.appleMoveTime = HKQuantity(unit: .minute(), doubleValue: 30)
            summary.appleMoveTimeGoal = HKQuantity(unit: .minute(), doubleValue: 60)
            try web.daemon.person().saveActivitySummaries([summary])
            let page = try await web.browser.get("/activity?date=2025-06-10")
            let card = try #require(ringShares(page).first)
            #expect(card.count == 3 && abs(card[1].share - 0.5) < 0.002, "the exercise ring: \(card)")
            #expect(abs((card.first?.share ?? 0) - 0.5) < 0.002, "\(card)")
            #expect(page.body.contains("30/60 min"), "the move figure in minutes")
        }
    }

    @Test func aBadActivityDateIsA400Page() async throws {
        try await WebAppHarness.with { web in
            for date in ["bogus", "2025-02-30", "2025-6-1"] {
                let page = try await web.browser.get("/activity?date=\(date)")
                #expect(page.status == 400 && page.isHTML, "\(date): \(page.status)")
                #expect(page.message == "\(date) is not a date (YYYY-MM-DD).", "\(page.message ?? page.body)")
            }
        }
    }
}
