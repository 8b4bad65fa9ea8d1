import Foundation
import OpenHealthKit
import Testing

private let activityType = HKObjectType.activitySummaryType()

private func summary(day: Int, kcal: Double) -> HKActivitySummary {
    let summary = HKActivitySummary(dateComponents: DateComponents(year: 2026, month: 11, day: day))
    summary.activeEnergyBurned = HKQuantity(unit: .kilocalorie(), doubleValue: kcal)
    summary.activeEnergyBurnedGoal = HKQuantity(unit: .kilocalorie(), doubleValue: 500)
    summary.appleExerciseTime = HKQuantity(unit: .minute(), doubleValue: 31)
    summary.exerciseTimeGoal = HKQuantity(unit: .minute(), doubleValue: 30)
    summary.appleStandHours = HKQuantity(unit: .count(), doubleValue: 9)
    return summary
}

private func components(_ day: Int, in calendar: Calendar = Calendar(identifier: .gregorian)) -> DateComponents {
    var gregorian = Calendar(identifier: .gregorian)
    gregorian.timeZone = calendar.timeZone
    var parts = calendar.dateComponents([.era, .year, .month, .day], from: gregorian.date(from: DateComponents(year: 2026, month: 11, day: day, hour: 12))!)
    parts.calendar = calendar
    return parts
}

