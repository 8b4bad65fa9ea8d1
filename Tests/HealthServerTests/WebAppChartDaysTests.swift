import Foundation
import NIOCore
import HealthStore
import OpenHealthKit
import Testing

/// A month's and a year's charts come from the store's kept daily statistics: the first view keeps the days, and a
/// later write shows at once (the store drops the days it touches).
@Suite("The web app: charts from kept days")
struct WebAppChartDaysTests {
    static let steps = HKQuantityType(.stepCount), heartRate = HKQuantityType(.heartRate)
    static let bpm = HKUnit.count().unitDivided(by: .minute())

    static func keptDays(_ web: WebAppHarness, _ type: HKQuantityType) throws -> Int {
        try HealthDatabase(directory: web.daemon.store).read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM dailyStatistics WHERE type = ? AND day >= 0", arguments: [type.identifier]) ?? 0
        }
    }

    @Test func aYearOfStepsIsTheSumOfItsKeptDaysAndFollowsANewEntry() async throws {
        try await WebAppHarness.with { web in
            try web.entry(Self.steps, 1_000, .count(), at: WebAppHarness.at("2025-03-10", "12:00"))
            try web.entry(Self.steps, 500, .count(), at: WebAppHarness.at("2025-04-10", "12:00"))
            try web.entry(Self.steps, 250, .count(), at: WebAppHarness.at("2025-04-20", "12:00"))
            let path = "/types/\(Self.steps.identifier)?span=year&date=2025-04-30"
            let first = try await web.browser.get(path)
            #expect(first.chartMarks("bar") == ["March 2025: 1,000 steps", "April 2025: 750 steps"], "\(first.chartMarks("bar"))")
            // The twelve months' days were kept (about 365, with or without data).
            #expect(try Self.keptDays(web, Self.steps) >= 365)
            try web.entry(Self.steps, 77, .count(), at: WebAppHarness.at("2025-03-15", "12:00"))
            let second = try await web.browser.get(path)
            #expect(second.chartMarks("bar") == ["March 2025: 1,077 steps", "April 2025: 750 steps"], "\(second.chartMarks("bar"))")
            // The month's chart reads the same kept days.
            let month = try await web.browser.get("/types/\(Self.steps.identifier)?span=month&date=2025-03-31")
            #expect(month.chartMarks("bar").map { $0.components(separatedBy: ": ").last ?? "" } == ["1,000 steps", "77 steps"], "\(month.chartMarks("bar"))")
        }
    }

    @Test func aYearOfHeartRateIsABandPerMonthFromItsDays() async throws {
        try await WebAppHarness.with { web in
            try web.entry(Self.heartRate, 60, Self.bpm, at: WebAppHarness.at("2025-03-10", "12:00"))
            try web.entry(Self.heartRate, 90, Self.bpm, at: WebAppHarness.at("2025-03-10", "12:05"))
            try web.entry(Self.heartRate, 120, Self.bpm, at: WebAppHarness.at("2025-04-10", "12:00"))
            let page = try await web.browser.get("/types/\(Self.heartRate.identifier)?span=year&date=2025-04-30")
            let bands = page.chartMarks("band")
            #expect(bands.count == 2 && bands[0].hasPrefix("March 2025: 60–90 count/min") && bands[1].hasPrefix("April 2025: 120–120 count/min"), "\(bands)")
            #expect(page.body.contains("the average of its days&#39; averages") || page.body.contains("the average of its days' averages"))
            // A lower reading in March widens March's band, nothing else.
            try web.entry(Self.heartRate, 50, Self.bpm, at: WebAppHarness.at("2025-03-20", "12:00"))
            let again = try await web.browser.get("/types/\(Self.heartRate.identifier)?span=year&date=2025-04-30")
            let widened = again.chartMarks("band")
            #expect(widened.count == 2 && widened[0].hasPrefix("March 2025: 50–90 count/min") && widened[1].hasPrefix("April 2025: 120–120"), "\(widened)")
        }
    }
}

extension WebAppChartDaysTests {
    /// After an import through the web app, the last year's days of each quantity type it brought are kept in the
    /// background, before anyone opens a chart.
    @Test func anImportKeepsTheChartDaysOfWhatItBrought() async throws {
        try await WebAppHarness.with { web in
            #expect(try Self.keptDays(web, Self.steps) == 0)
            let page = try await web.browser.get("/import")
            let token = try #require(page.csrf)
            let accepted = try await WebAppMoreHTTP.send(web.browser, .POST, "/import",
                                                         headers: [("content-type", "application/zip"), ("x-csrf-token", token)],
                                                         body: .bytes(ByteBuffer(bytes: try Data(contentsOf: WebAppMoreFixtures.sampleExport))))
            #expect(accepted.status == 202, "\(accepted.status) \(accepted.text)")
            var kept = (steps: 0, heartRate: 0)
            for _ in 0..<600 {   // up to a minute on a loaded machine
                kept = (try Self.keptDays(web, Self.steps), try Self.keptDays(web, Self.heartRate))
                if kept.steps >= 365 && kept.heartRate >= 365 { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(kept.steps >= 365 && kept.heartRate >= 365, "\(kept)")
            // And the year's chart reads them.
            let year = try await web.browser.get("/types/\(Self.steps.identifier)?span=year")
            #expect(!year.chartMarks("bar").isEmpty)
        }
    }
}
