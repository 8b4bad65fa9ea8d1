import AsyncHTTPClient
import Foundation
import HealthAPI
import NIOCore
import NIOHTTP1
import OpenHealthKit
import Testing

private let steps = HKQuantityType(.stepCount)
private let heartRate = HKQuantityType(.heartRate)
private let stepsOnly = #"{"queries":[{"type":"HKQuantityTypeIdentifierStepCount"}]}"#
private let sample = #"{"samples":[{"uuid":"UUID","type":"HKQuantityTypeIdentifierStepCount","startDate":"2026-11-24T10:00:00Z","endDate":"2026-11-24T10:10:00Z","quantity":{"value":12,"unit":"count"}}]}"#

/// Observer queries as Server-Sent Events (`/v1/streams/observer`), read as any SSE client reads them: a start, an
/// update per visible change, ids that resume a stream, and the end of the stream when the person revokes the app.
@Suite("The daemon: observer streams")
struct ObserverStreamTests {
    @Test(.timeLimit(.minutes(3)))
    func aStreamStartsThenSaysWhichTypesChangedAndResumesFromTheLastEventID() async throws {
        try await DaemonHarness.with { daemon in
            let token = try await daemon.connect("com.example.steps", share: [steps], read: [steps])
            let first = try await EventStream.open(daemon, stepsOnly, token: token)
            #expect(first.status == 200 && first.contentType == "text/event-stream", "\(first.status) \(first.problem)")
            let start = try #require(try await first.next())
            #expect(start.event == "update" && start.json["start"] as? Bool == true && start.json["types"] as? [String] == [])
            let startID = try #require(start.id)

            let saved = try await daemon.raw(.POST, "/v1/objects", body: sample.replacingOccurrences(of: "UUID", with: UUID().uuidString), token: token)
            #expect(saved.status == 204)
            let heard = try #require(try await first.next())
            #expect(heard.event == "update" && heard.json["types"] as? [String] == [steps.identifier] && heard.json["start"] == nil)

            // A client that lost the connection after the start comes back with its id: the change is there at once.
            let resumed = try await EventStream.open(daemon, stepsOnly, token: token, lastEventID: startID)
            #expect(resumed.status == 200)
            let caughtUp = try #require(try await resumed.next())
            #expect(caughtUp.json["types"] as? [String] == [steps.identifier] && caughtUp.json["start"] == nil)
            #expect(caughtUp.id == heard.id)
            // Resuming from the newest id: nothing to catch up on, the next event is the next change.
            let current = try await EventStream.open(daemon, stepsOnly, token: token, lastEventID: try #require(heard.id))
            _ = try await daemon.raw(.POST, "/v1/objects", body: sample.replacingOccurrences(of: "UUID", with: UUID().uuidString), token: token)
            #expect(try await current.next()?.json["types"] as? [String] == [steps.identifier])
        }
    }

    @Test(.timeLimit(.minutes(3)))
    func anotherAppsChangesToATypeTheAppMayNotReadAreNeverAnUpdate() async throws {
        try await DaemonHarness.with { daemon in
            let reader = try await daemon.connect("com.example.reader", read: [steps])
            let writer = try await daemon.connect("com.example.writer", share: [steps, heartRate])
            let stream = try await EventStream.open(daemon, #"{"queries":[{"type":"HKQuantityTypeIdentifierStepCount"},{"type":"HKQuantityTypeIdentifierHeartRate"}]}"#,
                                                    token: reader)
            _ = try await stream.next()
            let beat = #"{"samples":[{"uuid":"\#(UUID().uuidString)","type":"HKQuantityTypeIdentifierHeartRate","startDate":"2026-11-24T10:00:00Z","endDate":"2026-11-24T10:00:00Z","quantity":{"value":70,"unit":"count/min"}}]}"#
            #expect(try await daemon.raw(.POST, "/v1/objects", body: beat, token: writer).status == 204)
            #expect(try await daemon.raw(.POST, "/v1/objects", body: sample.replacingOccurrences(of: "UUID", with: UUID().uuidString), token: writer).status == 204)
            // The heart rate it may not read changed first; the first update it hears names steps only.
            #expect(try await stream.next()?.json["types"] as? [String] == [steps.identifier])
        }
    }

    /// A stream's id moves only with what the app may read: two fresh streams, before and after other apps wrote what
    /// it may not see (of the observed type and of others), start at the same id; a write it may see moves the id.
    @Test(.timeLimit(.minutes(3)))
    func aStartIDMovesOnlyWithWhatTheAppMayRead() async throws {
        try await DaemonHarness.with { daemon in
            let reader = try await daemon.connect("com.example.reader")
            let writer = try await daemon.connect("com.example.writer", share: [steps, heartRate])
            let before = try #require(try await EventStream.open(daemon, stepsOnly, token: reader).next()?.id)
            let beat = #"{"samples":[{"uuid":"\#(UUID().uuidString)","type":"HKQuantityTypeIdentifierHeartRate","startDate":"2026-11-24T10:00:00Z","endDate":"2026-11-24T10:00:00Z","quantity":{"value":70,"unit":"count/min"}}]}"#
            #expect(try await daemon.raw(.POST, "/v1/objects", body: beat, token: writer).status == 204)
            #expect(try await daemon.raw(.POST, "/v1/objects", body: sample.replacingOccurrences(of: "UUID", with: UUID().uuidString), token: writer).status == 204)
            let after = try #require(try await EventStream.open(daemon, stepsOnly, token: reader).next()?.id)
            #expect(after == before, "the id moved with writes the reader may not see")

            try daemon.person().setPermission(app: "com.example.reader", type: steps, share: nil, read: true)
            let granted = try #require(try await EventStream.open(daemon, stepsOnly, token: reader).next()?.id)
            #expect(granted != before, "the writer's steps, now readable, do not move the id")
        }
    }

    @Test func anIDMadeForAnotherAppOrNoneIs400AndAnUnknownTypeToo() async throws {
        try await DaemonHarness.with { daemon in
            let first = try await daemon.connect("com.example.first", read: [steps])
            let second = try await daemon.connect("com.example.second", read: [steps])
            let theirs = try #require(try await EventStream.open(daemon, stepsOnly, token: first).next()?.id)
            for id in [theirs, "bm9wZQ==", "not base64"] {
                let refused = try await EventStream.open(daemon, stepsOnly, token: second, lastEventID: id)
                #expect(refused.status == 400 && refused.problem["field"] as? String == "Last-Event-ID", "\(refused.problem)")
            }
            let unknown = try await EventStream.open(daemon, #"{"queries":[{"type":"HKQuantityTypeIdentifierSteps"}]}"#, token: second)
            #expect(unknown.status == 400 && unknown.problem["field"] as? String == "/queries/0/type")
            let anonymous = try await EventStream.open(daemon, stepsOnly, token: nil)
            #expect(anonymous.status == 401)
        }
    }

    @Test(.timeLimit(.minutes(3)))
    func revokingTheAppEndsItsOpenStreamAndItsReconnectIs401() async throws {
        try await DaemonHarness.with { daemon in
            let token = try await daemon.connect("com.example.steps", read: [steps])
            let stream = try await EventStream.open(daemon, stepsOnly, token: token)
            _ = try await stream.next()
            let registration = try #require(try daemon.person().registrations().first { $0.manifest.bundleIdentifier == "com.example.steps" })
            let revokedAt = ContinuousClock.now
            _ = try daemon.person().decideRegistration(registration.id, .revoked)
            #expect(try await stream.next() == nil)
            // Checked every second; the bound leaves room for a loaded CI machine (all suites run at once on two cores,
            // beside the browser test's chromium: 19.8 s was seen).
            #expect(ContinuousClock.now - revokedAt < .seconds(45))
            #expect(try await EventStream.open(daemon, stepsOnly, token: token).status == 401)
        }
    }

    /// The remote store's observer reconnects by itself: the daemon stops, a sample is saved meanwhile, a new daemon
    /// serves the store, and the app hears the change once — as it would have had the daemon never stopped.
    @Test(.timeLimit(.minutes(3)))
    func aRemoteObserverQueryGoesOnAcrossARestartOfTheDaemon() async throws {
        let first = try await DaemonHarness.start()
        let token = try await first.connect("com.example.steps", name: AppManifest.steps.name, share: [steps], read: [steps])
        let app = HKHealthStore(configuration: .init(server: .init(address: first.socketPath, token: token), app: .steps))
        let (calls, continuation) = AsyncStream<String>.makeStream()
        let query = HKObserverQuery(queryDescriptors: [HKQueryDescriptor(sampleType: steps, predicate: nil)]) { _, types, done, error in
            continuation.yield(error.map { "error \($0)" } ?? types.map { $0.map(\.identifier).sorted().joined(separator: ",") } ?? "start")
            done()
        }
        app.execute(query)
        var heard = calls.makeAsyncIterator()
        #expect(await heard.next() == "start")
        await first.stopKeepingTheStore()
        // Saved while no daemon runs (the app's own sample, through the engine in this process).
        let embedded = HKHealthStore(configuration: .init(storeDirectory: first.store, app: .steps, presenter: ScriptedPresenter(.denyAll)))
        try await embedded.save(HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: 3), start: Date(), end: Date()))
        let second = try await DaemonHarness.start(folder: first.folder)
        #expect(await heard.next() == steps.identifier)
        try await app.save(HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: 4), start: Date(), end: Date()))
        #expect(await heard.next() == steps.identifier)
        app.stop(query)
        await second.stop()
    }
}

