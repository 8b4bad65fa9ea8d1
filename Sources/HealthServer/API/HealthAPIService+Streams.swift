import Foundation
import HealthAPI
import HealthModel
import HealthStore
import OpenAPIRuntime
import OpenHealthKit
import ServiceLifecycle

/// Long-running queries as Server-Sent Events. An observer stream says *that* types the app may read changed, as an
/// embedded `HKObserverQuery` hears it, never what changed. Each update's id is the store position it holds up to,
/// sealed for the app: sent back as `Last-Event-ID`, the stream resumes there — across a reconnect or a restart of the
/// daemon — and an id made for another app or another store is refused. The stream ends when the person revokes the
/// app (checked every second and before each update, as the next request would be) and when the daemon stops.
extension HealthAPIService {
    /// How often an open stream checks that its app's credential still holds.
    static let credentialCheckInterval: Duration = .seconds(1)
    /// How often a quiet stream sends a `keepalive` event, so a client that went away is noticed.
    static let keepaliveInterval: Duration = .seconds(15)

    func streamObserverUpdates(_ input: Operations.StreamObserverUpdates.Input) async throws -> Operations.StreamObserverUpdates.Output {
        let request = switch input.body { case .json(let body): body }   // the only content type; others are 415 before here
        let plan = AnchoredPlan(parts: try Self.parts(request.queries), limit: nil)
        let token = CallingApp.token
        let registrations = registrations
        let none = Dictionary(plan.queries.map { ($0.type.identifier, 0) }, uniquingKeysWith: { $1 })
        return try await logged("observerQuery", attempted: none) { store in
            let app = store.configuration.app.bundleIdentifier
            let samples = try store.sampleStore()
            let seal = try samples.anchorSeal(for: app)
            var resumeFrom: AnchorPosition?
            if let id = input.headers.lastEventID {
                guard let sealed = Data(base64Encoded: id), let position = try? seal.open(sealed) else {
                    throw Problem(.badRequest, "invalid event id",
                                  detail: "Last-Event-ID: not the id of an event this daemon sent this app", code: .errorInvalidArgument,
                                  field: "Last-Event-ID")
                }
                resumeFrom = position
            }
            let feed = ObserverFeed.updates(plan, samples: samples, app: app, after: resumeFrom)
            let body = Self.eventStream(feed, stillAllowed: Self.stillAllowed(app, token: token, in: registrations)) { update in
                let data = Components.Schemas.ObserverUpdate(types: update.changed.map { $0.sorted() } ?? [],
                                                            start: update.changed == nil ? true : nil)
                return ServerSentEventWithJSONData(event: "update", data: data, id: seal.seal(update.position).base64EncodedString())
            }
            return (.ok(.init(body: .textEventStream(body))), none)
        }
    }

    /// Whether `app`'s credential still holds (as the next request would find it).
    static func stillAllowed(_ app: String, token: String?, in registrations: AppRegistrations) -> @Sendable () -> Bool {
        {
            guard let token else { return false }
            return (try? registrations.app(forToken: token))?.bundleIdentifier == app
        }
    }

