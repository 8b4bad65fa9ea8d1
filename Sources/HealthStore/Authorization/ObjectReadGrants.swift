package import Foundation
import GRDB
package import HealthModel

/// Per-object read authorization (vision prescriptions): reading such a type is never granted whole. The app asks with
/// `requestPerObjectReadAuthorization(for:predicate:)`, the person chooses object by object on an
/// ``ObjectAuthorizationSheet``, and the choices are kept in `objectReadGrant` — the one place ``ReadVisibility`` looks
/// for these types, so every read path (queries, anchors, observers, sources, deletes) sees exactly the objects given
/// and the app's own.
extension AuthorizationService {
    /// Runs an app's per-object request: `candidates` are the objects of `type` that match the app's predicate, as the
    /// person sees them. Those the app did not save go on the sheet (even none: an app must not learn whether the person
    /// has any), each with its current grant; the answer replaces the grants of the objects listed. A closed sheet
    /// changes nothing and fails with `errorUserCanceled`. In guest mode nothing is asked and nothing changes.
    package func requestPerObjectReadAuthorization(
        app manifest: AppManifest, type: HKObjectType, candidates: [HKSample], presenter: any HKAuthorizationPresenter
    ) async throws {
        try Self.checkPerObject(type)
        guard !(manifest.shareUsageDescription ?? "").isEmpty else {
            throw HKError.invalidArgument(
                "\(manifest.bundleIdentifier) must declare NSHealthShareUsageDescription in its manifest to request read access")
        }
        try register(manifest)
        if try isGuestMode() { return }
        let app = manifest.bundleIdentifier
        let others = candidates.filter { $0.sourceRevision.source.bundleIdentifier != app }
        let granted = try objectReadGrants(app: app, type: type.identifier)
        let sheet = ObjectAuthorizationSheet(app: manifest, typeIdentifier: type.identifier,
                                             objects: others.map { .init(object: $0, allowed: granted.contains($0.uuid)) })
        switch await presenter.present(sheet) {
        case .dismissed:
            throw HKError(.errorUserCanceled, "the person closed the sheet without choosing which objects the app may read")
        case .allow(let chosen):
            try recordObjectReadGrants(app: app, type: type.identifier, listed: Set(others.map(\.uuid)), allowed: chosen)
        }
    }

    /// Throws unless `type` is read object by object.
    package static func checkPerObject(_ type: HKObjectType) throws {
        guard type.requiresPerObjectAuthorization() else {
            throw HKError.invalidArgument(
                "\(type.identifier) does not require per-object authorization; request it with requestAuthorization(toShare:read:)")
        }
    }

    /// The objects of `type` (by UUID) the person let `app` read.
    package func objectReadGrants(app: String, type: String) throws -> Set<UUID> {
        try database.read { db in
            Set(try String.fetchAll(db, sql: "SELECT uuid FROM objectReadGrant WHERE app = ? AND typeCode = ?",
                                    arguments: [app, SampleTypeCode.code(type)]).compactMap(UUID.init(uuidString:)))
        }
    }

    /// Grants `app` the objects of `listed` that are in `allowed`, and withdraws the others of `listed`. Objects not
    /// listed are not touched, whatever `allowed` says: a presenter cannot grant what the person was not shown.
    package func recordObjectReadGrants(app: String, type: String, listed: Set<UUID>, allowed: Set<UUID>) throws {
        let now = Date().timeIntervalSince1970
        let code = SampleTypeCode.code(type)
        try database.write { db in
            let grant = try db.cachedStatement(sql: """
                INSERT INTO objectReadGrant (app, uuid, typeCode, grantedAt) VALUES (?, ?, ?, ?)
                ON CONFLICT (app, uuid) DO NOTHING
                """)
            let withdraw = try db.cachedStatement(sql: "DELETE FROM objectReadGrant WHERE app = ? AND uuid = ?")
            for uuid in listed.sorted(by: { $0.uuidString < $1.uuidString }) {
                if allowed.contains(uuid) {
                    try grant.execute(arguments: [app, uuid.uuidString, code, now])
                } else {
                    try withdraw.execute(arguments: [app, uuid.uuidString])
                }
            }
        }
    }

    /// Withdraws `app`'s permission to read object `uuid`, as the person does under Sources; false when it had none.
    @discardableResult
    package func withdrawObjectReadGrant(app: String, uuid: UUID) throws -> Bool {
        try database.write { db in
            try db.execute(sql: "DELETE FROM objectReadGrant WHERE app = ? AND uuid = ?", arguments: [app, uuid.uuidString])
            return db.changesCount > 0
        }
    }
}
