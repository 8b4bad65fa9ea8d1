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
            let list = try await client.querySamples(body: .json(.init(_type: steps.identifier))).ok.body.json
            let found = list.samples
            #expect(found.count == 1)
            let back = try #require(found.first)
            #expect(back.uuid == walk.uuid && back.startDate == walk.startDate && back.endDate == walk.endDate)
            let index = try #require(back.sourceIndex)
            let source = try #require(list.sources?[index])
            #expect(back.quantity == walk.quantity && source.name == "Log" && source.bundleIdentifier == "com.example.log")
            #expect(source.productType?.isEmpty == false && source.operatingSystemVersion != nil, "the revision it was saved with")
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

    /// A list carries each source revision and device once, however many samples share it; every sample names its own
    /// by index, and none carries them itself.
    @Test func aListCarriesEachSourceAndDeviceOnce() async throws {
        try await DaemonHarness.with { daemon in
            let watch = Components.Schemas.Device(name: "Watch", manufacturer: "Acme", model: "W2")
            let ring = Components.Schemas.Device(name: "Ring", manufacturer: "Acme", firmwareVersion: "4.1")
            for (app, devices) in [("com.example.watch", [watch, nil]), ("com.example.ring", [ring, watch])] {
                let client = daemon.client(token: try await daemon.connect(app, share: [heartRate]))
                _ = try await client.saveObjects(body: .json(.init(samples: (0..<30).map { minute in
                    var sample = Self.sample(heartRate.identifier, Self.morning.addingTimeInterval(Double(minute) * 60), seconds: 0,
                                             quantity: .init(value: 60, unit: "count/min"))
                    sample.device = devices[minute % 2]
                    return sample
                }))).noContent
            }
            let reader = try await daemon.connect("com.example.reader", read: [heartRate])
            let answer = try await daemon.raw(.POST, "/v1/queries/samples", body: #"{"type":"\#(heartRate.identifier)"}"#, token: reader)
            let samples = try #require(answer.json["samples"] as? [[String: Any]])
            let sources = try #require(answer.json["sources"] as? [[String: Any]]).map { $0["bundleIdentifier"] as? String }
            let devices = try #require(answer.json["devices"] as? [[String: Any]]).map { $0["name"] as? String }
            #expect(samples.count == 60 && Set(sources) == ["com.example.watch", "com.example.ring"] && sources.count == 2)
            #expect(Set(devices) == ["Watch", "Ring"] && devices.count == 2)
            #expect(samples.allSatisfy { $0["source"] == nil && $0["device"] == nil })
            // Each sample names the source and device it was saved with.
            var named: [String: Int] = [:]
            for sample in samples {
                let index = try #require(sample["sourceIndex"] as? Int)
                let source = try #require(sources[index])
                let device = (sample["deviceIndex"] as? Int).map { devices[$0] ?? "?" } ?? "none"
                named["\(source) \(device)", default: 0] += 1
            }
            #expect(named == ["com.example.watch Watch": 15, "com.example.watch none": 15, "com.example.ring Ring": 15, "com.example.ring Watch": 15])
        }
    }

    /// A sample an app saves carries its own device: the index fields of the daemon's lists are refused, naming the field.
    @Test func aSampleToSaveCannotNameAListsDevice() async throws {
        try await DaemonHarness.with { daemon in
            let token = try await daemon.connect("com.example.log", share: [steps], read: [steps])
            for field in ["deviceIndex", "sourceIndex"] {
                let save = try await daemon.raw(.POST, "/v1/objects", body: """
                    {"samples":[{"uuid":"\(UUID())","type":"\(steps.identifier)","startDate":"2026-11-24T10:00:00Z","endDate":"2026-11-24T10:01:00Z","quantity":{"value":6,"unit":"count"},"\(field)":0}]}
                    """, token: token)
                #expect(save.status == 400 && save.json["field"] as? String == "/samples/0/\(field)", "\(save.body)")
            }
            #expect(try await daemon.client(token: token).querySamples(body: .json(.init(_type: steps.identifier))).ok.body.json.samples.isEmpty)
        }
    }

    /// The sample and anchored queries' answers are written by hand; a request those routes do not take (another media
    /// type, an `Accept` without JSON, a query that does not decode) gets the generated route's refusal, word for word.
    @Test(arguments: [
        ("/v1/queries/samples", #"{"type":"\#(steps.identifier)""#, #"{"samples":[]}"#, ""),
        ("/v1/queries/anchored", #"{"queries":[{"type":"\#(steps.identifier)"}]"#, #"{"samples":[],"deletedObjects":[],"anchor":""#, "/queries/0"),
    ])
    func aQueryTheHandRouteDoesNotTakeIsRefusedAsEveryOther(path: String, open: String, answer: String, part: String) async throws {
        try await DaemonHarness.with { daemon in
            let token = try await daemon.connect("com.example.log", read: [steps])
            let query = open + "}"
            let fine = try await daemon.raw(.POST, path, body: query, token: token)
            #expect(fine.status == 200 && fine.header("content-type") == "application/json; charset=utf-8" && fine.body.hasPrefix(answer), "\(fine.body)")
            let text = try await daemon.raw(.POST, path, body: query, token: token, headers: [("content-type", "text/plain")])
            #expect(text.status == 415 && text.header("content-type") == "application/problem+json", "\(text.status) \(text.body)")
            let xml = try await daemon.raw(.POST, path, body: query, token: token,
                                           headers: [("content-type", "application/json"), ("accept", "application/xml")])
            #expect(xml.status == 406 && xml.header("content-type") == "application/problem+json", "\(xml.status) \(xml.body)")
            let unknown = try await daemon.raw(.POST, path, body: open + #","colour":"red"}"#, token: token)
            #expect(unknown.status == 400 && unknown.json["field"] as? String == "/colour", "\(unknown.body)")
            let type = try await daemon.raw(.POST, path, body: query.replacingOccurrences(of: #""\#(steps.identifier)""#, with: "7"), token: token)
            #expect(type.status == 400 && type.json["field"] as? String == part + "/type", "\(type.body)")
        }
    }

    /// Saves are read by hand too; a save that route does not take (another media type, a batch that does not decode) gets
    /// the generated route's refusal, word for word, and one it takes is stored.
    @Test func aSaveTheHandRouteDoesNotTakeIsRefusedAsEveryOther() async throws {
        try await DaemonHarness.with { daemon in
            let token = try await daemon.connect("com.example.log", share: [steps], read: [steps])
            func batch(_ extra: String = "", type: String = #""\#(steps.identifier)""#) -> String {
                #"{"samples":[{"uuid":"\#(UUID())","type":\#(type),"startDate":"2026-11-24T10:00:00Z","endDate":"2026-11-24T10:01:00Z","quantity":{"value":6,"unit":"count"}}]\#(extra)}"#
            }
            let fine = try await daemon.raw(.POST, "/v1/objects", body: batch(), token: token)
            #expect(fine.status == 204 && fine.body.isEmpty, "\(fine.status) \(fine.body)")
            // As the generated client asks (a save answers only problems), and with an `Accept` the route leaves to the
            // generated one, which stores it too: a 204 has no body to refuse.
            for accept in ["application/problem+json", "application/xml"] {
                let asked = try await daemon.raw(.POST, "/v1/objects", body: batch(), token: token, headers: [("accept", accept)])
                #expect(asked.status == 204, "\(accept): \(asked.status) \(asked.body)")
            }
            let text = try await daemon.raw(.POST, "/v1/objects", body: batch(), token: token, headers: [("content-type", "text/plain")])
            #expect(text.status == 415 && text.header("content-type") == "application/problem+json", "\(text.status) \(text.body)")
            let unknown = try await daemon.raw(.POST, "/v1/objects", body: batch(#","colour":"red""#), token: token)
            #expect(unknown.status == 400 && unknown.json["field"] as? String == "/colour", "\(unknown.body)")
            let type = try await daemon.raw(.POST, "/v1/objects", body: batch(type: "7"), token: token)
            #expect(type.status == 400 && type.json["field"] as? String == "/samples/0/type", "\(type.body)")
            let unknownType = try await daemon.raw(.POST, "/v1/objects", body: batch(type: #""HKQuantityTypeIdentifierColour""#), token: token)
            #expect(unknownType.status == 400 && unknownType.json["field"] as? String == "/samples/0/type", "\(unknownType.body)")
            #expect(try await daemon.client(token: token).querySamples(body: .json(.init(_type: steps.identifier))).ok.body.json.samples.count == 3)
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
