import Foundation
import HealthAPI
import NIOHTTP1
import Testing
import TestSupport
@testable import OpenHealthKit

/// The daemon's workout-session relay as any HTTP client meets it: bad messages are 400s naming the field, only an
/// authenticated app is relayed, and revoking the app disconnects its mirrored sessions.
@Suite("The daemon: workout-session relay")
struct WorkoutSessionAPITests {
    static let session = "7d0e6a52-0c1a-4a8b-9f8e-2b8c1f0d9a11"
    static let endpoint = "0f3b1c9e-5a2d-4e7f-8b6a-1c2d3e4f5a6b"

    func send(_ daemon: DaemonHarness, token: String?, message: String, endpoint: String = endpoint) async throws -> RawResponse {
        try await daemon.raw(.POST, "/v1/workout-sessions/messages", body: #"{"endpoint":"\#(endpoint)","message":\#(message)}"#, token: token)
    }

    @Test func aMessageMissingWhatItsKindNeedsIs400NamingTheField() async throws {
        try await DaemonHarness.with { daemon in
            let token = try await daemon.connect("com.example.steps")
            let cases: [(String, String, String)] = [
                (#"{"session":"\#(Self.session)","toPrimary":false,"kind":"stateChanged","state":2,"date":"2026-11-29T10:00:00Z"}"#, "/message/fromState", Self.endpoint),
                (#"{"session":"nope","toPrimary":false,"kind":"mirroringStopped"}"#, "/message/session", Self.endpoint),
                (#"{"session":"\#(Self.session)","toPrimary":false,"kind":"request","request":"end"}"#, "/message/toPrimary", Self.endpoint),
                (#"{"session":"\#(Self.session)","toPrimary":false,"kind":"mirroringStarted","state":2,"configuration":{"activityType":99999}}"#,
                 "/message/configuration/activityType", Self.endpoint),
                (#"{"session":"\#(Self.session)","toPrimary":true,"kind":"data"}"#, "/message/data", Self.endpoint),
                (#"{"session":"\#(Self.session)","toPrimary":true,"kind":"request","request":"pause"}"#, "/endpoint", "not-a-uuid"),
            ]
            for (message, field, endpoint) in cases {
                let answer = try await send(daemon, token: token, message: message, endpoint: endpoint)
                #expect(answer.status == 400 && answer.json["field"] as? String == field, "\(message): \(answer.status) \(answer.body)")
            }
            let tooMuch = Data(count: 64 * 1024 + 1).base64EncodedString()
            let large = try await send(daemon, token: token, message: #"{"session":"\#(Self.session)","toPrimary":true,"kind":"data","data":"\#(tooMuch)"}"#)
            #expect(large.status == 400 && large.json["field"] as? String == "/message/data", "\(large.body.prefix(300))")
            // A good message no endpoint hears reaches none.
            let unheard = try await send(daemon, token: token, message: #"{"session":"\#(Self.session)","toPrimary":true,"kind":"request","request":"pause"}"#)
            #expect(unheard.status == 200 && unheard.json["reached"] as? Int == 0, "\(unheard.body)")
        }
    }

    @Test func withoutACredentialNothingIsRelayed() async throws {
        try await DaemonHarness.with { daemon in
            let message = #"{"session":"\#(Self.session)","toPrimary":true,"kind":"request","request":"pause"}"#
            let anonymous = try await send(daemon, token: nil, message: message)
            let unknown = try await send(daemon, token: "not-a-token", message: message)
            let stream = try await daemon.raw(.GET, "/v1/streams/workout-sessions?endpoint=\(Self.endpoint)")
            #expect(anonymous.status == 401 && unknown.status == 401 && stream.status == 401)
        }
    }

    @Test(.timeLimit(.minutes(3)))
    func revokingTheAppDisconnectsItsMirroredSessions() async throws {
        try await DaemonHarness.with { daemon in
            let token = try await daemon.connect("com.example.steps")
            func store() -> HKHealthStore { HKHealthStore(configuration: .init(server: .init(address: daemon.socketPath, token: token), app: .steps)) }
            let (watch, phone) = (store(), store())
            let received = MirroredSessions()
            phone.workoutSessionMirroringStartHandler = { received.add($0) }
            await phone.workoutMirroring.waitUntilListening()
            let configuration = HKWorkoutConfiguration()
            configuration.activityType = .cycling
            let primary = try HKWorkoutSession(healthStore: watch, configuration: configuration)
            primary.startActivity(with: nil)
            try await primary.startMirroringToCompanionDevice()
            let (_, heard) = try await received.first()

            let registration = try #require(try daemon.person().registrations().first { $0.manifest.bundleIdentifier == "com.example.steps" })
            _ = try daemon.person().decideRegistration(registration.id, .revoked)
            let mirror = await heard.wait(seconds: 60) { $0.contains { if case .disconnected(let code) = $0 { code != nil } else { false } } }
            #expect(mirror.contains { if case .disconnected(let code) = $0 { code != nil } else { false } }, "\(mirror)")
            await #expect(throws: HKError.self) { try await primary.sendToRemoteWorkoutSession(data: Data("after".utf8)) }
        }
    }
}
