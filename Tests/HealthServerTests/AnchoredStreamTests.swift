import Foundation
import OpenHealthKit
import Synchronization
import Testing

private let steps = HKQuantityType(.stepCount)
private let heartRate = HKQuantityType(.heartRate)
private let base = Date(timeIntervalSinceReferenceDate: 800_000_000)
private let bpm = HKUnit(from: "count/min")

private func stepSample(_ count: Double, at minute: Int) -> HKQuantitySample {
    HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: count), start: base.addingTimeInterval(Double(minute) * 60),
                     end: base.addingTimeInterval(Double(minute) * 60 + 30))
}

/// What a long-running anchored query's handlers received, in order.
private final class Reports: Sendable {
    struct Report: Sendable { let added: [UUID], deleted: [UUID], anchor: HKQueryAnchor?, error: String? }
    private let reports = Mutex<[Report]>([])

    func note(_ added: [HKSample]?, _ deleted: [HKDeletedObject]?, _ anchor: HKQueryAnchor?, _ error: (any Error)?) {
        reports.withLock { $0.append(Report(added: added?.map(\.uuid) ?? [], deleted: deleted?.map(\.uuid) ?? [], anchor: anchor,
                                            error: error.map { "\($0)" })) }
    }

    /// The reports once there are `count`, or all there are after `timeout`.
    func reaching(_ count: Int, within timeout: Duration = .seconds(20)) async throws -> [Report] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let now = reports.withLock { $0 }
            if now.count >= count { return now }
            try await Task.sleep(for: .milliseconds(20))
        }
        return reports.withLock { $0 }
    }
}

/// `HKAnchoredObjectQuery` with an update handler on both backends (through the daemon, its anchored event stream):
/// the first results, then each save or delete the app may see, never another app's change it may not read.
@Suite("Anchored updates on both backends")
struct AnchoredUpdatesTests {
    @Test(.timeLimit(.minutes(3)), arguments: Backend.allCases)
    func anUpdateHandlerHearsEachVisibleSaveAndDeleteWithAnAnchorThatGoesOn(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let other = try await session.app(.other, answering: .allowAll)
            try await other.requestAuthorization(toShare: [steps, heartRate], read: [])
            let app = try await session.app(.steps, answering: .init(default: .allow, read: [heartRate.identifier: .deny]))
            try await app.requestAuthorization(toShare: [steps], read: [steps, heartRate])
            let early = [stepSample(1, at: 0), stepSample(2, at: 1), stepSample(3, at: 2)]
            try await app.save(early)

            let reports = Reports()
            let query = HKAnchoredObjectQuery(queryDescriptors: [HKQueryDescriptor(sampleType: steps, predicate: nil),
                                                                 HKQueryDescriptor(sampleType: heartRate, predicate: nil)],
                                              anchor: nil, limit: 2) { _, added, deleted, anchor, error in
                reports.note(added, deleted, anchor, error)
            }
            query.updateHandler = { _, added, deleted, anchor, error in reports.note(added, deleted, anchor, error) }
            app.execute(query)
            let first = try await reports.reaching(1)
            #expect(first.first?.added == early.prefix(2).map(\.uuid), "the limit applies to the first results")

            // What the limit held back comes at once.
            #expect(try await reports.reaching(2).last?.added == [early[2].uuid])
            // Another app's heart rate, hidden from this app, is no update at all; its steps are one.
            try await other.save(HKQuantitySample(type: heartRate, quantity: HKQuantity(unit: bpm, doubleValue: 80), start: base, end: base))
            #expect(try await reports.reaching(3, within: .seconds(1)).count == 2)
            let theirs = stepSample(50, at: 5)
            try await other.save(theirs)
            #expect(try await reports.reaching(3).last?.added == [theirs.uuid])
            try await app.delete(early[0])
            let all = try await reports.reaching(4)
            #expect(all.count == 4 && all[3].added.isEmpty && all[3].deleted == [early[0].uuid], "\(all.map(\.added)) \(all.map(\.deleted))")
            #expect(all.allSatisfy { $0.error == nil })
            app.stop(query)

            // The last anchor goes on in a one-shot query: nothing new since.
            let after = try await HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: steps)], anchor: all[3].anchor).result(for: app)
            #expect(after.addedSamples.isEmpty && after.deletedObjects.isEmpty)
        }
    }
}

