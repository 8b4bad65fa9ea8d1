package import Foundation
import GRDB
package import HealthModel

/// The person's time zone: the days, weeks and months of their statistics begin at their midnight, wherever the
/// store is read (a server in UTC gives the same daily totals as their phone). Their own choice, else the one learned
/// from their last export (`HKTimeZone` metadata, which Apple writes on workouts and many records), else none.
package struct PersonTimeZoneStore: Sendable {
    package let database: HealthDatabase

    package init(database: HealthDatabase) {
        self.database = database
    }

    /// The stored time zone and whether the person chose it; nil when none is known.
    package func setting() throws -> (zone: TimeZone, byPerson: Bool)? {
        try database.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT timeZone, timeZoneByPerson FROM person WHERE id = 1"),
                  let identifier = row["timeZone"] as String?, let zone = TimeZone(identifier: identifier) else { return nil }
            return (zone, row["timeZoneByPerson"] as Bool? ?? false)
        }
    }

    /// Sets the time zone; one learned from an import (`byPerson` false) never replaces the person's own. `nil` with
    /// `byPerson` forgets both.
    package func set(_ zone: TimeZone?, byPerson: Bool) throws {
        try database.write { db in
            if let zone {
                try db.execute(sql: """
                    UPDATE person SET timeZone = ?, timeZoneByPerson = ? WHERE id = 1 AND (? OR NOT timeZoneByPerson OR timeZone IS NULL)
                    """, arguments: [zone.identifier, byPerson, byPerson])
            } else if byPerson {
                try db.execute(sql: "UPDATE person SET timeZone = NULL, timeZoneByPerson = 0 WHERE id = 1")
            }
        }
    }
}
