import Foundation
import HealthAPI
import OpenHealthKit
import Testing

/// An app registers, the person decides, the app claims its credential once, and every request then carries it.
@Suite("The daemon: apps and credentials")
struct CredentialTests {
    @Test func anAppClaimsItsCredentialOnlyOnceAndOnlyAfterThePersonApproves() async throws {
        try await DaemonHarness.with { daemon in
            let client = daemon.client()
            let registration = try await client.registerApp(body: .json(.init(cfBundleIdentifier: "com.example.steps", cfBundleName: "Steps")))
                .created.body.json
            #expect(registration.state == .pending)
            let claim = { try await client.claimCredential(path: .init(registrationID: registration.id), body: .json(.init(secret: registration.secret))) }
            #expect(try await claim().accepted.body.json.state == .pending)
            try daemon.person().decideRegistration(registration.id, .approved)
            let credential = try await claim().ok.body.json
            #expect(credential.bundleIdentifier == "com.example.steps")
            #expect(credential.token.hasPrefix("ohk_\(registration.id)_") && credential.token.count == 4 + 24 + 1 + 64)
            guard case .gone(let gone) = try await claim() else { Issue.record("a second claim was not 410"); return }
            #expect(try gone.body.applicationProblemJson.title == "credential already issued")
        }
    }

    @Test func aWrongSecretAndAnUnknownRegistrationAreTheSameAnswer() async throws {
        try await DaemonHarness.with { daemon in
            let registration = try await daemon.client().registerApp(body: .json(.init(cfBundleIdentifier: "com.example.a", cfBundleName: "A")))
                .created.body.json
            let wrongSecret = try await daemon.raw(.POST, "/v1/registrations/\(registration.id)/credential", body: #"{"secret":"guess"}"#)
            let unknown = try await daemon.raw(.POST, "/v1/registrations/000000000000000000000000/credential", body: #"{"secret":"guess"}"#)
            #expect(wrongSecret.status == 404 && unknown.status == 404)
            #expect(wrongSecret.body == unknown.body)
        }
    }

    @Test func aDeniedAppGetsNoCredential() async throws {
        try await DaemonHarness.with { daemon in
            let registration = try await daemon.client().registerApp(body: .json(.init(cfBundleIdentifier: "com.example.b", cfBundleName: "B")))
                .created.body.json
            try daemon.person().decideRegistration("com.example.b", .denied)
            let claim = try await daemon.raw(.POST, "/v1/registrations/\(registration.id)/credential", body: #"{"secret":"\#(registration.secret)"}"#)
            #expect(claim.status == 403)
            #expect(claim.json["code"] as? Int == HKError.Code.errorAuthorizationDenied.rawValue)
        }
    }

    @Test func anAppCannotRegisterAsAnotherOrAsApple() async throws {
        try await DaemonHarness.with { daemon in
            _ = try await daemon.connect("com.example.steps", name: "Steps")
            let impostor = try await daemon.raw(.POST, "/v1/registrations", body: #"{"CFBundleIdentifier":"com.example.steps","CFBundleName":"Not Steps"}"#)
            let apple = try await daemon.raw(.POST, "/v1/registrations", body: #"{"CFBundleIdentifier":"com.apple.Health","CFBundleName":"Health"}"#)
            #expect(impostor.status == 403, "\(impostor.body)")
            #expect(apple.status == 403, "\(apple.body)")
            #expect(try daemon.person().registrations().count == 1)
        }
    }

    /// Missing, malformed, unknown and revoked tokens get one and the same 401 (RFC 6750's challenge); a revocation
    /// takes effect on the very next request.
    @Test func everyRequestWithoutAValidTokenIsTheSame401() async throws {
        try await DaemonHarness.with { daemon in
            let token = try await daemon.connect("com.example.steps", share: [HKQuantityType(.stepCount)])
            let body = #"{"types":["HKQuantityTypeIdentifierStepCount"]}"#
            #expect(try await daemon.raw(.POST, "/v1/authorization/status", body: body, token: token).status == 200)
            let parts = token.split(separator: "_")
            let forged = "ohk_\(parts[1])_" + String(repeating: "0", count: 64)
            var answers: [RawResponse] = []
            for presented in ["garbage", forged, "ohk_000000000000000000000000_" + String(parts[2])] {
                answers.append(try await daemon.raw(.POST, "/v1/authorization/status", body: body, token: presented))
            }
            try daemon.person().decideRegistration("com.example.steps", .revoked)
            answers.append(try await daemon.raw(.POST, "/v1/authorization/status", body: body, token: token))
            for answer in answers {
                #expect(answer.status == 401)
                #expect(answer.header("www-authenticate") == #"Bearer realm="healthd", error="invalid_token""#)
                #expect(answer.body == answers[0].body)
            }
            let none = try await daemon.raw(.POST, "/v1/authorization/status", body: body)
            #expect(none.status == 401 && none.header("www-authenticate") == #"Bearer realm="healthd""#)
            #expect(try await daemon.raw(.POST, "/v1/nothing/here", body: body).status == 401, "an unknown path tells nothing without a token")
        }
    }
}