/// Activity summaries on both backends: the same days, rings, goals and units; the same predicates in any calendar;
/// none for an app that may not read them; a sample predicate refused alike.
@Suite("Activity summaries on both backends")
struct ActivitySummariesTests {
    @Test(arguments: Backend.allCases)
    func summariesAnswerAlikeAndOnlyToAnAppThatMayReadThem(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let moving = summary(day: 3, kcal: 0)
            moving.isPaused = true
            moving.activityMoveMode = .appleMoveTime
            moving.appleMoveTime = HKQuantity(unit: .minute(), doubleValue: 12)
            let inCal = summary(day: 2, kcal: 1)
            inCal.activeEnergyBurned = HKQuantity(unit: HKUnit(from: "Cal"), doubleValue: 487.231)
            try session.person().saveActivitySummaries([moving, summary(day: 1, kcal: 620), inCal] + (4...7).map { summary(day: $0, kcal: Double($0 * 100)) })

            let store = try await session.app(.steps, answering: .allowAll)
            try await store.requestAuthorization(toShare: [], read: [activityType])
            func days(_ predicate: NSPredicate?) async throws -> [HKActivitySummary] {
                try await HKActivitySummaryQueryDescriptor(predicate: predicate).result(for: store)
            }
            let all = try await days(nil)
            let gregorian = Calendar(identifier: .gregorian)
            #expect(all.map { $0.dateComponents(for: gregorian).day } == [1, 2, 3, 4, 5, 6, 7])
            #expect(all[0].activeEnergyBurned == HKQuantity(unit: .kilocalorie(), doubleValue: 620) && all[0].standHoursGoal == nil)
            #expect(all[0].exerciseTimeGoal == HKQuantity(unit: .minute(), doubleValue: 30) && all[0].appleStandHours.doubleValue(for: .count()) == 9)
            #expect(all[1].activeEnergyBurned.description == "487.231 Cal", "the unit it was stored in")
            #expect(all[2].isPaused && all[2].activityMoveMode == .appleMoveTime && all[2].appleMoveTime.doubleValue(for: .minute()) == 12)

            let range = HKQuery.predicate(forActivitySummariesBetweenStart: components(4), end: components(6))
            #expect(try await days(range).map { $0.activeEnergyBurned.doubleValue(for: .kilocalorie()) } == [400, 500, 600])
            let hebrew = try await days(HKQuery.predicateForActivitySummary(with: components(7, in: Calendar(identifier: .hebrew))))
            #expect(hebrew.map { $0.activeEnergyBurned.doubleValue(for: .kilocalorie()) } == [700])
            let wrongKind = await #expect(throws: HKError.self) { _ = try await days(HKQuery.predicateForSamples(withStart: Date(), end: nil)) }
            #expect(wrongKind?.code == .errorInvalidArgument)

            let blind = try await session.app(.other, answering: .init(default: .allow, read: [activityType.identifier: .deny]))
            try await blind.requestAuthorization(toShare: [], read: [activityType])
            #expect(try await HKActivitySummaryQueryDescriptor(predicate: nil).result(for: blind).isEmpty, "a denied read looks like no data")
        }
    }

    /// The long-running query, on both backends: its results, then each summary the person changes, as an update.
    @Test(.timeLimit(.minutes(3)), arguments: Backend.allCases)
    func theLongRunningQueryHearsEachChangedSummary(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let person = try session.person()
            try person.saveActivitySummaries([summary(day: 1, kcal: 100)])
            let store = try await session.app(.steps, answering: .allowAll)
            try await store.requestAuthorization(toShare: [], read: [activityType])
            let (events, continuation) = AsyncStream<String>.makeStream()
            let query = HKActivitySummaryQuery(predicate: nil) { _, summaries, error in
                continuation.yield(error.map { "results error \($0)" } ?? "results \(summaries?.count ?? -1)")
            }
            query.updateHandler = { _, summaries, error in
                let days = (summaries ?? []).compactMap { $0.dateComponents(for: Calendar(identifier: .gregorian)).day }.sorted()
                continuation.yield(error.map { "update error \($0)" } ?? "update \(days)")
            }
            store.execute(query)
            var heard = events.makeAsyncIterator()
            #expect(await heard.next() == "results 1")
            try person.saveActivitySummaries([summary(day: 2, kcal: 250)])
            #expect(await heard.next() == "update [2]")
            try person.saveActivitySummaries([summary(day: 1, kcal: 480)])
            #expect(await heard.next() == "update [1]")
            store.stop(query)
        }
    }

    /// The daemon's stream as any SSE client sees it: it resumes after the last event's id with what changed meanwhile;
    /// an id of another stream is a 400; and an app that may not read summaries gets one empty answer whose id says
    /// nothing of when they change.
    @Test(.timeLimit(.minutes(3)))
    func theStreamResumesAfterItsLastEventAndTellsABlindAppNothing() async throws {
        try await DaemonHarness.with { daemon in
            let person = try daemon.person()
            try person.saveActivitySummaries([summary(day: 1, kcal: 100)])
            let token = try await daemon.connect("com.example.rings", read: [activityType])
            let path = "/v1/streams/activity-summaries"
            let first = try await EventStream.open(daemon, "{}", token: token, path: path)
            let answer = try #require(try await first.next())
            #expect(answer.event == "summaries" && (answer.json["summaries"] as? [Any])?.count == 1, "\(answer.data)")
            try person.saveActivitySummaries([summary(day: 4, kcal: 300)])
            let resumed = try await EventStream.open(daemon, "{}", token: token, lastEventID: answer.id, path: path)
            let meanwhile = try #require(try await resumed.next())
            let days = (meanwhile.json["summaries"] as? [[String: Any]])?.compactMap { $0["day"] as? String }
            #expect(days == ["2026-11-04"], "\(meanwhile.data)")

            let observer = try await EventStream.open(daemon, #"{"queries":[{"type":"HKQuantityTypeIdentifierStepCount"}]}"#, token: token)
            let observerID = try #require(try await observer.next()?.id)
            let wrong = try await EventStream.open(daemon, "{}", token: token, lastEventID: observerID, path: path)
            #expect(wrong.status == 400 && wrong.problem["field"] as? String == "Last-Event-ID", "\(wrong.problem)")

            let blind = try await daemon.connect("com.example.blind")
            let before = try await EventStream.open(daemon, "{}", token: blind, path: path)
            let empty = try #require(try await before.next())
            #expect(empty.json["summaries"] as? [Any] != nil && (empty.json["summaries"] as? [Any])?.isEmpty == true, "\(empty.data)")
            try person.saveActivitySummaries([summary(day: 5, kcal: 50)])
            let after = try await EventStream.open(daemon, "{}", token: blind, path: path)
            #expect(try await after.next()?.id == empty.id, "a change it may not read does not change the id it gets")
        }
    }
}
