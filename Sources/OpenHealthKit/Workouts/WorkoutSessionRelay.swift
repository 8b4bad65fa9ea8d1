import Foundation
import Synchronization

/// Carries workout-session messages between the instances of one app on one store: the stores of this process that
/// opened it, or — in the daemon — the app's connections. Kept in memory only (a session lives as long as the
/// processes running it); one relay per store folder and app, so an app never hears another app's sessions.
///
/// An endpoint is either a *listener* (a store with `workoutSessionMirroringStartHandler` set: it hears mirrored
/// sessions start and every message to the mirrors of the app's sessions) or a *primary* session that started
/// mirroring (it hears the messages to it: the mirrors' data and requests). When a primary's endpoint goes — its
/// process ended, its connection to the daemon closed, its session was released — its mirrors are told that mirroring
/// stopped.
package final class WorkoutSessionRelay: Sendable {
    private struct Endpoint {
        /// The primary session this endpoint is, or nil for a listener.
        var session: UUID?
        /// Which registration this is (a reconnect registers the endpoint again).
        var registration: UUID
        var continuation: AsyncStream<WorkoutSessionMessage?>.Continuation
    }

    private let endpoints = Mutex<[UUID: Endpoint]>([:])
    private static let relays = Mutex<[String: WorkoutSessionRelay]>([:])

    private init() {}

    /// The relay of `app` on the store in `directory` (the same for every store opened on that folder in this process).
    package static func relay(store directory: URL, app: String) -> WorkoutSessionRelay {
        let key = directory.standardizedFileURL.resolvingSymlinksInPath().path + "\u{0}" + app
        return relays.withLock { relays in
            if let relay = relays[key] { return relay }
            let relay = WorkoutSessionRelay()
            relays[key] = relay
            return relay
        }
    }

    /// The messages to `endpoint`: `nil` first, once it is registered (so a sender can count on it), then each message
    /// to it, until the consumer stops. Registering an endpoint again (a reconnect) replaces the earlier registration.
    package func messages(endpoint: UUID, session: UUID?) -> AsyncStream<WorkoutSessionMessage?> {
        let (stream, continuation) = AsyncStream<WorkoutSessionMessage?>.makeStream(bufferingPolicy: .bufferingNewest(1_000))
        let registration = UUID()
        let replaced = endpoints.withLock { endpoints in
            defer { endpoints[endpoint] = Endpoint(session: session, registration: registration, continuation: continuation) }
            return endpoints[endpoint]?.continuation
        }
        replaced?.finish()
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            let removed = endpoints.withLock { endpoints in
                // Only this registration: a reconnect may have replaced it already.
                guard endpoints[endpoint]?.registration == registration else { return false }
                endpoints[endpoint] = nil
                return true
            }
            // A primary that went (its process ended, its session was released) stops mirroring: its mirrors hear so.
            if removed, let session {
                send(WorkoutSessionMessage(session: session, toPrimary: false, kind: .mirroringStopped), from: endpoint)
            }
        }
        continuation.yield(nil)
        return stream
    }

    /// Delivers `message` from `sender`: to the primary of its session, or to every listener (the sender aside).
    /// Returns how many endpoints it reached.
    @discardableResult
    package func send(_ message: WorkoutSessionMessage, from sender: UUID) -> Int {
        let targets = endpoints.withLock { endpoints in
            endpoints.filter { id, endpoint in
                id != sender && (message.toPrimary ? endpoint.session == message.session : endpoint.session == nil)
            }.map(\.value.continuation)
        }
        for target in targets { target.yield(message) }
        return targets.count
    }
}
