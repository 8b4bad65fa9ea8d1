import Foundation
import HealthAPI
import HealthStore
import OpenHealthKit
import Testing

/// Every read and write an app makes through the daemon is in the store's access log, for the person to see.
@Suite("The daemon: access log")
struct AccessLogTests {
    struct Line: Hashable { let app: String, operation: String, type: String?, count: Int, outcome: String }

    /// The person's view of the log, once it holds `count` entries (the daemon writes it every 50 ms in tests).
    static func lines(_ daemon: DaemonHarness, count: Int) async throws -> [Line] {
        for _ in 0..<1_200 {   // up to 30 s: CI runs every suite at once on two cores
            let entries = try daemon.person().accessLog()
            if entries.count >= count {
                return entries.map { Line(app: $0.app, operation: $0.operation, type: $0.type, count: $0.count, outcome: $0.outcome) }
            }
            try await Task.sleep(for: .milliseconds(25))
        }
        return try daemon.person().accessLog().map { Line(app: $0.app, operation: $0.operation, type: $0.type, count: $0.count, outcome: $0.outcome) }
    }

    @Test func readsWritesAndRefusalsAreLoggedPerAppTypeAndCount() async throws {
        try await DaemonHarness.with { daemon in
            let steps = HKQuantityType(.stepCount), sleep = HKCategoryType(.sleepAnalysis)
            let client = daemon.client(token: try await daemon.connect("com.example.log", share: [steps, sleep], read: [steps]))
            let now = Date(timeIntervalSinceReferenceDate: 815_000_000)
            let samples = [
                SampleAPITests.sample(steps.identifier, now, quantity: .init(value: 5, unit: "count")),
                SampleAPITests.sample(steps.identifier, now.addingTimeInterval(600), quantity: .init(value: 6, unit: "count")),
                SampleAPITests.sample(sleep.identifier, now, value: 0),
            ]
            _ = try await client.saveObjects(body: .json(.init(samples: samples))).noContent
            _ = try await client.querySamples(body: .json(.init(_type: steps.identifier))).ok
            let heartRate = SampleAPITests.sample(HKQuantityType(.heartRate).identifier, now, seconds: 0, quantity: .init(value: 60, unit: "count/min"))
            guard case .forbidden = try await client.saveObjects(body: .json(.init(samples: [heartRate]))) else {
                Issue.record("saving heart rate was not refused"); return
            }
            let lines = try await Self.lines(daemon, count: 4)
            #expect(Set(lines) == [
                Line(app: "com.example.log", operation: "save", type: steps.identifier, count: 2, outcome: "allowed"),
                Line(app: "com.example.log", operation: "save", type: sleep.identifier, count: 1, outcome: "allowed"),
                Line(app: "com.example.log", operation: "query", type: steps.identifier, count: 2, outcome: "allowed"),
                Line(app: "com.example.log", operation: "save", type: HKQuantityType(.heartRate).identifier, count: 1, outcome: "denied"),
            ])
            #expect(try daemon.person().accessLog(type: steps.identifier).count == 2)
            #expect(try daemon.person().accessLog(app: "com.example.other").isEmpty)
        }
    }
}

extension AccessLogTests {
    @Test func anInvalidRequestIsLoggedWithTheTypeCutShort() async throws {
        try await DaemonHarness.with { daemon in
            let token = try await daemon.connect("com.example.log", share: [HKQuantityType(.stepCount)])
            let name = String(repeating: "x", count: 5_000)
            let answer = try await daemon.raw(.POST, "/v1/objects", body: """
                {"samples":[{"uuid":"\(UUID())","type":"\(name)","startDate":"2026-11-24T10:00:00Z","endDate":"2026-11-24T10:00:00Z","value":0}]}
                """, token: token)
            #expect(answer.status == 400)
            let lines = try await Self.lines(daemon, count: 1)
            #expect(lines == [Line(app: "com.example.log", operation: "save", type: String(name.prefix(128)), count: 1, outcome: "invalid")])
        }
    }
}

extension AccessLogTests {
    @Test func anAuthorizationStatusRequestNamingAnUnknownTypeIsLoggedAsInvalid() async throws {
        try await DaemonHarness.with { daemon in
            let token = try await daemon.connect("com.example.log")
            let answer = try await daemon.raw(.POST, "/v1/authorization/status", body: #"{"types":["HKQuantityTypeIdentifierStepCount","nope"]}"#,
                                              token: token)
            #expect(answer.status == 400)
            let lines = try await Self.lines(daemon, count: 1)
            #expect(lines == [Line(app: "com.example.log", operation: "authorizationStatus", type: nil, count: 2, outcome: "invalid")])
        }
    }
}

/// The log's bounds: entries past the retention time or the maximum count are dropped as new ones come.
@Suite("Access log retention")
struct AccessLogRetentionTests {
    @Test func oldEntriesAndEntriesOverTheMaximumGo() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = AccessLog(database: try HealthDatabase(directory: folder), retention: 86_400, maximumEntries: 3)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        func entry(_ ago: TimeInterval, _ count: Int) -> AccessLog.Entry {
            .init(time: now.addingTimeInterval(-ago), app: "com.example.a", operation: "query", type: nil, count: count, outcome: "allowed")
        }
        try log.record([entry(2 * 86_400, 1), entry(3600, 2)], now: now)
        #expect(try log.entries().map(\.count) == [2])
        try log.record([entry(300, 3), entry(200, 4), entry(100, 5)], now: now)
        #expect(try log.entries().map(\.count) == [5, 4, 3])
        #expect(try log.entries(since: now.addingTimeInterval(-250)).map(\.count) == [5, 4])
    }
}
