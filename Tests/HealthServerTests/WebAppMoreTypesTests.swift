import Foundation
import HealthAPI
@testable import HealthServer
import OpenHealthKit
import Testing

private let steps = HKQuantityType(.stepCount)
private let sleep = HKCategoryType(.sleepAnalysis)

private extension WebClient.Page {
    /// The type page's "Data sources" list: each line's text ("1. Walker").
    var priorityListLines: [String] {
        guard let list = Self.first(#"<h2 id="sources">Data sources</h2>.*?<ol class="switches">(.*?)</ol>"#, in: body) else { return [] }
        return Self.all(#"<li><span>(.*?)</span>"#, in: list).map(Self.unescape)
    }

    /// The type page's priority forms: the source each moves and which way.
    var priorityListMoves: [(source: String, direction: String)] {
        Self.all(#"<form method="post" action="/types/[^"]*/priority"[^>]*>(.*?)</form>"#, in: body).map { form in
            let source = Self.tags("input", in: form).first { $0["name"] == "source" }?["value"] ?? ""
            let direction = Self.tags("button", in: form).first?["value"] ?? ""
            return (source, direction)
        }
    }
}

/// An app saving `samples` through the daemon, as apps do.
private func save(_ web: WebAppHarness, token: String, _ samples: [Components.Schemas.Sample]) async throws {
    _ = try await web.daemon.client(token: token).saveObjects(body: .json(.init(samples: samples))).noContent
}

/// A type's page beyond its chart: the order of its sources, and sleep.
@Suite("The web app: sources' priority and sleep")
struct WebAppMoreTypesTests {
    @Test func theSourcesOfATypeAreListedInPriorityOrderAndMovedFromThePage() async throws {
        try await WebAppHarness.with { web in
            _ = try web.utc()
            let walker = try await web.daemon.connect("com.example.walker", name: "Walker", share: [steps])
            let counter = try await web.daemon.connect("com.example.counter", name: "Counter", share: [steps])
            // The same ten minutes counted by both apps: the merged total takes the first source's.
            let start = WebAppHarness.at("2025-06-10", "10:00")
            try await save(web, token: walker, [SampleAPITests.sample(steps.identifier, start, quantity: .init(value: 1_000, unit: "count"))])
            try await save(web, token: counter, [SampleAPITests.sample(steps.identifier, start, quantity: .init(value: 3_000, unit: "count"))])
            #expect(try web.daemon.person().sourcePriority(for: steps).map(\.bundleIdentifier) == ["com.example.walker", "com.example.counter"])
            let here = "/types/\(steps.identifier)?span=day&date=2025-06-10"
            let page = try await web.browser.get(here)
            #expect(page.priorityListLines == ["1. Walker", "2. Counter"], "\(page.priorityListLines)")
            #expect(page.priorityListMoves.map { "\($0.source) \($0.direction)" } == ["com.example.walker down", "com.example.counter up"], "\(page.priorityListMoves)")
            #expect(page.body.contains("<span class=\"figure\">1,000 steps</span> <span class=\"muted\">in total</span>"), "Walker's count")

            let moved = try await web.browser.post("/types/\(steps.identifier)/priority", [("source", "com.example.counter"), ("span", "day"), ("direction", "up")])
            #expect(moved.status == 303 && moved.location == "/types/\(steps.identifier)?span=day&done=priority#sources", "\(moved.status) \(moved.location ?? "")")
            #expect(try web.daemon.person().sourcePriority(for: steps).map(\.bundleIdentifier) == ["com.example.counter", "com.example.walker"])
            let after = try await web.browser.get(here + "&done=priority")
            #expect(after.notice == "The order of sources was changed: merged figures follow it from now on.")
            #expect(after.priorityListLines == ["1. Counter", "2. Walker"], "\(after.priorityListLines)")
            #expect(after.body.contains("<span class=\"figure\">3,000 steps</span> <span class=\"muted\">in total</span>"), "Counter's count now")

            // Moves that cannot be made, and a source without steps.
            let cases: [([(String, String)], String)] = [
                ([("source", "com.example.counter"), ("direction", "up")], "That source cannot move that way."),
                ([("source", "com.example.walker"), ("direction", "down")], "That source cannot move that way."),
                ([("source", "com.example.walker"), ("direction", "sideways")], "That source cannot move that way."),
                ([("source", "com.example.walker")], "That source cannot move that way."),
                ([("source", "com.example.nobody"), ("direction", "up")], "That source has no data of this type."),
                ([("direction", "up")], "That source has no data of this type."),
            ]
            for (fields, message) in cases {
                let refused = try await web.browser.post("/types/\(steps.identifier)/priority", fields)
                #expect(refused.status == 400 && refused.isHTML, "\(fields): \(refused.status)")
                #expect(refused.message == message, "\(fields): \(refused.message ?? "")")
            }
            let forged = try await web.browser.post("/types/\(steps.identifier)/priority", [("source", "com.example.walker"), ("direction", "up")], csrf: .none)
            #expect(forged.status == 403)
            #expect(try web.daemon.person().sourcePriority(for: steps).map(\.bundleIdentifier) == ["com.example.counter", "com.example.walker"], "unchanged")
            // Moving the other back down restores the first order.
            let back = try await web.browser.post("/types/\(steps.identifier)/priority", [("source", "com.example.counter"), ("direction", "down")])
            #expect(back.status == 303 && back.location == "/types/\(steps.identifier)?span=week&done=priority#sources", "no span: the week")
            #expect(try web.daemon.person().sourcePriority(for: steps).map(\.bundleIdentifier) == ["com.example.walker", "com.example.counter"])
        }
    }

    @Test func aTypeWithOneSourceHasNoPriorityList() async throws {
        try await WebAppHarness.with { web in
            _ = try web.utc()
            try web.entry(steps, 500, .count(), at: WebAppHarness.at("2025-06-10", "09:00"))
            let page = try await web.browser.get("/types/\(steps.identifier)?span=day&date=2025-06-10")
            #expect(page.status == 200 && page.priorityListLines.isEmpty && !page.body.contains("Data sources") && page.priorityListMoves.isEmpty)
        }
    }

    @Test func aNightsSleepIsATimelineOfItsStagesAndAWeekBarsOfHoursAsleep() async throws {
        try await WebAppHarness.with { web in
            _ = try web.utc()
            let token = try await web.daemon.connect("com.example.sleep", name: "Sleeper", share: [sleep])
            func stage(_ value: HKCategoryValueSleepAnalysis, _ from: (String, String), _ to: (String, String)) -> Components.Schemas.Sample {
                let start = WebAppHarness.at(from.0, from.1), end = WebAppHarness.at(to.0, to.1)
                return SampleAPITests.sample(sleep.identifier, start, seconds: end.timeIntervalSince(start), value: value.rawValue)
            }
            // The night to the 11th: in bed 8.5 h, asleep 2.5 + 1 + 1 + 2.75 = 7.25 h, awake a quarter of an hour.
            try await save(web, token: token, [
                stage(.inBed, ("2025-06-10", "22:00"), ("2025-06-11", "06:30")),
                stage(.asleepCore, ("2025-06-10", "22:30"), ("2025-06-11", "01:00")),
                stage(.asleepDeep, ("2025-06-11", "01:00"), ("2025-06-11", "02:00")),
                stage(.asleepREM, ("2025-06-11", "02:00"), ("2025-06-11", "03:00")),
                stage(.awake, ("2025-06-11", "03:00"), ("2025-06-11", "03:15")),
                stage(.asleepCore, ("2025-06-11", "03:15"), ("2025-06-11", "06:00")),
                // The night to the 9th: 6 h asleep (no stages), 7 h in bed.
                stage(.inBed, ("2025-06-08", "23:00"), ("2025-06-09", "06:00")),
                stage(.asleepUnspecified, ("2025-06-08", "23:30"), ("2025-06-09", "05:30")),
            ])
            let here = "/types/\(sleep.identifier)"
            let night = try await web.browser.get(here + "?span=day&date=2025-06-11")
            #expect(night.status == 200 && night.heading == "Sleep Analysis")
            #expect(night.body.contains("<p><span class=\"figure\">7.25 h</span> <span class=\"muted\">asleep</span></p>"), "in bed and awake are not sleep")
            let timeline = try #require(WebClient.Page.first(#"(<svg class="chart sleep-timeline".*?</svg>)"#, in: night.body), "\(night.body)")
            let rects = WebClient.Page.tags("rect", in: timeline).compactMap { $0["class"] }
            #expect(rects.sorted() == ["sleep awake", "sleep core", "sleep core", "sleep deep", "sleep inbed", "sleep rem"], "\(rects)")
            let rows = WebClient.Page.all(#"<text class="axis"[^>]*text-anchor="end">(.*?)</text>"#, in: timeline)
            #expect(rows == ["Awake", "REM", "Core", "Deep", "In bed"], "a row per stage present, in HealthKit's order: \(rows)")
            // From six in the evening to six in the evening: deep sleep from one to two is 7/24 of the way, 1/24 wide.
            let deep = try #require(WebClient.Page.tags("rect", in: timeline).first { $0["class"] == "sleep deep" })
            #expect(deep["x"] == "229.7" && deep["width"] == "23.7", "\(deep)")
            let inBed = try #require(WebClient.Page.tags("rect", in: timeline).first { $0["class"] == "sleep inbed" })
            #expect(inBed["x"] == "158.7", "\(inBed)")
            let titles = WebClient.Page.all(#"<rect class="sleep [a-z]+"[^>]*><title>(.*?)</title>"#, in: timeline)
            #expect(titles.count == 6 && titles.filter { $0.hasPrefix("Core: ") }.count == 2, "\(titles)")
            #expect(night.rows.count == 6, "the night's samples: \(night.rows.count)")
            #expect(night.chartMarks("bar").isEmpty, "a night is a timeline, not bars")

            let other = try await web.browser.get(here + "?span=day&date=2025-06-09")
            #expect(other.body.contains("<span class=\"figure\">6 h</span> <span class=\"muted\">asleep</span>"))
            let otherTimeline = try #require(WebClient.Page.first(#"(<svg class="chart sleep-timeline".*?</svg>)"#, in: other.body))
            #expect(WebClient.Page.tags("rect", in: otherTimeline).compactMap { $0["class"] }.sorted() == ["sleep asleep", "sleep inbed"])
            let empty = try await web.browser.get(here + "?span=day&date=2025-06-05")
            #expect(empty.body.contains("No sleep recorded in this time.") && empty.body.contains("<span class=\"figure\">0 h</span>"))

            let week = try await web.browser.get(here + "?span=week&date=2025-06-11")
            #expect(!week.body.contains("sleep-timeline"))
            let bars = week.chartMarks("bar")
            #expect(bars.count == 2, "\(bars)")
            #expect(bars.first?.hasSuffix(": 6 h") == true && bars.first?.contains("9") == true, "the 9th's night: \(bars)")
            #expect(bars.last?.hasSuffix(": 7.25 h") == true && bars.last?.contains("11") == true, "the 11th's night: \(bars)")
            #expect(week.body.contains("<span class=\"figure\">13.25 h</span> <span class=\"muted\">asleep</span>"))
            #expect(week.body.contains("<title id=\"chart-title\">Sleep Analysis: hours asleep</title>"))
        }
    }
}
