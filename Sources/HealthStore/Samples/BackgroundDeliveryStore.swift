import Foundation
import GRDB
package import HealthModel

/// What each app asked with `enableBackgroundDelivery(for:frequency:)`: per type, how often its observer
/// queries may be woken. Kept in the store so it outlives the process, as HealthKit keeps it across launches. A type
/// enabled here is delivered from now on (its mark is the store's newest position) to the app's callback URL, when it has
/// one (``BackgroundDeliveryQueue``); enabling it again changes the frequency and keeps the mark.
package struct BackgroundDeliveryStore: Sendable {
    package let database: HealthDatabase

    package init(database: HealthDatabase) {
        self.database = database
    }

    package func enable(app: String, type: HKObjectType, frequency: HKUpdateFrequency) throws {
        guard type is HKSampleType else {
            throw HKError.invalidArgument("background delivery is for sample types; \(type.identifier) is not one")
        }
        try database.write { db in
            try db.execute(sql: """
                INSERT INTO backgroundDelivery (app, type, frequency, updatedAt, sampleMark, deletedMark)
                VALUES (?, ?, ?, ?, (SELECT IFNULL(MAX(id), 0) FROM sample), (SELECT IFNULL(MAX(id), 0) FROM deletedObject))
                ON CONFLICT (app, type) DO UPDATE SET frequency = excluded.frequency, updatedAt = excluded.updatedAt
                """, arguments: [app, type.identifier, frequency.rawValue, Date().timeIntervalSinceReferenceDate])
        }
    }

    package func disable(app: String, type: HKObjectType) throws {
        try database.write { db in
            try db.execute(sql: "DELETE FROM backgroundDelivery WHERE app = ? AND type = ?", arguments: [app, type.identifier])
        }
    }

    package func disableAll(app: String) throws {
        try database.write { db in try db.execute(sql: "DELETE FROM backgroundDelivery WHERE app = ?", arguments: [app]) }
    }

    /// The frequency `app` enabled for `type`, or nil.
    package func frequency(app: String, type: String) throws -> HKUpdateFrequency? {
        try database.read { db in
            try Int.fetchOne(db, sql: "SELECT frequency FROM backgroundDelivery WHERE app = ? AND type = ?", arguments: [app, type])
        }.flatMap(HKUpdateFrequency.init(rawValue:))
    }
}
