import Foundation
@testable import HealthServer
import OpenHealthKit
import Testing

private let steps = HKQuantityType(.stepCount)
private let heartRate = HKQuantityType(.heartRate)

extension WebAppHarness {
    /// Sets the person's time zone to UTC (so a test's days are the page's days) and returns that calendar.
    func utc() throws -> Calendar {
        try daemon.person().setTimeZone(TimeZone(identifier: "UTC")!)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    /// `YYYY-MM-DD` of `date` in `calendar`.
    static func day(_ date: Date, _ calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    /// A moment of a day, UTC: `at("2025-06-10", "08:30")`.
    static func at(_ day: String, _ time: String) -> Date {
        ISO8601DateFormatter().date(from: "\(day)T\(time):00Z")!
    }

    /// The store's samples of `type`, oldest first, as the person sees them.
    func samples(_ type: HKQuantityType) async throws -> [HKQuantitySample] {
        try await HKSampleQueryDescriptor(predicates: [.quantitySample(type: type)], sortDescriptors: [SortDescriptor(\.startDate)])
            .result(for: daemon.person().healthStore)
    }

    /// A sample the person entered at `start` (UTC), straight into the store.
    @discardableResult
    func entry(_ type: HKQuantityType, _ value: Double, _ unit: HKUnit, at start: Date) throws -> HKQuantitySample {
        try daemon.person().addEntry(type, value: value, unit: unit, start: start, end: start)
    }
}

/// The refusal every signed-in form without its session's token gets.
private let expiredForm = "This form had expired or was not sent from this page, so nothing was changed. Go back, reload the page and try again."

/// The web app's forms against forgery (issue 18): each signed-in form carries its session's CSRF token, and a post from
/// another origin is refused; a refused form changes nothing.
@Suite("The web app: forged forms")
struct WebAppCSRFTests {
    @Test func anEntryWithoutItsTokenOrWithAnotherOneIsRefusedAndNothingIsAdded() async throws {
        try await WebAppHarness.with { web in
            let calendar = try web.utc()
            let yesterday = WebAppHarness.day(Date().addingTimeInterval(-86_400), calendar)
            let fields = [("value", "1234"), ("unit", "count"), ("date", yesterday), ("time", "10:30")]
            let page = try await web.browser.get("/types/\(steps.identifier)")
            let token = try #require(page.csrf)
            let other = web.newBrowser()
            try await other.signIn()
            let othersToken = try #require(other.csrf)
            #expect(othersToken != token)
            for csrf: WebClient.CSRF in [.none, .token(""), .token("not the token"), .token(String(token.dropLast()) + (token.hasSuffix("A") ? "B" : "A")), .token(othersToken)] {
                let refused = try await web.browser.post("/types/\(steps.identifier)/entries", fields, csrf: csrf)
                #expect(refused.status == 403, "\(csrf): \(refused.status)")
                #expect(refused.message == expiredForm, "\(csrf): \(refused.message ?? refused.body)")
            }
            #expect(try web.daemon.person().sampleCount(of: steps) == 0)
            // The same form with its token is taken: the refusals were the token's.
            let taken = try await web.browser.post("/types/\(steps.identifier)/entries", fields, csrf: .token(token))
            #expect(taken.status == 303, "\(taken.status) \(taken.message ?? "")")
            #expect(try web.daemon.person().sampleCount(of: steps) == 1)
        }
    }

    @Test func aFormFromAnotherOriginIsRefusedEvenWithTheRightToken() async throws {
        try await WebAppHarness.with { web in
            let calendar = try web.utc()
            let fields = [("value", "1234"), ("unit", "count"), ("date", WebAppHarness.day(Date().addingTimeInterval(-86_400), calendar)),
                          ("time", "10:30")]
            _ = try await web.browser.get("/types/\(steps.identifier)")
            for origin in ["https://evil.example", "http://evil.example:\(web.port)", "http://127.0.0.1:\(web.port + 1)", "https://127.0.0.1:\(web.port + 1)",
                           "null", "not a url"] {
                let refused = try await web.browser.post("/types/\(steps.identifier)/entries", fields, origin: .other(origin))
                #expect(refused.status == 403, "\(origin): \(refused.status)")
                #expect(refused.message == "This form was sent from another site, so it was not accepted.", "\(origin): \(refused.message ?? "")")
            }
            // Signing out from another site is refused too: the session goes on.
            let signOut = try await web.browser.post("/signout", origin: .other("https://evil.example"))
            #expect(signOut.status == 403 && signOut.sessionCookie == nil)
            #expect(try web.daemon.person().sampleCount(of: steps) == 0)
            #expect(try await web.browser.get("/").status == 200)
            // A tool's post, without Origin, is held to the token alone.
            let tool = try await web.browser.post("/types/\(steps.identifier)/entries", fields, origin: .none)
            #expect(tool.status == 303, "\(tool.status) \(tool.message ?? "")")
        }
    }

    @Test func deletingASampleWithoutTheTokenLeavesIt() async throws {
        try await WebAppHarness.with { web in
            let calendar = try web.utc()
            let day = WebAppHarness.day(Date().addingTimeInterval(-86_400), calendar)
            let sample = try web.entry(steps, 500, .count(), at: WebAppHarness.at(day, "09:00"))
            _ = try await web.browser.get("/types/\(steps.identifier)?span=day&date=\(day)")
            let refused = try await web.browser.post("/samples/\(sample.uuid.uuidString)/delete", csrf: .none)
            #expect(refused.status == 403 && refused.message == expiredForm, "\(refused.status)")
            let wrong = try await web.browser.post("/samples/\(sample.uuid.uuidString)/delete", csrf: .token("forged"))
            #expect(wrong.status == 403 && wrong.message == expiredForm, "\(wrong.status)")
            #expect(try await web.samples(steps).map(\.uuid) == [sample.uuid])
        }
    }

    @Test func signingOutWithoutTheTokenKeepsTheSession() async throws {
        try await WebAppHarness.with { web in
            let refused = try await web.browser.post("/signout", csrf: .none)
            #expect(refused.status == 403 && refused.message == expiredForm, "\(refused.status)")
            #expect(refused.sessionCookie == nil)
            #expect(try await web.browser.get("/").status == 200)
            let forged = try await web.browser.post("/signout", csrf: .token("forged"))
            #expect(forged.status == 403)
            #expect(try await web.browser.get("/").status == 200)
        }
    }

    @Test func everySignedInPageGivesItsFormsTheSessionsToken() async throws {
        try await WebAppHarness.with { web in
            let calendar = try web.utc()
            let day = WebAppHarness.day(Date().addingTimeInterval(-86_400), calendar)
            try web.entry(steps, 500, .count(), at: WebAppHarness.at(day, "09:00"))
            _ = try await web.daemon.connect("com.example.steps", share: [steps])
            var tokens: Set<String> = []
            for path in ["/", "/types/\(steps.identifier)?span=day&date=\(day)", "/requests", "/sources", "/sources/apps/com.example.steps",
                         "/access-log", "/deliveries"] {
                let page = try await web.browser.get(path)
                #expect(page.status == 200, "\(path): \(page.status)")
                let posting = page.forms.filter { $0["method"] == "post" }
                #expect(!posting.isEmpty, "\(path): sign-out at least")
                let fields = WebClient.Page.all(#"<form method="post"[^>]*>(.*?)</form>"#, in: page.body)
                #expect(fields.count == posting.count)
                for form in fields {
                    let csrf = WebClient.Page.tags("input", in: form).first { $0["name"] == "csrf" }?["value"]
                    #expect(csrf != nil, "\(path): a form without the token: \(form)")
                    if let csrf { tokens.insert(csrf) }
                }
            }
            #expect(tokens.count == 1, "one token for the session: \(tokens.count)")
        }
    }
}

/// A type's page (`/types/{identifier}`): charts, samples, entries by hand and deleting (issue 18).
@Suite("The web app: a type's page")
struct WebAppTypePageTests {
    @Test func anEntryByHandIsSavedWithTheHealthAppAsItsSourceAndShown() async throws {
        try await WebAppHarness.with { web in
            let calendar = try web.utc()
            let yesterday = WebAppHarness.day(Date().addingTimeInterval(-86_400), calendar)
            let form = try await web.browser.get("/types/\(steps.identifier)")
            #expect(form.forms.contains { $0["action"] == "/types/\(steps.identifier)/entries" })
            #expect(form.field("unit") == "count", "the person's unit is offered")
            let added = try await web.browser.post("/types/\(steps.identifier)/entries",
                                                   [("value", "1234"), ("unit", "count"), ("date", yesterday), ("time", "10:30")])
            #expect(added.status == 303, "\(added.status) \(added.message ?? "")")
            #expect(added.location == "/types/\(steps.identifier)?span=day&date=\(yesterday)&done=added")
            let sample = try #require(try await web.samples(steps).first)
            #expect(sample.quantity.doubleValue(for: .count()) == 1234)
            #expect(sample.startDate == WebAppHarness.at(yesterday, "10:30") && sample.endDate == sample.startDate)
            #expect(sample.sourceRevision.source.name == "Health" && sample.sourceRevision.source.bundleIdentifier == "com.apple.Health")
            #expect(sample.metadata?[HKMetadataKeyWasUserEntered] as? Bool == true, "\(String(describing: sample.metadata))")
            let shown = try await web.browser.get(try #require(added.location))
            #expect(shown.notice == "Your entry was added.")
            #expect(shown.rows.contains { $0.count == 4 && $0[1] == "1,234 steps" && $0[2] == "Health" }, "\(shown.rows)")
        }
    }

    @Test func badEntriesAre400WithTheFormTheInputKeptAndAMessage() async throws {
        try await WebAppHarness.with { web in
            let calendar = try web.utc()
            let yesterday = WebAppHarness.day(Date().addingTimeInterval(-86_400), calendar)
            let later = WebAppHarness.day(Date().addingTimeInterval(2 * 86_400), calendar)
            _ = try await web.browser.get("/types/\(steps.identifier)")
            let cases: [(value: String, unit: String, date: String, time: String, message: String)] = [
                ("many", "count", yesterday, "10:30", "Enter the value as a number (for example 72 or 1.5)."),
                ("", "count", yesterday, "10:30", "Enter the value as a number (for example 72 or 1.5)."),
                ("inf", "count", yesterday, "10:30", "Enter the value as a number (for example 72 or 1.5)."),
                ("12", "furlongs", yesterday, "10:30", "furlongs is not a unit (for example count, kg, count/min)."),
                ("12", "", yesterday, "10:30", "The unit is missing (for example count, kg, count/min)."),
                ("12", "count", "2025-02-30", "10:30", "Enter the date as YYYY-MM-DD."),
                ("12", "count", "yesterday", "10:30", "Enter the date as YYYY-MM-DD."),
                ("12", "count", yesterday, "25:00", "Enter the time as HH:MM (24-hour)."),
                ("12", "count", yesterday, "noon", "Enter the time as HH:MM (24-hour)."),
                ("12", "count", later, "10:30", "That time is still to come; enter what was measured."),
            ]
            for entry in cases {
                let refused = try await web.browser.post("/types/\(steps.identifier)/entries",
                                                         [("value", entry.value), ("unit", entry.unit), ("date", entry.date), ("time", entry.time)])
                #expect(refused.status == 400, "\(entry): \(refused.status)")
                #expect(refused.message == entry.message, "\(entry): \(refused.message ?? refused.body)")
                #expect(refused.heading == "Step Count")
                #expect(refused.forms.contains { $0["action"] == "/types/\(steps.identifier)/entries" }, "\(entry): the form again")
                #expect(refused.field("value") == entry.value && refused.field("unit") == entry.unit && refused.field("date") == entry.date
                        && refused.field("time") == entry.time, "\(entry): the input kept")
            }
            #expect(try web.daemon.person().sampleCount(of: steps) == 0)
        }
    }

    @Test func aUnitThatDoesNotFitTheTypeIs400WithTheFormAndAMessage() async throws {
        try await WebAppHarness.with { web in
            let calendar = try web.utc()
            let yesterday = WebAppHarness.day(Date().addingTimeInterval(-86_400), calendar)
            _ = try await web.browser.get("/types/\(steps.identifier)")
            let refused = try await web.browser.post("/types/\(steps.identifier)/entries",
                                                     [("value", "70"), ("unit", "kg"), ("date", yesterday), ("time", "08:00")])
            #expect(refused.status == 400, "\(refused.status)")
            let message = try #require(refused.message, "\(refused.body)")
            #expect(message.contains("kg") && message.first?.isUppercase == true && message.hasSuffix("."), "\(message)")
            #expect(refused.field("unit") == "kg" && refused.field("value") == "70")
            #expect(try web.daemon.person().sampleCount(of: steps) == 0)
            // Heart rate takes count/min, and a decimal comma.
            let heart = try await web.browser.post("/types/\(heartRate.identifier)/entries",
                                                   [("value", "61,5"), ("unit", "count/min"), ("date", yesterday), ("time", "08:00")])
            #expect(heart.status == 303, "\(heart.status) \(heart.message ?? "")")
            #expect(try await web.samples(heartRate).map { $0.quantity.doubleValue(for: .count().unitDivided(by: .minute())) } == [61.5])
        }
    }

    @Test func aFormLargerThanThePageAcceptsIsA413PageAndChangesNothing() async throws {
        try await WebAppHarness.with { web in
            let calendar = try web.utc()
            _ = try await web.browser.get("/types/\(steps.identifier)")
            let huge = try await web.browser.post("/types/\(steps.identifier)/entries",
                                                  [("value", "1234"), ("unit", "count"), ("date", WebAppHarness.day(Date().addingTimeInterval(-86_400), calendar)),
                                                   ("time", "10:30"), ("note", String(repeating: "x", count: 300 << 10))])
            #expect(huge.isHTML && huge.status != 303, "\(huge.status)")
            #expect(huge.status == 413, "\(huge.status) \(huge.message ?? "")")
            #expect(huge.message == "The form sent was larger than 256 KB, so nothing was changed.", "\(huge.message ?? "")")
            #expect(try web.daemon.person().sampleCount(of: steps) == 0)
        }
    }

    @Test func entriesByHandAreForQuantitiesOnly() async throws {
        try await WebAppHarness.with { web in
            let calendar = try web.utc()
            let sleep = try await web.browser.get("/types/HKCategoryTypeIdentifierSleepAnalysis")
            #expect(sleep.status == 200 && !sleep.forms.contains { $0["action"]?.hasSuffix("/entries") == true })
            let refused = try await web.browser.post("/types/HKCategoryTypeIdentifierSleepAnalysis/entries",
                                                     [("value", "1"), ("unit", "count"), ("date", WebAppHarness.day(Date(), calendar)), ("time", "00:00")])
            #expect(refused.status == 400 && refused.message == "Entries by hand are for quantities; Sleep Analysis is not one.",
                    "\(refused.status) \(refused.message ?? "")")
        }
    }

    @Test func deletingASampleThroughItsFormRemovesIt() async throws {
        try await WebAppHarness.with { web in
            let calendar = try web.utc()
            let day = WebAppHarness.day(Date().addingTimeInterval(-86_400), calendar)
            let kept = try web.entry(steps, 300, .count(), at: WebAppHarness.at(day, "08:00"))
            let doomed = try web.entry(steps, 500, .count(), at: WebAppHarness.at(day, "09:00"))
            let page = try await web.browser.get("/types/\(steps.identifier)?span=day&date=\(day)")
            #expect(page.rows.count == 2)
            let action = "/samples/\(doomed.uuid.uuidString)/delete"
            #expect(page.forms.contains { $0["action"] == action })
            let form = try #require(WebClient.Page.first(#"<form method="post" action="\#(action)"[^>]*>(.*?)</form>"#, in: page.body))
            let back = try #require(WebClient.Page.tags("input", in: form).first { $0["name"] == "back" }?["value"])
            #expect(back == "/types/\(steps.identifier)?span=day&date=\(day)&page=1")
            let deleted = try await web.browser.post(action, [("back", back)])
            #expect(deleted.status == 303 && deleted.location == back + "&done=deleted", "\(deleted.status) \(deleted.location ?? "")")
            #expect(try await web.samples(steps).map(\.uuid) == [kept.uuid])
            let after = try await web.browser.get(try #require(deleted.location))
            #expect(after.notice == "The sample was deleted." && after.rows.count == 1)
            // Without `back`, the type's page; a `back` off the site is not followed.
            let second = try await web.browser.post("/samples/\(kept.uuid.uuidString)/delete", [("back", "//evil.example/x")])
            #expect(second.status == 303 && second.location == "/?done=deleted", "\(second.location ?? "")")
            #expect(try web.daemon.person().sampleCount(of: steps) == 0)
        }
    }

    @Test func deletingAnUnknownSampleIsA400PageNotAFailure() async throws {
        try await WebAppHarness.with { web in
            _ = try await web.browser.get("/")
            let unknown = UUID()
            let missing = try await web.browser.post("/samples/\(unknown.uuidString)/delete")
            #expect(missing.status == 400, "\(missing.status)")
            #expect(missing.isHTML && missing.heading == "That did not work")
            #expect(missing.message?.contains(unknown.uuidString) == true || missing.message?.lowercased().contains("no sample") == true,
                    "\(missing.message ?? missing.body)")
            let malformed = try await web.browser.post("/samples/not-a-uuid/delete")
            #expect(malformed.status == 400 && malformed.message == "That is not a sample's identifier.", "\(malformed.status)")
        }
    }

    @Test func anUnknownTypeIsA404Page() async throws {
        try await WebAppHarness.with { web in
            for identifier in ["HKQuantityTypeIdentifierNoSuchType", "HKCharacteristicTypeIdentifierBloodType", "%3Cscript%3E"] {
                let page = try await web.browser.get("/types/\(identifier)")
                #expect(page.status == 404, "\(identifier): \(page.status)")
                #expect(page.isHTML && page.heading == "Not found")
                #expect(page.message?.hasPrefix("There is no sample type called ") == true, "\(page.message ?? "")")
                #expect(!page.body.contains("<script>"))
            }
        }
    }

    @Test func aBadSpanDateOrPageIsA400Page() async throws {
        try await WebAppHarness.with { web in
            let here = "/types/\(steps.identifier)"
            let cases = [
                ("?span=bogus", "The span must be day, week, month or year."),
                ("?date=2025-13-01", "2025-13-01 is not a date (YYYY-MM-DD)."),
                ("?date=2025-02-29", "2025-02-29 is not a date (YYYY-MM-DD)."),
                ("?page=0", "Pages go from 1 to 100; choose a shorter time to see older samples."),
                ("?page=101", "Pages go from 1 to 100; choose a shorter time to see older samples."),
                ("?page=first", "Pages go from 1 to 100; choose a shorter time to see older samples."),
            ]
            for (query, message) in cases {
                let page = try await web.browser.get(here + query)
                #expect(page.status == 400, "\(query): \(page.status)")
                #expect(page.isHTML && page.message == message, "\(query): \(page.message ?? page.body)")
            }
            for query in ["?span=day", "?span=week", "?span=month", "?span=year&date=2024-02-29", "?page=100"] {
                let page = try await web.browser.get(here + query)
                #expect(page.status == 200 && page.heading == "Step Count", "\(query): \(page.status)")
            }
        }
    }

    @Test func samplesComeFiftyAPageNewestFirst() async throws {
        try await WebAppHarness.with { web in
            let calendar = try web.utc()
            let day = WebAppHarness.day(Date().addingTimeInterval(-86_400), calendar)
            let start = WebAppHarness.at(day, "00:00")
            for minute in 0..<51 { try web.entry(steps, Double(minute + 2), .count(), at: start.addingTimeInterval(Double(minute) * 60)) }
            let first = try await web.browser.get("/types/\(steps.identifier)?span=day&date=\(day)")
            #expect(first.body.contains("51 in this time; page 1 of 2."))
            #expect(first.rows.count == 50 && first.rows.first?[1] == "52 steps" && first.rows.last?[1] == "3 steps")
            let second = try await web.browser.get("/types/\(steps.identifier)?span=day&date=\(day)&page=2")
            #expect(second.body.contains("page 2 of 2.") && second.rows.map { $0[1] } == ["2 steps"])
        }
    }

    @Test func aCumulativeTypesChartHasABarPerDayTitledWithTheDaysTotal() async throws {
        try await WebAppHarness.with { web in
            _ = try web.utc()
            try web.entry(steps, 1_000, .count(), at: WebAppHarness.at("2025-06-10", "08:00"))
            try web.entry(steps, 500, .count(), at: WebAppHarness.at("2025-06-10", "10:00"))
            try web.entry(steps, 2_000, .count(), at: WebAppHarness.at("2025-06-11", "09:00"))
            let week = try await web.browser.get("/types/\(steps.identifier)?span=week&date=2025-06-12")
            #expect(week.status == 200)
            let bars = week.chartMarks("bar")
            #expect(bars.count == 2, "\(bars)")
            #expect(bars.first?.hasSuffix(": 1,500 steps") == true && bars.first?.contains("10") == true, "\(bars)")
            #expect(bars.last?.hasSuffix(": 2,000 steps") == true && bars.last?.contains("11") == true, "\(bars)")
            let heights = WebClient.Page.tags("rect", in: week.body).filter { $0["class"] == "bar" }.compactMap { Double($0["height"] ?? "") }
            #expect(heights.count == 2 && heights[0] > 0 && heights[1] > heights[0], "\(heights)")
            #expect(week.body.contains("<span class=\"figure\">3,500 steps</span> <span class=\"muted\">in total</span>"))
            #expect(week.body.contains("<svg class=\"chart\"") && week.body.contains("<title id=\"chart-title\">Step Count</title>"))
            // A day: a bar an hour.
            let day = try await web.browser.get("/types/\(steps.identifier)?span=day&date=2025-06-10")
            #expect(day.chartMarks("bar").map { $0.components(separatedBy: ": ").last ?? "" } == ["1,000 steps", "500 steps"], "\(day.chartMarks("bar"))")
            // The Summary's card: the last day's total.
            let summary = try await web.browser.get("/")
            #expect(summary.body.contains("<span class=\"type\">Step Count</span>") && summary.body.contains("<div class=\"figure\">2,000 steps</div>"))
            #expect(summary.body.contains("<div class=\"muted\">total on ") && summary.body.contains("11 Jun 2025</div>"), "\(summary.body)")
        }
    }

    @Test func aDiscreteTypesChartHasAMinimumToMaximumBandPerDay() async throws {
        try await WebAppHarness.with { web in
            _ = try web.utc()
            let bpm = HKUnit.count().unitDivided(by: .minute())
            try web.entry(heartRate, 60, bpm, at: WebAppHarness.at("2025-06-10", "08:00"))
            try web.entry(heartRate, 80, bpm, at: WebAppHarness.at("2025-06-10", "09:00"))
            try web.entry(heartRate, 70, bpm, at: WebAppHarness.at("2025-06-11", "08:00"))
            let week = try await web.browser.get("/types/\(heartRate.identifier)?span=week&date=2025-06-12")
            #expect(week.status == 200)
            let bands = week.chartMarks("band")
            #expect(bands.count == 2, "\(bands)")
            #expect(bands.first?.hasSuffix(": 60–80 count/min, average 70") == true, "\(bands)")
            #expect(bands.last?.hasSuffix(": 70–70 count/min, average 70") == true, "\(bands)")
            #expect(week.chartMarks("bar").isEmpty)
            #expect(week.body.contains("<polyline class=\"average\""))
            #expect(week.body.contains("<span class=\"figure\">70 count/min</span> <span class=\"muted\">on average</span>"))
        }
    }
}
