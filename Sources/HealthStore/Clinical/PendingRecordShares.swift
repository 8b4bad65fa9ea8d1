package import Foundation
import GRDB
package import HealthModel

/// Record-sharing sheets waiting for the person: the daemon parks an app's verifiable-record query here, the person
/// chooses what to share from another process (`health authorize --pending`, later the web Health app), and the
/// daemon picks the answer up. A sheet nobody answers in time expires, as a closed one. Only the records' UUIDs are
/// kept with the request; the person sees them as they are in the store when answering.
package struct PendingRecordShares: Sendable {
    package let database: HealthDatabase

    package init(database: HealthDatabase) {
        self.database = database
    }

    /// A sheet waiting, with the id the answer names.
    package struct Request: Sendable {
        package let id: String
        package let sheet: RecordSharingSheet
        package let createdAt: Date
    }

    /// What is kept of each record put before the person.
    private struct Candidate: Codable {
        let uuid: UUID
        let verified: Bool
    }

    /// Parks `sheet`; returns its id.
    package func park(_ sheet: RecordSharingSheet, now: Date = Date()) throws -> String {
        let id = AppRegistrations.random(bytes: 12)
        let candidates = sheet.records.map { Candidate(uuid: $0.record.uuid, verified: $0.verified) }
        try database.write { db in
            try db.execute(sql: """
                INSERT INTO recordSharingRequest (id, manifest, candidates, state, createdAt) VALUES (?, ?, ?, 'pending', ?)
                """, arguments: [id, try JSONEncoder().encode(sheet.app), String(decoding: try JSONEncoder().encode(candidates), as: UTF8.self),
                                 now.timeIntervalSince1970])
        }
        return id
    }

    /// The person's answer to request `id`, or nil while it waits. An expired or unknown request answers `.cancelled`.
    package func answer(_ id: String) throws -> RecordSharingSheet.Response? {
        try database.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT state, shared FROM recordSharingRequest WHERE id = ?", arguments: [id]) else {
                return .cancelled
            }
            switch row["state"] as String {
            case "pending": return nil
            case "shared": return .share(Set(try JSONDecoder().decode([UUID].self, from: Data((row["shared"] as String? ?? "[]").utf8))))
            default: return .cancelled
            }
        }
    }

    /// Ends request `id` unanswered (its app stopped waiting); an answer already given stands.
    package func expire(_ id: String, now: Date = Date()) throws {
        try database.write { db in
            try db.execute(sql: "UPDATE recordSharingRequest SET state = 'expired', answeredAt = ? WHERE id = ? AND state = 'pending'",
                           arguments: [now.timeIntervalSince1970, id])
        }
    }

    /// The requests waiting for the person, oldest first, each with its records as they are now in the store (a
    /// record the person deleted meanwhile is no longer offered).
    package func pending() throws -> [Request] {
        let rows = try database.read { db in
            try Row.fetchAll(db, sql: "SELECT id, manifest, candidates, createdAt FROM recordSharingRequest WHERE state = 'pending' ORDER BY createdAt, id")
        }
        guard !rows.isEmpty else { return [] }
        let stored = Dictionary(try VerifiableRecordStore(database: database).records().map { ($0.record.uuid, $0.record) },
                                uniquingKeysWith: { first, _ in first })
        return try rows.map { row in
            let manifest = try JSONDecoder().decode(AppManifest.self, from: row["manifest"] as Data)
            let candidates = try JSONDecoder().decode([Candidate].self, from: Data((row["candidates"] as String).utf8))
            let records = candidates.compactMap { candidate in
                stored[candidate.uuid].map { RecordSharingSheet.Candidate(record: $0, verified: candidate.verified) }
            }
            return Request(id: row["id"], sheet: RecordSharingSheet(app: manifest, records: records),
                           createdAt: Date(timeIntervalSince1970: row["createdAt"]))
        }
    }

    /// The person's answer to request `id`: only records that were put before the person can be shared. False when it
    /// no longer waits (answered, or expired because the app stopped waiting).
    @discardableResult
    package func respond(_ id: String, _ response: RecordSharingSheet.Response, now: Date = Date()) throws -> Bool {
        try database.write { db in
            switch response {
            case .cancelled:
                try db.execute(sql: "UPDATE recordSharingRequest SET state = 'cancelled', answeredAt = ? WHERE id = ? AND state = 'pending'",
                               arguments: [now.timeIntervalSince1970, id])
            case .share(let chosen):
                guard let text = try String.fetchOne(db, sql: "SELECT candidates FROM recordSharingRequest WHERE id = ?", arguments: [id]) else {
                    return false
                }
                let offered = Set(try JSONDecoder().decode([Candidate].self, from: Data(text.utf8)).map(\.uuid))
                let shared = chosen.intersection(offered).map(\.uuidString).sorted()
                try db.execute(sql: """
                    UPDATE recordSharingRequest SET state = 'shared', shared = ?, answeredAt = ? WHERE id = ? AND state = 'pending'
                    """, arguments: [String(decoding: try JSONEncoder().encode(shared), as: UTF8.self), now.timeIntervalSince1970, id])
            }
            return db.changesCount == 1
        }
    }
}