/// The anchored stream on the wire (`/v1/streams/anchored`): the first answer, each later change, ids that resume it.
@Suite("The daemon: anchored streams")
struct AnchoredStreamTests {
    static let stepsOnly = #"{"queries":[{"type":"HKQuantityTypeIdentifierStepCount"}]}"#
    static func save(_ daemon: DaemonHarness, token: String) async throws -> String {
        let uuid = UUID().uuidString
        let body = #"{"samples":[{"uuid":"\#(uuid)","type":"HKQuantityTypeIdentifierStepCount","startDate":"2026-11-24T10:00:00Z","endDate":"2026-11-24T10:10:00Z","quantity":{"value":12,"unit":"count"}}]}"#
        #expect(try await daemon.raw(.POST, "/v1/objects", body: body, token: token).status == 204)
        return uuid
    }

    @Test(.timeLimit(.minutes(3)))
    func theStreamSendsChangesAndResumesFromTheLastEventID() async throws {
        try await DaemonHarness.with { daemon in
            let token = try await daemon.connect("com.example.steps", share: [steps], read: [steps])
            let saved = try await Self.save(daemon, token: token)
            let stream = try await EventStream.open(daemon, Self.stepsOnly, token: token, path: "/v1/streams/anchored")
            #expect(stream.status == 200 && stream.contentType == "text/event-stream", "\(stream.status) \(stream.problem)")
            let first = try #require(try await stream.next())
            #expect(first.event == "changes" && (first.json["samples"] as? [[String: Any]])?.compactMap { $0["uuid"] as? String } == [saved])
            #expect(first.id != nil && first.id == first.json["anchor"] as? String)
            let next = try await Self.save(daemon, token: token)
            let heard = try #require(try await stream.next())
            #expect((heard.json["samples"] as? [[String: Any]])?.compactMap { $0["uuid"] as? String } == [next])

            // Back after a drop, from the first event's id: what changed meanwhile comes at once.
            let resumed = try await EventStream.open(daemon, Self.stepsOnly, token: token, lastEventID: try #require(first.id),
                                                     path: "/v1/streams/anchored")
            let caughtUp = try #require(try await resumed.next())
            #expect((caughtUp.json["samples"] as? [[String: Any]])?.compactMap { $0["uuid"] as? String } == [next])
            #expect(caughtUp.id == heard.id)
        }
    }

    @Test func anAnchorMadeForAnotherAppOrNoneIs400() async throws {
        try await DaemonHarness.with { daemon in
            let first = try await daemon.connect("com.example.first", read: [steps])
            let second = try await daemon.connect("com.example.second", read: [steps])
            let theirs = try #require(try await EventStream.open(daemon, Self.stepsOnly, token: first, path: "/v1/streams/anchored").next()?.id)
            for id in [theirs, "bm9wZQ==", "not base64"] {
                let refused = try await EventStream.open(daemon, Self.stepsOnly, token: second, lastEventID: id, path: "/v1/streams/anchored")
                #expect(refused.status == 400 && refused.problem["field"] as? String == "Last-Event-ID", "\(refused.problem)")
            }
            let inBody = try await EventStream.open(daemon, #"{"queries":[{"type":"HKQuantityTypeIdentifierStepCount"}],"anchor":"\#(theirs)"}"#,
                                                    token: second, path: "/v1/streams/anchored")
            #expect(inBody.status == 400 && inBody.problem["field"] as? String == "/anchor", "\(inBody.problem)")
        }
    }
}
