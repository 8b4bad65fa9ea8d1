import Foundation
import HealthAPI
import HealthModel
import OpenAPIRuntime
import OpenHealthKit

/// Workout-session mirroring between an app's instances (`HKWorkoutSession.startMirroringToCompanionDevice()`,
/// `HKHealthStore.workoutSessionMirroringStartHandler`): the daemon relays messages between the connections of one app
/// — never to another app's — through the same relay the embedded engine uses. The messages hold no health data the
/// store keeps, so they are not in the access log; they count against the app's request quota as any request does.
extension HealthAPIService {
    func sendWorkoutSessionMessage(_ input: Operations.SendWorkoutSessionMessage.Input) async throws -> Operations.SendWorkoutSessionMessage.Output {
        let request = switch input.body { case .json(let body): body }   // the only content type; others are 415 before here
        let app = try CallingApp.required()
        do {
            let endpoint = try Self.uuid(request.endpoint, at: "/endpoint")
            let message = try WorkoutSessionMessage(wire: request.message, at: "/message")
            let reached = try await stores.store(for: app).backend().sendWorkoutSessionMessage(message, from: endpoint)
            return .ok(.init(body: .json(.init(reached: reached))))
        } catch {
            throw Self.problem(error)
        }
    }

    func streamWorkoutSessionMessages(_ input: Operations.StreamWorkoutSessionMessages.Input) async throws
        -> Operations.StreamWorkoutSessionMessages.Output
    {
        let app = try CallingApp.required()
        let token = CallingApp.token
        do {
            let endpoint = try Self.uuid(input.query.endpoint, at: "endpoint")
            let session = try input.query.session.map { try Self.uuid($0, at: "session") }
            let messages = try stores.store(for: app).backend().workoutSessionMessages(endpoint: endpoint, session: session)
            let body = Self.eventStream(messages, stillAllowed: Self.stillAllowed(app.bundleIdentifier, token: token, in: registrations)) { message in
                message.map { ServerSentEventWithJSONData(event: "message", data: Components.Schemas.WorkoutSessionEvent(message: $0.wire)) }
                    ?? ServerSentEventWithJSONData(event: "registered", data: Components.Schemas.WorkoutSessionEvent(endpoint: input.query.endpoint))
            }
            return .ok(.init(body: .textEventStream(body)))
        } catch {
            throw Self.problem(error)
        }
    }
}
