import Foundation
import HealthAPI
import OpenHealthKit
import Testing

private let steps = HKQuantityType(.stepCount)

/// Statistics through the daemon are what the same app's embedded queries give: same sums, same days, same sources,
/// and only over what the app may read.
@Suite("The daemon: statistics")
struct StatisticsAPITests {
    static let paris = TimeZone(identifier: "Europe/Paris")!
    /// 23:30 and 00:30 in Paris on either side of midnight, and noon the next day.
    static let times = [Date(timeIntervalSince1970: 1_795_991_400), Date(timeIntervalSince1970: 1_795_995_000), Date(timeIntervalSince1970: 1_796_036_400)]

    @Test func dailySumsBySourceInTheAppsTimeZoneMatchTheEmbeddedQuery() async throws {
        try await DaemonHarness.with { daemon in
            let walker = daemon.client(token: try await daemon.connect("com.example.walker", name: "Walker", share: [steps], read: [steps]))
            let counter = daemon.client(token: try await daemon.connect("com.example.counter", name: "Counter", share: [steps]))
            _ = try await walker.saveObjects(body: .json(.init(samples: Self.times.enumerated().map {
                SampleAPITests.sample(steps.identifier, $1, quantity: .init(value: Double(100 * ($0 + 1)), unit: "count"))
            }))).noContent
            _ = try await counter.saveObjects(body: .json(.init(samples: [
                SampleAPITests.sample(steps.identifier, Self.times[2].addingTimeInterval(3600), quantity: .init(value: 7, unit: "count")),
            ]))).noContent
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = Self.paris
            let anchor = calendar.startOfDay(for: Self.times[0])
            let query = Components.Schemas.StatisticsQuery(_type: steps.identifier, options: [.cumulativeSum, .separateBySource],
                                                           intervalComponents: .init(day: 1), anchorDate: anchor, timeZone: "Europe/Paris")
            let remote = try await walker.queryStatistics(body: .json(query)).ok.body.json.statistics
            // The same app embedded, on the same store.
            let embedded = HKHealthStore(configuration: .init(storeDirectory: daemon.store, app: AppManifest(bundleIdentifier: "com.example.walker", name: "Walker"),
                                                              presenter: ScriptedPresenter(.denyAll)))
            var descriptor = HKStatisticsCollectionQueryDescriptor(predicate: .quantitySample(type: steps), options: [.cumulativeSum, .separateBySource],
                                                                   anchorDate: anchor, intervalComponents: DateComponents(day: 1))
            descriptor.calendar = calendar
            let local = try await descriptor.result(for: embedded).statistics()
            #expect(remote.map(\.startDate) == local.map(\.startDate))
            #expect(remote.map(\.startDate) == [anchor, calendar.date(byAdding: .day, value: 1, to: anchor)!])
            #expect(remote.map { $0.sum?.value } == local.map { $0.sumQuantity()?.doubleValue(for: .count()) })
            #expect(remote.map { $0.sum?.value } == [100, 507])
            #expect(remote[1].sources?.map(\.source.bundleIdentifier).sorted() == ["com.example.counter", "com.example.walker"])
            // The counter may not read: it gets its own samples' figures only.
            let own = try await counter.queryStatistics(body: .json(query)).ok.body.json.statistics
            #expect(own.map { $0.sum?.value } == [7])
        }
    }

    @Test func aWholeRangeIsOneStatisticsAndNoDataIsNone() async throws {
        try await DaemonHarness.with { daemon in
            let client = daemon.client(token: try await daemon.connect("com.example.walker", share: [steps], read: [steps]))
            let empty = try await client.queryStatistics(body: .json(.init(_type: steps.identifier, options: [.cumulativeSum]))).ok.body.json
            #expect(empty.statistics.isEmpty)
            _ = try await client.saveObjects(body: .json(.init(samples: Self.times.map {
                SampleAPITests.sample(steps.identifier, $0, quantity: .init(value: 10, unit: "count"))
            }))).noContent
            let whole = try await client.queryStatistics(body: .json(.init(_type: steps.identifier, startDate: Self.times[1], options: [.cumulativeSum, .mostRecent])))
                .ok.body.json.statistics
            #expect(whole.count == 1 && whole.first?.sum == .init(value: 20, unit: "count"))
            #expect(whole.first?.mostRecentStartDate == Self.times[2])
        }
    }

    @Test(arguments: [
        (#"{"type":"HKQuantityTypeIdentifierHeartRate","options":["cumulativeSum"]}"#, nil as String?),
        (#"{"type":"HKCategoryTypeIdentifierSleepAnalysis","options":[]}"#, "/type"),
        (#"{"type":"HKQuantityTypeIdentifierStepCount","options":["cumulativeSum"],"intervalComponents":{"day":1}}"#, "/anchorDate"),
        (#"{"type":"HKQuantityTypeIdentifierStepCount","options":["cumulativeSum"],"intervalComponents":{"day":0},"anchorDate":"2026-11-24T00:00:00Z"}"#, "/intervalComponents"),
        (#"{"type":"HKQuantityTypeIdentifierStepCount","options":[],"predicate":{"kind":"nope"}}"#, "/predicate/kind"),
        (#"{"type":"HKQuantityTypeIdentifierStepCount","options":["sum"]}"#, "/options/0"),
        (#"{"type":"HKQuantityTypeIdentifierStepCount","options":[],"timeZone":"Mars/Olympus"}"#, "/timeZone"),
    ])
    func aQueryHealthKitWouldRefuseIs400(body: String, field: String?) async throws {
        try await DaemonHarness.with { daemon in
            let token = try await daemon.connect("com.example.walker", share: [steps], read: [steps])
            let answer = try await daemon.raw(.POST, "/v1/queries/statistics", body: body, token: token)
            #expect(answer.status == 400, "\(answer.body)")
            #expect(answer.json["code"] as? Int == HKError.Code.errorInvalidArgument.rawValue, "\(answer.body)")
            #expect(answer.json["field"] as? String == field, "\(answer.body)")
        }
    }
}
