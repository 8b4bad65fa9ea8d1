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
            let (events, continuation) = AsyncStream<ServerSentEventWithJSONData<Components.Schemas.ObserverUpdate>>.makeStream()
            // Not detached: the task keeps the request's graceful-shutdown context, so the daemon stopping ends the stream.
            let producer = Task {
                await withGracefulShutdownHandler {
                    await Self.relay(feed, to: continuation, seal: seal) {
                        guard let token else { return false }
                        return (try? registrations.app(forToken: token))?.bundleIdentifier == app
                    }
                } onGracefulShutdown: {
                    continuation.finish()
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in producer.cancel() }
            let body = HTTPBody(events.asEncodedServerSentEventsWithJSONData(), length: .unknown, iterationBehavior: .single)
            return (.ok(.init(body: .textEventStream(body))), none)
        }
    }

    /// Sends the feed's updates as events until the feed ends, the credential stops holding, or the consumer goes.
    private static func relay(
        _ feed: AsyncThrowingStream<ObserverFeed.Update, any Error>,
        to events: AsyncStream<ServerSentEventWithJSONData<Components.Schemas.ObserverUpdate>>.Continuation,
        seal: AnchorSeal, stillAllowed: @escaping @Sendable () -> Bool
    ) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    for try await update in feed {
                        guard stillAllowed() else { return }
                        let data = Components.Schemas.ObserverUpdate(types: update.changed.map { $0.sorted() } ?? [],
                                                                    start: update.changed == nil ? true : nil)
                        events.yield(.init(event: "update", data: data, id: seal.seal(update.position).base64EncodedString()))
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
}
