import Foundation
import HealthAPI
import OpenHealthKit
import Testing

private let steps = HKQuantityType(.stepCount)
private let heartRate = HKQuantityType(.heartRate)
private let sleep = HKCategoryType(.sleepAnalysis)

/// Saving, querying and deleting through the daemon, with the rules an embedded app has.
@Suite("The daemon: samples")
struct SampleAPITests {
    static func sample(_ type: String, _ start: Date, seconds: Double = 600, quantity: Components.Schemas.Quantity? = nil, value: Int? = nil,
                       metadata: [String: Components.Schemas.MetadataValue]? = nil, uuid: UUID = UUID()) -> Components.Schemas.Sample {
        .init(uuid: uuid.uuidString, _type: type, startDate: start, endDate: start.addingTimeInterval(seconds), quantity: quantity, value: value,
              metadata: metadata.map { .init(additionalProperties: $0) })
    }

    static let morning = Date(timeIntervalSinceReferenceDate: 815_000_000.123_456)

    @Test func savedSamplesComeBackExactlyWithTheirUUIDsAndTheAppAsSource() async throws {
        try await DaemonHarness.with { daemon in
            let token = try await daemon.connect("com.example.log", name: "Log", share: [steps, sleep], read: [steps, sleep])
            let client = daemon.client(token: token)
            let walk = Self.sample(steps.identifier, Self.morning, quantity: .init(value: 1234, unit: "count"),
                                   metadata: ["HKWasUserEntered": .case3(true), "note": .case1("walk"), "HKSyncVersion": .case2(2),
                                              "HKSyncIdentifier": .case1("w-1"), "when": .MetadataDate(.init(date: Self.morning))])
            let night = Self.sample(sleep.identifier, Self.morning.addingTimeInterval(-8 * 3600), seconds: 7 * 3600,
                                    value: HKCategoryValueSleepAnalysis.asleepCore.rawValue)
            _ = try await client.saveObjects(body: .json(.init(samples: [walk, night]))).noContent
            let found = try await client.querySamples(body: .json(.init(_type: steps.identifier))).ok.body.json.samples
            #expect(found.count == 1)
            let back = try #require(found.first)
            #expect(back.uuid == walk.uuid && back.startDate == walk.startDate && back.endDate == walk.endDate)
            #expect(back.quantity == walk.quantity && back.source?.name == "Log" && back.source?.bundleIdentifier == "com.example.log")
            #expect(back.source?.productType?.isEmpty == false && back.source?.operatingSystemVersion != nil, "the revision it was saved with")
            #expect(back.metadata == walk.metadata)
            let nights = try await client.querySamples(body: .json(.init(_type: sleep.identifier))).ok.body.json.samples
            #expect(nights.map(\.value) == [HKCategoryValueSleepAnalysis.asleepCore.rawValue])
        }
    }

    @Test func aQuerySelectsByDateSortsAndLimits() async throws {
        try await DaemonHarness.with { daemon in
            let token = try await daemon.connect("com.example.log", share: [steps], read: [steps])
            let client = daemon.client(token: token)
            let hours = (0..<6).map { Self.morning.addingTimeInterval(Double($0) * 3600) }
            _ = try await client.saveObjects(body: .json(.init(samples: hours.enumerated().map {
                Self.sample(steps.identifier, $1, quantity: .init(value: Double($0), unit: "count"))
            }))).noContent
            let query = Components.Schemas.SampleQuery(_type: steps.identifier, startDate: hours[1], endDate: hours[5], limit: 3, ascending: false)
            let found = try await client.querySamples(body: .json(query)).ok.body.json.samples
            #expect(found.map(\.quantity?.value) == [4, 3, 2])
        }
    }

    /// Another app, denied reading, sees none of the first app's samples, and deleting one of them is answered
    /// exactly as deleting a UUID that was never stored.
    @Test func anAppSeesAndDeletesOnlyWhatItMay() async throws {
        try await DaemonHarness.with { daemon in
            let owner = daemon.client(token: try await daemon.connect("com.example.owner", share: [heartRate], read: [heartRate]))
            let other = try await daemon.connect("com.example.other", share: [heartRate])
            let reading = Self.sample(heartRate.identifier, Self.morning, seconds: 0, quantity: .init(value: 61, unit: "count/min"))
            _ = try await owner.saveObjects(body: .json(.init(samples: [reading]))).noContent
            let seen = try await daemon.client(token: other).querySamples(body: .json(.init(_type: heartRate.identifier))).ok.body.json.samples
            #expect(seen.isEmpty)
            let theirs = try await daemon.raw(.POST, "/v1/objects/delete", body: #"{"objects":[{"uuid":"\#(reading.uuid)","type":"\#(heartRate.identifier)"}]}"#, token: other)
            let never = UUID().uuidString
            let absent = try await daemon.raw(.POST, "/v1/objects/delete", body: #"{"objects":[{"uuid":"\#(never)","type":"\#(heartRate.identifier)"}]}"#, token: other)
            #expect(theirs.status == 400 && absent.status == 400)
            #expect(theirs.body.replacingOccurrences(of: reading.uuid, with: never) == absent.body)
            #expect(try await owner.querySamples(body: .json(.init(_type: heartRate.identifier))).ok.body.json.samples.count == 1)
            _ = try await owner.deleteObjects(body: .json(.init(objects: [.init(uuid: reading.uuid, _type: heartRate.identifier)]))).noContent
            #expect(try await owner.querySamples(body: .json(.init(_type: heartRate.identifier))).ok.body.json.samples.isEmpty)
        }
    }

    @Test func savingWithoutPermissionIs403WithHealthKitsCode() async throws {
        try await DaemonHarness.with { daemon in
            let token = try await daemon.connect("com.example.log", share: [steps])
            let save = try await daemon.raw(.POST, "/v1/objects", body: """
                {"samples":[{"uuid":"\(UUID())","type":"\(heartRate.identifier)","startDate":"2026-11-24T10:00:00Z","endDate":"2026-11-24T10:00:00Z","quantity":{"value":60,"unit":"count/min"}}]}
                """, token: token)
            #expect(save.status == 403)
            #expect(save.header("content-type") == "application/problem+json")
            #expect(save.json["code"] as? Int == HKError.Code.errorAuthorizationNotDetermined.rawValue)
            let statuses = try await daemon.client(token: token)
                .authorizationStatus(body: .json(.init(types: [steps.identifier, heartRate.identifier]))).ok.body.json.statuses
            #expect(statuses == [.sharingAuthorized, .notDetermined])
        }
    }

    /// One bad sample in a batch: 400 naming it, and none of the batch is stored.
    @Test func aBatchIsSavedWholeOrNotAtAll() async throws {
        try await DaemonHarness.with { daemon in
            let token = try await daemon.connect("com.example.log", share: [steps], read: [steps])
            let good = Self.sample(steps.identifier, Self.morning, quantity: .init(value: 10, unit: "count"))
            let backwards = Self.sample(steps.identifier, Self.morning, seconds: -60, quantity: .init(value: 10, unit: "count"))
            let client = daemon.client(token: token)
            guard case .badRequest(let refused) = try await client.saveObjects(body: .json(.init(samples: [good, good, backwards]))) else {
                Issue.record("the batch was not refused"); return
            }
            let problem = try refused.body.applicationProblemJson
            #expect(problem.field == "/samples/2" && problem.code == HKError.Code.errorInvalidArgument.rawValue, "\(problem)")
            #expect(try await client.querySamples(body: .json(.init(_type: steps.identifier))).ok.body.json.samples.isEmpty)
        }
    }
}
