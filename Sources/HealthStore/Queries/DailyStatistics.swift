package import Foundation
import GRDB
import HealthModel

/// Each day's merged statistics of a type, kept for the person's charts (migration v32): a year's chart then combines
/// 365 rows instead of reading every sample again (a year of heart rate is 4 million readings).
///
/// The rows are what the statistics engine computed for those days; the store keeps them exact itself (triggers drop
/// the days a sample write can touch, and a type's days when its source order changes). A computation marks its
/// start (``begin(_:)``); a write of the type meanwhile removes the marker, and ``keep(_:)`` then keeps nothing, so a
/// result computed from data that changed under it is never kept.
package struct DailyStatistics: Sendable {
    /// One day: its start (in the time zone it was computed for) and its figures in the type's canonical unit; nil
    /// figures for a day without data.
    package struct Day: Sendable, Equatable {
        package var start: Date
        package var minimum: Double?
        package var maximum: Double?
        package var average: Double?
        package var total: Double?

        package init(start: Date, minimum: Double? = nil, maximum: Double? = nil, average: Double? = nil, total: Double? = nil) {
            self.start = start
            self.minimum = minimum
            self.maximum = maximum
            self.average = average
            self.total = total
        }
    }

    /// A computation under way: what ``keep(_:)`` needs to know that nothing changed since it began.
    package struct Computation: Sendable {
        let type: String
        let zone: String
        let marker: String
    }

    let database: HealthDatabase

    package init(database: HealthDatabase) {
        self.database = database
    }

    /// The kept days of `type` in `zone` that start at one of `starts`.
    package func days(of type: String, zone: TimeZone, starts: [Date]) throws -> [Date: Day] {
        guard let first = starts.min(), let last = starts.max() else { return [:] }
        let wanted = Set(starts)
        return try database.read { db in
            var found: [Date: Day] = [:]
            let rows = try Row.fetchCursor(db, sql: """
                SELECT day, minimum, maximum, average, total FROM dailyStatistics
                WHERE typeCode = ? AND day BETWEEN ? AND ? AND zone = ?
                """, arguments: [SampleTypeCode.code(type), first.timeIntervalSinceReferenceDate, last.timeIntervalSinceReferenceDate, zone.identifier])
            while let row = try rows.next() {
                let start = Date(timeIntervalSinceReferenceDate: row["day"])
                guard wanted.contains(start) else { continue }
                found[start] = Day(start: start, minimum: row["minimum"], maximum: row["maximum"], average: row["average"], total: row["total"])
            }
            return found
        }
    }

    /// Marks the start of a computation of `type`'s days in `zone` (before the engine reads the samples).
    package func begin(_ type: String, zone: TimeZone) throws -> Computation {
        let computation = Computation(type: type, zone: zone.identifier, marker: UUID().uuidString)
        try database.write { db in
            try db.execute(sql: "INSERT INTO dailyStatistics (typeCode, day, zone, type) VALUES (?, -1, ?, ?)",
                           arguments: [SampleTypeCode.code(type), computation.marker, type])
        }
        return computation
    }

    /// Keeps the days a computation found, unless a write of its type came meanwhile (its marker is gone); whether
    /// they were kept.
    @discardableResult
    package func keep(_ days: [Day], of computation: Computation) throws -> Bool {
        let code = SampleTypeCode.code(computation.type)
        return try database.write { db in
            try db.execute(sql: "DELETE FROM dailyStatistics WHERE typeCode = ? AND day = -1 AND zone = ?", arguments: [code, computation.marker])
            guard db.changesCount == 1 else { return false }
            for day in days {
                try db.execute(sql: """
                    INSERT OR REPLACE INTO dailyStatistics (typeCode, day, zone, type, minimum, maximum, average, total)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [code, day.start.timeIntervalSinceReferenceDate, computation.zone, computation.type,
                                     day.minimum, day.maximum, day.average, day.total])
            }
            return true
        }
    }

    /// Gives up a computation (it failed): its marker goes.
    package func abandon(_ computation: Computation) {
        _ = try? database.write { db in
            try db.execute(sql: "DELETE FROM dailyStatistics WHERE typeCode = ? AND day = -1 AND zone = ?",
                           arguments: [SampleTypeCode.code(computation.type), computation.marker])
        }
    }
}
