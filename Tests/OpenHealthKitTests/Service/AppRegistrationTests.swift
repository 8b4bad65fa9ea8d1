import Foundation
import GRDB
import HealthModel
import Testing
@testable import HealthStore

/// The daemon's apps and credentials, in the engine: an app registers, the person decides, the app claims its token
/// once; only hashes are kept; a revoked token is unknown at once; nothing tells an app which registrations exist.
@Suite("App registrations and credentials")
struct AppRegistrationTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-registrations-\(UUID().uuidString)")
    let steps = AppManifest(bundleIdentifier: "com.example.steps", name: "Steps", shareUsageDescription: "Reads steps.")

    func registrations() throws -> AppRegistrations { AppRegistrations(database: try HealthDatabase(directory: folder)) }

    @Test func anApprovedAppClaimsItsTokenOnceAndTheTokenNamesIt() throws {
        let registrations = try registrations()
        let (id, secret) = try registrations.register(steps)
        #expect(try registrations.claim(id, secret: secret) == .pending)
        try registrations.decide(id, .approved)
        guard case .token(let token) = try registrations.claim(id, secret: secret) else {
            Issue.record("no token for an approved registration")
            return
        }
        #expect(token.hasPrefix("ohk_\(id)_") && token.count == "ohk_\(id)_".count + 64)
        #expect(try registrations.claim(id, secret: secret) == .alreadyIssued)
        #expect(try registrations.app(forToken: token) == steps)
        // Approval records the app as the engine knows apps.
        #expect(try AuthorizationService(database: try HealthDatabase(directory: folder)).apps().map(\.app.bundleIdentifier) == ["com.example.steps"])
    }

    @Test func onlyHashesAreKept() throws {
        let registrations = try registrations()
        let (id, secret) = try registrations.register(steps)
        try registrations.decide(id, .approved)
        guard case .token(let token) = try registrations.claim(id, secret: secret) else { return }
        let file = try Data(contentsOf: folder.appendingPathComponent("health.sqlite"))
            + ((try? Data(contentsOf: folder.appendingPathComponent("health.sqlite-wal"))) ?? Data())
        for text in [secret, token, String(token.suffix(64))] {
            #expect(file.range(of: Data(text.utf8)) == nil, "\(text) is in the store's files")
        }
    }

    @Test func aWrongSecretAndAnUnknownRegistrationAreTheSameAnswer() throws {
        let registrations = try registrations()
        let (id, _) = try registrations.register(steps)
        try registrations.decide(id, .approved)
        #expect(try registrations.claim(id, secret: "guess") == nil)
        #expect(try registrations.claim("nosuchid", secret: "guess") == nil)
    }

    @Test func aDeniedOrRevokedAppHasNoCredential() throws {
        let registrations = try registrations()
        let denied = try registrations.register(steps)
        try registrations.decide(denied.id, .denied)
        #expect(try registrations.claim(denied.id, secret: denied.secret) == .refused(.denied))

        let approved = try registrations.register(steps)
        try registrations.decide(approved.id, .approved)
        guard case .token(let token) = try registrations.claim(approved.id, secret: approved.secret) else { return }
        try registrations.decide(approved.id, .revoked)
        #expect(try registrations.app(forToken: token) == nil)
        #expect(throws: HKError.self) { try registrations.decide(approved.id, .approved) }
    }

    @Test(arguments: ["", "ohk_", "ohk__", "Bearer x", "ohk_abc_def", String(repeating: "a", count: 10_000)])
    func malformedOrForgedTokensNameNoApp(token: String) throws {
        let registrations = try registrations()
        let (id, secret) = try registrations.register(steps)
        try registrations.decide(id, .approved)
        guard case .token(let real) = try registrations.claim(id, secret: secret) else { return }
        #expect(try registrations.app(forToken: token) == nil)
        // The right registration with another secret part.
        #expect(try registrations.app(forToken: "ohk_\(id)_" + String(repeating: "0", count: 64)) == nil)
        #expect(try registrations.app(forToken: real) != nil)
    }

    @Test func reservedAndTakenIdentitiesCannotRegister() throws {
        let registrations = try registrations()
        #expect(throws: HKError.self) { try registrations.register(AppManifest(bundleIdentifier: "com.apple.Health", name: "Health")) }
        #expect(throws: HKError.self) { try registrations.register(AppManifest(bundleIdentifier: "export.phone", name: "Phone")) }
        _ = try registrations.register(steps)
        #expect(throws: HKError.self) { try registrations.register(AppManifest(bundleIdentifier: "com.example.steps", name: "Impostor")) }
        // The same app registering again (a lost credential) is a new registration for the person to decide.
        let again = try registrations.register(steps)
        #expect(try registrations.find(again.id).state == .pending)
        // By bundle identifier: the newest registration still pending or approved.
        #expect(try registrations.find("com.example.steps").id == again.id)
        try registrations.decide(again.id, .denied)
        #expect(try registrations.find("com.example.steps").id != again.id)
        #expect(throws: HKError.self) { try registrations.find("com.example.nobody") }
    }
}
