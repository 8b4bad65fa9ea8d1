package import Foundation
import GRDB
package import HealthModel

/// Authorization sheets waiting for the person: the daemon parks an app's request here, the person answers it from
/// another process (`health authorize --pending`, later the web Health app), and the daemon picks the answer up. A
/// request nobody answers in time expires, as a dismissed sheet.
package struct PendingAuthorizations: Sendable {
    package let database: HealthDatabase

    package init(database: HealthDatabase) {
        self.database = database
    }

    /// A sheet waiting, with the id the answer names.
    package struct Request: Sendable, Hashable {
        package let id: String
        package let sheet: AuthorizationSheet
        package let createdAt: Date
    }

    /// Parks `sheet`; returns its id.
    package func park(_ sheet: AuthorizationSheet, now: Date = Date()) throws -> String {
        let id = AppRegistrations.random(bytes: 12)
        try database.write { db in
            try db.execute(sql: """
                INSERT INTO authorizationRequest (id, manifest, shareTypes, readTypes, requiredReadTypes, state, createdAt)
                VALUES (?, ?, ?, ?, ?, 'pending', ?)
                """, arguments: [id, try JSONEncoder().encode(sheet.app), Self.list(sheet.shareTypes), Self.list(sheet.readTypes),
                                 Self.list(sheet.requiredReadTypes), now.timeIntervalSince1970])
        }
        return id
    }

    /// The person's answer to request `id`, or nil while it waits. An expired request answers `.dismissed`.
    package func answer(_ id: String) throws -> AuthorizationSheet.Response? {
        try database.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT state, allowedShare, allowedRead FROM authorizationRequest WHERE id = ?",
                                             arguments: [id]) else { return .dismissed }
            switch row["state"] as String {
            case "pending": return nil
            case "decided": return .decided(share: Self.set(row["allowedShare"]), read: Self.set(row["allowedRead"]))
            default: return .dismissed
            }
        }
    }

    /// Ends request `id` unanswered (its app stopped waiting); an answer already given stands.
    package func expire(_ id: String, now: Date = Date()) throws {
        try database.write { db in
            try db.execute(sql: "UPDATE authorizationRequest SET state = 'expired', answeredAt = ? WHERE id = ? AND state = 'pending'",
                           arguments: [now.timeIntervalSince1970, id])
        }
    }

    /// The requests waiting for the person, oldest first.
    package func pending() throws -> [Request] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM authorizationRequest WHERE state = 'pending' ORDER BY createdAt, id").map { row in
                let manifest = try JSONDecoder().decode(AppManifest.self, from: row["manifest"] as Data)
                return Request(id: row["id"], sheet: AuthorizationSheet(app: manifest, shareTypes: Self.set(row["shareTypes"]),
                                                                         readTypes: Self.set(row["readTypes"]),
                                                                         requiredReadTypes: Self.set(row["requiredReadTypes"])),
                               createdAt: Date(timeIntervalSince1970: row["createdAt"]))
            }
        }
    }

    /// The person's answer to request `id`: allowed types must be among those asked. False when it no longer waits
    /// (answered, or expired because the app stopped waiting).
    @discardableResult
    package func respond(_ id: String, _ response: AuthorizationSheet.Response, now: Date = Date()) throws -> Bool {
        try database.write { db in
            switch response {
            case .dismissed:
                try db.execute(sql: "UPDATE authorizationRequest SET state = 'dismissed', answeredAt = ? WHERE id = ? AND state = 'pending'",
                               arguments: [now.timeIntervalSince1970, id])
            case .decided(let share, let read):
                guard let asked = try Row.fetchOne(db, sql: "SELECT shareTypes, readTypes FROM authorizationRequest WHERE id = ?",
                                                   arguments: [id]) else { return false }
                let share = share.intersection(Self.set(asked["shareTypes"])), read = read.intersection(Self.set(asked["readTypes"]))
                try db.execute(sql: """
                    UPDATE authorizationRequest SET state = 'decided', allowedShare = ?, allowedRead = ?, answeredAt = ?
                    WHERE id = ? AND state = 'pending'
                    """, arguments: [Self.list(share), Self.list(read), now.timeIntervalSince1970, id])
            }
            return db.changesCount == 1
        }
    }

    private static func list(_ types: Set<String>) -> String {
        String(decoding: (try? JSONEncoder().encode(types.sorted())) ?? Data("[]".utf8), as: UTF8.self)
    }

    private static func set(_ text: String?) -> Set<String> {
        Set((try? JSONDecoder().decode([String].self, from: Data((text ?? "[]").utf8))) ?? [])
    }
}
