package import Foundation
import GRDB
package import HealthModel

/// Per-object sheets waiting for the person: the daemon parks an app's `requestPerObjectReadAuthorization` here, the
/// person chooses from another process (`health authorize --pending`, the web Health app), and the daemon picks the
/// answer up. A sheet nobody answers in time expires, as a closed one. Only the objects' UUIDs are kept with the
/// request; the person sees them as they are in the store when answering (one deleted meanwhile is no longer offered).
package struct PendingObjectReads: Sendable {
    package let database: HealthDatabase

    package init(database: HealthDatabase) {
        self.database = database
    }

    /// A sheet waiting, with the id the answer names.
    package struct Request: Sendable {
        package let id: String
        package let sheet: ObjectAuthorizationSheet
        package let createdAt: Date
    }

    private struct Candidate: Codable {
        let uuid: UUID
        let allowed: Bool
    }

    /// Parks `sheet`; returns its id.
    package func park(_ sheet: ObjectAuthorizationSheet, now: Date = Date()) throws -> String {
        let id = AppRegistrations.random(bytes: 12)
        let candidates = sheet.objects.map { Candidate(uuid: $0.uuid, allowed: $0.allowed) }
        try database.write { db in
            try db.execute(sql: """
                INSERT INTO objectAuthorizationRequest (id, manifest, typeIdentifier, candidates, state, createdAt) VALUES (?, ?, ?, ?, 'pending', ?)
                """, arguments: [id, try JSONEncoder().encode(sheet.app), sheet.typeIdentifier,
                                 String(decoding: try JSONEncoder().encode(candidates), as: UTF8.self), now.timeIntervalSince1970])
        }
        return id
    }

    /// The person's answer to request `id`, or nil while it waits. An expired or unknown request answers `.dismissed`.
    package func answer(_ id: String) throws -> ObjectAuthorizationSheet.Response? {
        try database.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT state, allowed FROM objectAuthorizationRequest WHERE id = ?", arguments: [id]) else {
                return .dismissed
            }
            switch row["state"] as String {
            case "pending": return nil
            case "answered": return .allow(Set(try JSONDecoder().decode([UUID].self, from: Data((row["allowed"] as String? ?? "[]").utf8))))
            default: return .dismissed
            }
        }
    }

    /// Ends request `id` unanswered (its app stopped waiting); an answer already given stands.
    package func expire(_ id: String, now: Date = Date()) throws {
        try database.write { db in
            try db.execute(sql: "UPDATE objectAuthorizationRequest SET state = 'expired', answeredAt = ? WHERE id = ? AND state = 'pending'",
                           arguments: [now.timeIntervalSince1970, id])
        }
    }

    /// The requests waiting for the person, oldest first, each with its objects as they are now in the store.
    package func pending() throws -> [Request] {
        let rows = try database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT id, manifest, typeIdentifier, candidates, createdAt FROM objectAuthorizationRequest WHERE state = 'pending' ORDER BY createdAt, id
                """)
        }
        guard !rows.isEmpty else { return [] }
        let samples = SampleStore(database: database)
        return try rows.map { row in
            let manifest = try JSONDecoder().decode(AppManifest.self, from: row["manifest"] as Data)
            let candidates = try JSONDecoder().decode([Candidate].self, from: Data((row["candidates"] as String).utf8))
            let typeIdentifier: String = row["typeIdentifier"]
            var objects: [ObjectAuthorizationSheet.Candidate] = []
            if let type = HKObjectType.type(forIdentifier: typeIdentifier) as? HKSampleType, !candidates.isEmpty {
                let found = try samples.samples(ofType: type, matching: .uuids(Set(candidates.map(\.uuid))), visibleTo: AuthorizationService.personReader)
                let byUUID = Dictionary(found.map { ($0.uuid, $0) }, uniquingKeysWith: { first, _ in first })
                objects = candidates.compactMap { candidate in byUUID[candidate.uuid].map { .init(object: $0, allowed: candidate.allowed) } }
            } else if typeIdentifier == HKDataTypeIdentifierUserAnnotatedMedicationConcept, !candidates.isEmpty {
                let found = try samples.medications(uuids: candidates.map(\.uuid))
                objects = candidates.compactMap { candidate in
                    found[candidate.uuid].map { .init(medication: $0, uuid: candidate.uuid, allowed: candidate.allowed) }
                }
            }
            return Request(id: row["id"], sheet: ObjectAuthorizationSheet(app: manifest, typeIdentifier: typeIdentifier, objects: objects),
                           createdAt: Date(timeIntervalSince1970: row["createdAt"]))
        }
    }

    /// The person's answer to request `id`: only objects the sheet listed can be allowed. False when it no longer waits.
    @discardableResult
    package func respond(_ id: String, _ response: ObjectAuthorizationSheet.Response, now: Date = Date()) throws -> Bool {
        try database.write { db in
            switch response {
            case .dismissed:
                try db.execute(sql: "UPDATE objectAuthorizationRequest SET state = 'dismissed', answeredAt = ? WHERE id = ? AND state = 'pending'",
                               arguments: [now.timeIntervalSince1970, id])
            case .allow(let chosen):
                guard let text = try String.fetchOne(db, sql: "SELECT candidates FROM objectAuthorizationRequest WHERE id = ?", arguments: [id]) else {
                    return false
                }
                let offered = Set(try JSONDecoder().decode([Candidate].self, from: Data(text.utf8)).map(\.uuid))
                let allowed = chosen.intersection(offered).map(\.uuidString).sorted()
                try db.execute(sql: """
                    UPDATE objectAuthorizationRequest SET state = 'answered', allowed = ?, answeredAt = ? WHERE id = ? AND state = 'pending'
                    """, arguments: [String(decoding: try JSONEncoder().encode(allowed), as: UTF8.self), now.timeIntervalSince1970, id])
            }
            return db.changesCount == 1
        }
    }
}