    /// The body of an event stream: the feed's elements as events (and keepalives) until the feed ends, the credential
    /// stops holding, the client goes, or the daemon stops.
    static func eventStream<Element: Sendable, Payload: Encodable & Sendable>(
        _ feed: AsyncThrowingStream<Element, any Error>, stillAllowed: @escaping @Sendable () -> Bool,
        event: @escaping @Sendable (Element) -> ServerSentEventWithJSONData<Payload>
    ) -> HTTPBody {
        let (events, continuation) = AsyncStream<ServerSentEventWithJSONData<Payload>>.makeStream()
        // Not detached: the task keeps the request's graceful-shutdown context, so the daemon stopping ends the stream.
        let producer = Task {
            await withGracefulShutdownHandler {
                await relay(feed, to: continuation, stillAllowed: stillAllowed, event: event)
            } onGracefulShutdown: {
                continuation.finish()
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in producer.cancel() }
        return HTTPBody(events.asEncodedServerSentEventsWithJSONData(), length: .unknown, iterationBehavior: .single)
    }

    /// Sends the feed's elements as events until the feed ends, the credential stops holding, or the consumer goes.
    private static func relay<Element: Sendable, Payload: Encodable & Sendable>(
        _ feed: AsyncThrowingStream<Element, any Error>,
        to events: AsyncStream<ServerSentEventWithJSONData<Payload>>.Continuation,
        stillAllowed: @escaping @Sendable () -> Bool,
        event: @escaping @Sendable (Element) -> ServerSentEventWithJSONData<Payload>
    ) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    for try await element in feed {
                        guard stillAllowed() else { return }
                        events.yield(event(element))
                    }
                } catch {
                    // The store failed under the stream: it ends, and the client's reconnect gets the error as a problem.
                }
            }
            group.addTask {
                var quiet: Duration = .zero
                while !Task.isCancelled, stillAllowed() {
                    try? await Task.sleep(for: credentialCheckInterval)
                    quiet += credentialCheckInterval
                    if quiet >= keepaliveInterval {
                        quiet = .zero
                        if case .terminated = events.yield(.init(event: "keepalive")) { return }
                    }
                }
            }
            // Whichever ends first (the feed, a revocation, the consumer) ends the stream.
            await group.next()
            group.cancelAll()
        }
    }

    /// `HKAnchoredObjectQuery` with an update handler: the first answer, then each later change the app may see, as
    /// the app's embedded store would report them. Each event's id is the anchor after it.
    func streamAnchoredUpdates(_ input: Operations.StreamAnchoredUpdates.Input) async throws -> Operations.StreamAnchoredUpdates.Output {
        let query = switch input.body { case .json(let body): body }   // the only content type; others are 415 before here
        let plan = AnchoredPlan(parts: try Self.parts(query.queries), limit: query.limit.flatMap { $0 > 0 ? $0 : nil })
        var anchor = try Self.anchor(query)
        var field = "/anchor"
        if let id = input.headers.lastEventID {
            guard let sealed = Data(base64Encoded: id) else {
                throw Problem(.badRequest, "invalid event id", detail: "Last-Event-ID: not the id of an event this daemon sent this app",
                              code: .errorInvalidArgument, field: "Last-Event-ID")
            }
            (anchor, field) = (.sealed(sealed), "Last-Event-ID")
        }
        let token = CallingApp.token
        let registrations = registrations
        let none = Dictionary(plan.queries.map { ($0.type.identifier, 0) }, uniquingKeysWith: { $1 })
        return try await logged("anchoredQuery", attempted: none) { store in
            let app = store.configuration.app.bundleIdentifier
            // An anchor made for another app or another store is refused now, not once the stream has begun.
            if let anchor, (try? anchor.position(opening: store.sampleStore().anchorSeal(for: app))) == nil {
                throw Problem(.badRequest, "invalid anchor", detail: "\(field): not an anchor this daemon gave this app", code: .errorInvalidArgument,
                              field: field)
            }
            let answers = try store.backend().anchoredUpdates(plan, after: anchor)
            let body = Self.eventStream(answers, stillAllowed: Self.stillAllowed(app, token: token, in: registrations)) { answer in
                let sealed = answer.anchor.wireForm.sealed?.base64EncodedString() ?? ""
                let list = WireSample.list(answer.samples)
                let changes = Components.Schemas.AnchoredChanges(
                    samples: list.samples, sources: list.sources, devices: list.devices, deletedObjects: answer.deleted.map(WireDeletedObject.wire),
                    anchor: sealed, anchorValue: answer.integerAnchor)
                return ServerSentEventWithJSONData(event: "changes", data: changes, id: sealed)
            }
            return (.ok(.init(body: .textEventStream(body))), none)
        }
    }

    /// `HKActivitySummaryQuery` with an update handler: the summaries the app may read, then the new or changed ones
    /// after each change. Each event's id is the store's activity revision sealed for the app (marked so that no
    /// anchor of another stream opens as one).
    func streamActivitySummaryUpdates(_ input: Operations.StreamActivitySummaryUpdates.Input) async throws
        -> Operations.StreamActivitySummaryUpdates.Output
    {
        let query = switch input.body { case .json(let body): body }   // the only content type; others are 415 before here
        let filter = try query.predicate.map { try Self.filter($0, at: "/predicate") }
        let token = CallingApp.token
        let registrations = registrations
        let type = HKObjectType.activitySummaryType().identifier
        return try await logged("activitySummaryQuery", attempted: [type: 0]) { store in
            let app = store.configuration.app.bundleIdentifier
            let seal = try store.sampleStore().anchorSeal(for: app)
            _ = try filter?.activitySummarySQL()   // a sample predicate is refused now, not once the stream has begun
            var revision: Int?
            if let id = input.headers.lastEventID {
                guard let sealed = Data(base64Encoded: id), let position = try? seal.open(sealed), position.deleted == Self.activityMark else {
                    throw Problem(.badRequest, "invalid event id",
                                  detail: "Last-Event-ID: not the id of an event this daemon sent this app on this stream",
                                  code: .errorInvalidArgument, field: "Last-Event-ID")
                }
                revision = Int(position.sample)
            }
            guard let engine = try store.backend() as? EmbeddedBackend else {
                throw Problem(HKError(.errorDatabaseInaccessible, "the daemon's store is not open in the daemon"))
            }
            let snapshots = engine.activitySummarySnapshots(matching: filter, after: revision)
            let body = Self.eventStream(snapshots, stillAllowed: Self.stillAllowed(app, token: token, in: registrations)) { snapshot in
                let id = seal.seal(AnchorPosition(sample: Int64(snapshot.revision), deleted: Self.activityMark)).base64EncodedString()
                let list = Components.Schemas.ActivitySummaryList(summaries: snapshot.summaries.map(WireActivitySummary.wire))
                return ServerSentEventWithJSONData(event: "summaries", data: list, id: id)
            }
            return (.ok(.init(body: .textEventStream(body))), [type: 0])
        }
    }

    /// The person's preferred units for `HKUserPreferencesDidChange`: the units of the types the app may ask about, then
    /// the same each time one of them changes (a change of another type sends nothing).
    func streamPreferredUnitUpdates(_ input: Operations.StreamPreferredUnitUpdates.Input) async throws
        -> Operations.StreamPreferredUnitUpdates.Output
    {
        let token = CallingApp.token
        let registrations = registrations
        return try await logged("preferredUnitUpdates", attempted: [:]) { store in
            let app = store.configuration.app.bundleIdentifier
            guard let engine = try store.backend() as? EmbeddedBackend else {
                throw Problem(HKError(.errorDatabaseInaccessible, "the daemon's store is not open in the daemon"))
            }
            let body = Self.eventStream(engine.preferredUnitUpdates(), stillAllowed: Self.stillAllowed(app, token: token, in: registrations)) { units in
                ServerSentEventWithJSONData(event: "units", data: Components.Schemas.PreferredUnits(units: .init(additionalProperties: units)))
            }
            return (.ok(.init(body: .textEventStream(body))), [:])
        }
    }

    /// What marks a sealed position as an activity-summary revision (a store position never has a negative part).
    private static let activityMark: Int64 = -1
}
