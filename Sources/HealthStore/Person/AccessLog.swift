package import Foundation
import GRDB

/// What apps read and wrote through the daemon, kept for the person: each entry an app, an operation on a type, how
/// many objects, when, and whether it was allowed. Bounded: entries older than ``retention`` (90 days) go, and at most
/// ``maximumEntries`` (a million) are kept, the oldest going first.
package struct AccessLog: Sendable {
    package struct Entry: Sendable, Hashable {
        package var time: Date
        /// The app's bundle identifier.
        package var app: String
        /// `save`, `delete`, `query`, `authorizationStatus`…
        package var operation: String
        /// The type identifier, when the operation is on one type.
        package var type: String?
        /// Objects saved, deleted or returned.
        package var count: Int
        /// `allowed`, or why not (`denied`, `invalid`).
        package var outcome: String

        package init(time: Date, app: String, operation: String, type: String?, count: Int, outcome: String) {
            self.time = time
            self.app = app
            self.operation = operation
            self.type = type
            self.count = count
            self.outcome = outcome
        }
    }

    package let database: HealthDatabase
    /// How long an entry is kept.
    package let retention: TimeInterval
    /// How many entries are kept at most.
    package let maximumEntries: Int

    package init(database: HealthDatabase, retention: TimeInterval = 90 * 86_400, maximumEntries: Int = 1_000_000) {
        self.database = database
        self.retention = retention
        self.maximumEntries = maximumEntries
    }

    /// Adds `entries` in one transaction, and drops what is past the retention bounds.
    package func record(_ entries: [Entry], now: Date = Date()) throws {
        guard !entries.isEmpty else { return }
        try database.write { db in
            let insert = try db.makeStatement(sql: "INSERT INTO accessLog (time, app, operation, type, count, outcome) VALUES (?, ?, ?, ?, ?, ?)")
            for entry in entries {
                try insert.execute(arguments: [entry.time.timeIntervalSince1970, entry.app, entry.operation, entry.type, entry.count, entry.outcome])
            }
            try db.execute(sql: "DELETE FROM accessLog WHERE time < ?", arguments: [now.timeIntervalSince1970 - retention])
            try db.execute(sql: """
                DELETE FROM accessLog WHERE id <= (SELECT id FROM accessLog ORDER BY id DESC LIMIT 1 OFFSET ?)
                """, arguments: [maximumEntries])
        }
    }

    /// The entries that match, newest first, at most `limit`.
    package func entries(app: String? = nil, type: String? = nil, since: Date? = nil, until: Date? = nil, limit: Int = 1_000) throws -> [Entry] {
        try database.read { db in
            var conditions: [String] = [], arguments: StatementArguments = []
            if let app { conditions.append("app = ?"); arguments += [app] }
            if let type { conditions.append("type = ?"); arguments += [type] }
            if let since { conditions.append("time >= ?"); arguments += [since.timeIntervalSince1970] }
            if let until { conditions.append("time < ?"); arguments += [until.timeIntervalSince1970] }
            let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            arguments += [limit]
            return try Row.fetchAll(db, sql: "SELECT * FROM accessLog \(filter) ORDER BY time DESC, id DESC LIMIT ?", arguments: arguments).map { row in
                Entry(time: Date(timeIntervalSince1970: row["time"]), app: row["app"], operation: row["operation"], type: row["type"],
                      count: row["count"], outcome: row["outcome"])
            }
        }
    }
}