/// One event: its type, data (as JSON) and id.
struct Event: Equatable {
    var event: String?
    var data = ""
    var id: String?
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] ?? [:] }

    static func == (a: Event, b: Event) -> Bool { a.event == b.event && a.data == b.data && a.id == b.id }
}

/// An open event stream, read one event at a time (keepalives skipped) as an SSE client reads it.
final class EventStream {
    let status: Int
    let contentType: String?
    /// The problem document of a refusal.
    let problem: [String: Any]
    private var body: HTTPClientResponse.Body.AsyncIterator?
    private var buffer = ""

    private init(status: Int, contentType: String?, problem: [String: Any], body: HTTPClientResponse.Body.AsyncIterator?) {
        self.status = status
        self.contentType = contentType
        self.problem = problem
        self.body = body
    }

    static func open(_ daemon: DaemonHarness, _ query: String, token: String?, lastEventID: String? = nil,
                     path: String = "/v1/streams/observer") async throws -> EventStream {
        var request = HTTPClientRequest(url: daemon.baseURL + path)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/json")
        if let token { request.headers.add(name: "authorization", value: "Bearer \(token)") }
        if let lastEventID { request.headers.add(name: "last-event-id", value: lastEventID) }
        request.body = .bytes(ByteBuffer(string: query))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        guard response.status == .ok else {
            let bytes = try await response.body.collect(upTo: 1 << 20)
            let problem = (try? JSONSerialization.jsonObject(with: Data(buffer: bytes))) as? [String: Any] ?? [:]
            return EventStream(status: Int(response.status.code), contentType: response.headers.first(name: "content-type"), problem: problem, body: nil)
        }
        return EventStream(status: 200, contentType: response.headers.first(name: "content-type"), problem: [:],
                           body: response.body.makeAsyncIterator())
    }

    /// The next event but keepalives, or nil when the stream ended.
    func next() async throws -> Event? {
        while true {
            if let end = buffer.range(of: "\n\n") {
                let block = buffer[..<end.lowerBound]
                buffer.removeSubrange(..<end.upperBound)
                var event = Event()
                for line in block.split(separator: "\n") {
                    let (field, value) = line.firstIndex(of: ":").map { (line[..<$0], line[line.index(after: $0)...].drop { $0 == " " }) } ?? (line[...], "")
                    switch field {
                    case "event": event.event = String(value)
                    case "data": event.data += event.data.isEmpty ? String(value) : "\n" + value
                    case "id": event.id = String(value)
                    default: break
                    }
                }
                if event.event == "keepalive" { continue }
                return event
            }
            guard let chunk = try await body?.next() else { return nil }
            buffer += String(buffer: chunk)
        }
    }
}
