import GRDB
package import HealthModel

/// The person's characteristics (date of birth, biological sex, blood type, skin type, wheelchair use,
/// move mode). Only the person sets them; apps read them with read permission, and an app without it
/// sees "not set", exactly as if the person had never entered them.
package struct CharacteristicStore: Sendable {
    package let database: HealthDatabase
    let authorization: AuthorizationService

    package init(database: HealthDatabase) {
        self.database = database
        self.authorization = AuthorizationService(database: database)
    }

    /// Sets (or, with `nil`, clears) a characteristic, as the person does. The value is its text form:
    /// the raw value of the characteristic's enum, or `yyyy-MM-dd` for the date of birth.
    package func set(_ type: HKCharacteristicTypeIdentifier, to value: String?) throws {
        try database.write { db in
            if let value {
                try db.execute(sql: "INSERT OR REPLACE INTO characteristic (type, value) VALUES (?, ?)", arguments: [type.rawValue, value])
            } else {
                try db.execute(sql: "DELETE FROM characteristic WHERE type = ?", arguments: [type.rawValue])
            }
        }
    }

    /// The characteristic as `app` may see it: `nil` when it is not set or the app may not read it.
    package func value(_ type: HKCharacteristicTypeIdentifier, visibleTo app: String) throws -> String? {
        guard try authorization.canRead(app: app, type: type.rawValue) else { return nil }
        return try database.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM characteristic WHERE type = ?", arguments: [type.rawValue])
        }
    }
}
