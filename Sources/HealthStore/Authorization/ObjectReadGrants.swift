package import Foundation
import GRDB
package import HealthModel

/// Per-object read authorization (vision prescriptions): reading such a type is never granted whole. The app asks with
/// `requestPerObjectReadAuthorization(for:predicate:)`, the person chooses object by object on an
/// ``ObjectAuthorizationSheet``, and the choices are kept in `objectReadGrant` — the one place ``ReadVisibility`` looks
/// for these types, so every read path (queries, anchors, observers, sources, deletes) sees exactly the objects allowed.
/// As in HealthKit, an app reads what it saved by default, and the person may turn those off too.
extension AuthorizationService {
    /// Runs an app's per-object request: `candidates` are the objects of `type` that match the app's predicate, as the
    /// person sees them. They go on the sheet (even none: an app must not learn whether the person has any), each with
    /// whether the app may read it now — by the person's last choice, else whether the app saved it; the answer replaces
    /// the choices for the objects listed. A closed sheet changes nothing and fails with `errorUserCanceled`. In guest
    /// mode nothing is asked and nothing changes.
    package func requestPerObjectReadAuthorization(
        app manifest: AppManifest, type: HKObjectType, candidates: [HKSample], presenter: any HKAuthorizationPresenter
    ) async throws {
        try await requestPerObjectReadAuthorization(app: manifest, type: type, presenter: presenter, listing: candidates.map { object in
            (object.uuid, { ObjectAuthorizationSheet.Candidate(object: object, allowed: $0) },
             object.sourceRevision.source.bundleIdentifier == manifest.bundleIdentifier)
        })
    }

    /// The same for the medications the person tracks, which no app saves: none is readable without the person's choice.
    package func requestPerObjectReadAuthorization(
        app manifest: AppManifest, medications: [SampleStore.TrackedMedication], presenter: any HKAuthorizationPresenter
    ) async throws {
        try await requestPerObjectReadAuthorization(
            app: manifest, type: HKObjectType.userAnnotatedMedicationType(), presenter: presenter, listing: medications.map { tracked in
                (tracked.uuid, { ObjectAuthorizationSheet.Candidate(medication: tracked.medication, uuid: tracked.uuid, allowed: $0) }, false)
            })
    }

    private func requestPerObjectReadAuthorization(
        app manifest: AppManifest, type: HKObjectType, presenter: any HKAuthorizationPresenter,
        listing: [(uuid: UUID, candidate: (Bool) -> ObjectAuthorizationSheet.Candidate, own: Bool)]
    ) async throws {
        try Self.checkPerObject(type)
        guard !(manifest.shareUsageDescription ?? "").isEmpty else {
            throw HKError.invalidArgument(
                "\(manifest.bundleIdentifier) must declare NSHealthShareUsageDescription in its manifest to request read access")
        }
        try register(manifest)
        if try isGuestMode() { return }
        let app = manifest.bundleIdentifier
        let choices = try objectReadChoices(app: app, type: type.identifier)
        let sheet = ObjectAuthorizationSheet(app: manifest, typeIdentifier: type.identifier, objects: listing.map { item in
            item.candidate(choices[item.uuid] ?? item.own)
        })
        switch await presenter.present(sheet) {
        case .dismissed:
            throw HKError(.errorUserCanceled, "the person closed the sheet without choosing which objects the app may read")
        case .allow(let chosen):
            try recordObjectReadGrants(app: app, type: type.identifier, listed: Set(listing.map(\.uuid)), allowed: chosen)
        }
        if type.identifier == HKDataTypeIdentifierUserAnnotatedMedicationConcept {
            // The app's dose events change with what it may read: its queries hear of it.
            StoreChanges.for(database.directory).post([HKMedicationDoseEventTypeIdentifierMedicationDoseEvent])
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
        Set(try objectReadChoices(app: app, type: type).filter(\.value).keys)
    }

    /// The person's choices on `app`'s reading of objects of `type`, by UUID: allowed or not.
    package func objectReadChoices(app: String, type: String) throws -> [UUID: Bool] {
        try database.read { db in
            var choices: [UUID: Bool] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT uuid, allowed FROM objectReadGrant WHERE app = ? AND typeCode = ?",
                                        arguments: [app, SampleTypeCode.code(type)]) {
                if let uuid = UUID(uuidString: row["uuid"]) { choices[uuid] = row["allowed"] }
            }
            return choices
        }
    }

    /// Lets `app` read the objects of `listed` that are in `allowed`, and not the others of `listed`. Objects not listed
    /// are not touched, whatever `allowed` says: a presenter cannot grant what the person was not shown.
    package func recordObjectReadGrants(app: String, type: String, listed: Set<UUID>, allowed: Set<UUID>) throws {
        let now = Date().timeIntervalSince1970
        let code = SampleTypeCode.code(type)
        try database.write { db in
            let choose = try db.cachedStatement(sql: """
                INSERT INTO objectReadGrant (app, uuid, typeCode, grantedAt, allowed) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (app, uuid) DO UPDATE SET allowed = excluded.allowed, grantedAt = excluded.grantedAt
                """)
            for uuid in listed.sorted(by: { $0.uuidString < $1.uuidString }) {
                try choose.execute(arguments: [app, uuid.uuidString, code, now, allowed.contains(uuid)])
            }
        }
    }

    /// Stops `app` reading object `uuid` — a vision prescription it was given or saved, or a medication the person shared
    /// with it (its dose events go with it) — as the person does under Sources; false when it could not read it already.
    @discardableResult
    package func withdrawObjectReadGrant(app: String, uuid: UUID) throws -> Bool {
        let withdrawn = try database.write { db -> String? in
            let isMedication = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM medication WHERE uuid = ?)", arguments: [uuid.uuidString])!
            let type = isMedication ? HKDataTypeIdentifierUserAnnotatedMedicationConcept : HKVisionPrescriptionTypeIdentifier
            let choice = try Bool.fetchOne(db, sql: "SELECT allowed FROM objectReadGrant WHERE app = ? AND uuid = ?", arguments: [app, uuid.uuidString])
            let saved = try !isMedication && Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM sample JOIN source ON source.id = sample.sourceId WHERE sample.uuid = ? AND source.bundleIdentifier = ?)
                """, arguments: [uuid.uuidString, app])!
            guard choice ?? saved else { return nil }
            try db.execute(sql: """
                INSERT INTO objectReadGrant (app, uuid, typeCode, grantedAt, allowed) VALUES (?, ?, ?, ?, 0)
                ON CONFLICT (app, uuid) DO UPDATE SET allowed = 0, grantedAt = excluded.grantedAt
                """, arguments: [app, uuid.uuidString, SampleTypeCode.code(type), Date().timeIntervalSince1970])
            return isMedication ? HKMedicationDoseEventTypeIdentifierMedicationDoseEvent : HKVisionPrescriptionTypeIdentifier
        }
        guard let withdrawn else { return false }
        StoreChanges.for(database.directory).post([withdrawn])
        return true
    }
}
