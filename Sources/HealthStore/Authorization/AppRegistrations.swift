import Crypto
package import Foundation
import GRDB
import Synchronization
package import HealthModel

/// The apps of the daemon (`health serve`) and their credentials.
///
/// An app registers with its manifest and gets a registration id and a secret (once). The person approves or denies
/// the registration. The app then claims its credential with the secret: a random 256-bit bearer token, given once.
/// Only SHA-256 hashes of the secret and the token are kept, and they are compared in constant time. Revoking a
/// registration makes its token unknown at once.
package struct AppRegistrations: Sendable {
    package let database: HealthDatabase
    /// The manifests of the apps that presented tokens, decoded once each (every request presents one).
    private let manifests = DecodedManifests()

    package init(database: HealthDatabase) {
        self.database = database
    }

    /// Where a registration stands.
    package enum State: String, Sendable {
        case pending, approved, denied, revoked
    }

    /// A registration as the person sees it (`health apps`).
    package struct Registration: Sendable, Hashable {
        package let id: String
        package let manifest: AppManifest
        package let state: State
        package let createdAt: Date
        package let decidedAt: Date?
        /// Whether the app has claimed its credential.
        package let credentialIssued: Bool
    }

    /// What claiming a credential gives.
    package enum Claim: Sendable, Equatable {
        /// The token, given this once.
        case token(String)
        /// The person has not decided yet.
        case pending
        /// The person denied or revoked the app.
        case refused(State)
        /// The credential was already given; a lost one means registering again.
        case alreadyIssued
    }

    /// Records a new registration for `manifest` (checked as the engine checks any app: no reserved identity, no
    /// identifier that belongs to another app); returns its id and the secret that claims its credential.
    package func register(_ manifest: AppManifest) throws -> (id: String, secret: String) {
        try AuthorizationService(database: database).checkRegistrable(manifest)
        let id = Self.random(bytes: 12), secret = Self.random(bytes: 32)
        let encoded = try JSONEncoder().encode(manifest)
        try database.write { db in
            // Another app's registration under this bundle identifier (one the person has not denied).
            let owner = try String.fetchOne(db, sql: """
                SELECT json_extract(CAST(manifest AS TEXT), '$.CFBundleName') AS name FROM appRegistration
                WHERE bundleIdentifier = ? AND state != 'denied' AND name != ? LIMIT 1
                """, arguments: [manifest.bundleIdentifier, manifest.name])
            if let taken = AuthorizationService.taken(owner, by: manifest) { throw taken }
            try db.execute(sql: """
                INSERT INTO appRegistration (id, bundleIdentifier, manifest, state, secretHash, createdAt)
                VALUES (?, ?, ?, 'pending', ?, ?)
                """, arguments: [id, manifest.bundleIdentifier, encoded, Self.hash(secret), Date().timeIntervalSince1970])
        }
        return (id, secret)
    }

    /// Every registration, newest first.
    package func all() throws -> [Registration] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM appRegistration ORDER BY createdAt DESC, id").map(Self.registration)
        }
    }

    /// The registration `reference` names: its id, or the bundle identifier of exactly one registration that is not
    /// denied (the newest pending or approved one).
    package func find(_ reference: String) throws -> Registration {
        let row = try database.read { db in
            try Row.fetchOne(db, sql: """
                SELECT * FROM appRegistration
                WHERE id = ?1 OR (bundleIdentifier = ?1 AND state IN ('pending', 'approved'))
                ORDER BY id = ?1 DESC, createdAt DESC LIMIT 1
                """, arguments: [reference])
        }
        guard let row else { throw HKError.invalidArgument("no registration \(reference): `health apps` lists them") }
        return Self.registration(row)
    }

    /// The person's decision on a registration. Approving records the app's manifest as the engine's own
    /// registration does (`AuthorizationService.register`); denying or revoking makes its credential unknown.
    package func decide(_ id: String, _ state: State) throws {
        guard state != .pending else { throw HKError.invalidArgument("a registration cannot be made pending again") }
        let registration = try database.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM appRegistration WHERE id = ?", arguments: [id]).map(Self.registration)
        }
        guard let registration else { throw HKError.invalidArgument("no registration \(id)") }
        switch (registration.state, state) {
        case (.revoked, _), (.denied, .approved):
            throw HKError.invalidArgument("registration \(id) was \(registration.state.rawValue): the app must register again")
        case (.pending, .revoked):
            throw HKError.invalidArgument("registration \(id) was never approved; deny it")
        default: break
        }
        if state == .approved { try AuthorizationService(database: database).register(registration.manifest) }
        try database.write { db in
            try db.execute(sql: "UPDATE appRegistration SET state = ?, decidedAt = ? WHERE id = ?",
                           arguments: [state.rawValue, Date().timeIntervalSince1970, id])
        }
    }

    /// Claims the credential of registration `id` with its `secret`. An unknown id and a wrong secret are the same
    /// answer (nil): nothing tells which registrations exist.
    package func claim(_ id: String, secret: String) throws -> Claim? {
        let presented = Self.hash(secret)
        return try database.write { db -> Claim? in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM appRegistration WHERE id = ?", arguments: [id]),
                  Self.equal(row["secretHash"] as Data, presented) else { return nil }
            let state = State(rawValue: row["state"]) ?? .revoked
            switch state {
            case .pending: return .pending
            case .denied, .revoked: return .refused(state)
            case .approved:
                guard (row["tokenHash"] as Data?) == nil else { return .alreadyIssued }
                let token = "ohk_\(id)_\(Self.random(bytes: 32))"
                try db.execute(sql: "UPDATE appRegistration SET tokenHash = ?, tokenIssuedAt = ? WHERE id = ?",
                               arguments: [Self.hash(token), Date().timeIntervalSince1970, id])
                return .token(token)
            }
        }
    }

    /// Whether an app with `bundleIdentifier` holds an approved registration (one the person has not revoked).
    package func isApproved(_ bundleIdentifier: String) throws -> Bool {
        try database.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM appRegistration WHERE bundleIdentifier = ? AND state = 'approved')",
                              arguments: [bundleIdentifier]) ?? false
        }
    }

    /// The app a bearer token belongs to, or nil for a token that is unknown, malformed, or whose registration is not
    /// approved (revoked, denied): the caller answers 401 without saying which.
    package func app(forToken token: String) throws -> AppManifest? {
        guard let (id, tokenHash) = Self.credential(ofToken: token) else { return nil }
        let row = try database.readOneStatement { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT manifest, state, tokenHash FROM appRegistration WHERE id = ?"), arguments: [id])
        }
        return approvedApp(id, row, presenting: tokenHash)
    }

    /// The manifest of registration `id`'s `row` if it is approved and its token hashes to `tokenHash`, compared in
    /// constant time (a missing row is compared too, with a hash no token has).
    private func approvedApp(_ id: String, _ row: Row?, presenting tokenHash: Data) -> AppManifest? {
        let expected = (row?["tokenHash"] as Data?) ?? Self.hash("")
        guard Self.equal(expected, tokenHash), let row, row["state"] as String == State.approved.rawValue else { return nil }
        return manifests.manifest(id: id, json: row["manifest"])
    }

    /// The registration id and token hash a token names, when it is well formed (not that it is valid).
    package static func credential(ofToken token: String) -> (registration: String, tokenHash: Data)? {
        let parts = token.split(separator: "_", omittingEmptySubsequences: false)
        guard token.utf8.count < 200, parts.count == 3, parts[0] == "ohk" else { return nil }
        return (String(parts[1]), hash(token))
    }

    /// The app whose approved registration `registration` has the token that hashes to `tokenHash`: a write kept while
    /// the store was locked is replayed as the app only if that credential is still good (not revoked meanwhile).
    package func app(registration: String, tokenHash: Data) throws -> AppManifest? {
        let row = try database.read { db in
            try Row.fetchOne(db, sql: "SELECT manifest, state, tokenHash FROM appRegistration WHERE id = ?", arguments: [registration])
        }
        return approvedApp(registration, row, presenting: tokenHash)
    }

    /// The credentials of the approved apps, as they stand: what the daemon checks tokens against while the store is
    /// locked (it cannot read them then).
    package func approvedCredentials() throws -> ApprovedCredentials {
        let rows = try database.read { db in
            try Row.fetchAll(db, sql: "SELECT id, manifest, tokenHash FROM appRegistration WHERE state = 'approved' AND tokenHash IS NOT NULL")
        }
        var byID: [String: (Data, AppManifest)] = [:]
        for row in rows {
            guard let manifest = manifests.manifest(id: row["id"], json: row["manifest"]) else { continue }
            byID[row["id"]] = (row["tokenHash"], manifest)
        }
        return ApprovedCredentials(byID: byID)
    }

    /// Approved apps' token hashes and manifests, by registration id, held in memory.
    package struct ApprovedCredentials: Sendable {
        let byID: [String: (tokenHash: Data, manifest: AppManifest)]

        /// The app `token` belongs to, or nil (checked as `app(forToken:)` checks it, in constant time).
        package func app(forToken token: String) -> AppManifest? {
            guard let (id, hash) = AppRegistrations.credential(ofToken: token) else { return nil }
            let known = byID[id]
            guard AppRegistrations.equal(known?.tokenHash ?? AppRegistrations.hash(""), hash) else { return nil }
            return known?.manifest
        }
    }

    // MARK: - Helpers

    static func registration(_ row: Row) -> Registration {
        Registration(
            id: row["id"], manifest: (try? JSONDecoder().decode(AppManifest.self, from: row["manifest"] as Data))
                ?? AppManifest(bundleIdentifier: row["bundleIdentifier"], name: "?"),
            state: State(rawValue: row["state"]) ?? .revoked, createdAt: Date(timeIntervalSince1970: row["createdAt"]),
            decidedAt: (row["decidedAt"] as Double?).map(Date.init(timeIntervalSince1970:)),
            credentialIssued: (row["tokenHash"] as Data?) != nil)
    }

    /// `bytes` random bytes, in hexadecimal (a token's parts never hold `_`: it separates them).
    static func random(bytes: Int) -> String {
        SymmetricKey(size: SymmetricKeySize(bitCount: bytes * 8)).withUnsafeBytes { $0.map { String(format: "%02x", $0) }.joined() }
    }

    static func hash(_ text: String) -> Data { Data(SHA256.hash(data: Data(text.utf8))) }

    /// Constant-time equality of two hashes.
    static func equal(_ a: Data, _ b: Data) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }
}

/// Manifests decoded from their stored JSON, kept by registration id with that JSON: a registration whose manifest
/// changed is decoded again.
private final class DecodedManifests: Sendable {
    private let decoded = Mutex<[String: (json: Data, manifest: AppManifest)]>([:])

    func manifest(id: String, json: Data) -> AppManifest? {
        if let known = decoded.withLock({ $0[id] }), known.json == json { return known.manifest }
        guard let manifest = try? JSONDecoder().decode(AppManifest.self, from: json) else { return nil }
        decoded.withLock { $0[id] = (json, manifest) }
        return manifest
    }
}
