import Foundation
import GRDB
import HealthModel

/// Writes and reads the parts of a workout that live beside its `sample` row: the activity type and
/// duration (`workout`), activities, events, statistics, and the metadata of events and activities.
enum WorkoutStorage {
    static func insert(_ workout: HKWorkout, sampleId: Int64, in db: Database) throws {
        // Cached statements: an export's workouts bring hundreds of events, statistics and metadata entries each.
        try db.cachedStatement(sql: "INSERT INTO workout (sampleId, activityType, duration) VALUES (?, ?, ?)")
            .execute(arguments: [sampleId, workout.workoutActivityType.rawValue, workout.duration])
        try insertEvents(workout.workoutEvents ?? [], workoutId: sampleId, activityId: nil, in: db)
        try insertStatistics(workout.allStatistics, workoutId: sampleId, activityId: nil, in: db)
        for (position, activity) in workout.workoutActivities.enumerated() {
            let configuration = activity.workoutConfiguration
            // An activity belongs to one workout. An export can hold two workouts whose activities carry one UUID (an
            // app's copies of a workout): the later one's activity gets a UUID of its own, derived from both.
            var uuid = activity.uuid
            if try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM workoutActivity WHERE uuid = ?)"),
                                 arguments: [uuid.uuidString]) == true {
                uuid = derivedUUID(activity.uuid, workout.uuid)
            }
            try db.cachedStatement(sql: """
                INSERT INTO workoutActivity (uuid, workoutId, position, activityType, locationType, swimmingLocationType,
                                             lapLength, lapLengthUnit, startDate, endDate)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [
                    uuid.uuidString, sampleId, position, configuration.activityType.rawValue,
                    configuration.locationType.rawValue, configuration.swimmingLocationType.rawValue,
                    configuration.lapLength?.doubleValue, configuration.lapLength?.unit.unitString,
                    activity.startDate.timeIntervalSinceReferenceDate, activity.endDate?.timeIntervalSinceReferenceDate,
                ])
            let activityId = db.lastInsertedRowID
            try insertMetadata(activity.metadataValues, owner: "activityId", ownerId: activityId, in: db)
            try insertEvents(activity.workoutEvents, workoutId: sampleId, activityId: activityId, in: db)
            try insertStatistics(activity.allStatistics, workoutId: sampleId, activityId: activityId, in: db)
        }
    }

    /// A UUID (version 8) made from two: the same two always give the same one.
    static func derivedUUID(_ a: UUID, _ b: UUID) -> UUID {
        var bytes = a.uuid
        withUnsafeMutableBytes(of: &bytes) { out in
            withUnsafeBytes(of: b.uuid) { other in
                for index in 0..<16 { out[index] ^= other[(index + 5) % 16] &+ 0x5B }
            }
            out[6] = (out[6] & 0x0F) | 0x80
            out[8] = (out[8] & 0x3F) | 0x80
        }
        return UUID(uuid: bytes)
    }

    private static func insertEvents(_ events: [HKWorkoutEvent], workoutId: Int64, activityId: Int64?, in db: Database) throws {
        let insert = try db.cachedStatement(sql: """
            INSERT INTO workoutEvent (workoutId, activityId, position, type, startDate, endDate) VALUES (?, ?, ?, ?, ?, ?)
            """)
        for (position, event) in events.enumerated() {
            try insert.execute(arguments: [workoutId, activityId, position, event.type.rawValue,
                                 event.dateInterval.start.timeIntervalSinceReferenceDate,
                                 event.dateInterval.end.timeIntervalSinceReferenceDate])
            try insertMetadata(event.metadataValues, owner: "eventId", ownerId: db.lastInsertedRowID, in: db)
        }
    }

    private static func insertStatistics(
        _ statistics: [HKQuantityType: HKStatistics], workoutId: Int64, activityId: Int64?, in db: Database
    ) throws {
        for (type, statistic) in statistics {
            let values = statistic.merged
            let quantities = [values.sum, values.minimum, values.maximum, values.average, values.mostRecent]
            // One unit per row: the first quantity's; the others are converted to it.
            guard let unit = quantities.compactMap({ $0?.unit }).first ?? values.duration.map({ _ in HKUnit.second() }) else { continue }
            let numbers = try quantities.map { try $0.map { try $0.value(in: unit) } }
            try db.cachedStatement(sql: """
                INSERT INTO workoutStatistic (workoutId, activityId, quantityType, unit, sum, minimum, maximum, average,
                                              mostRecent, mostRecentStart, mostRecentEnd, duration,
                                              sumBase, minimumBase, maximumBase, averageBase)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [
                    workoutId, activityId, type.identifier, unit.unitString, numbers[0], numbers[1], numbers[2], numbers[3],
                    numbers[4], values.mostRecentDateInterval?.start.timeIntervalSinceReferenceDate,
                    values.mostRecentDateInterval?.end.timeIntervalSinceReferenceDate,
                    try values.duration.map { try $0.value(in: .second()) },
                    try numbers[0].map(unit.toBase), try numbers[1].map(unit.toBase), try numbers[2].map(unit.toBase),
                    try numbers[3].map(unit.toBase),
                ])
        }
    }

    private static func insertMetadata(_ metadata: [String: HKMetadataValue]?, owner: String, ownerId: Int64, in db: Database) throws {
        for (key, value) in metadata ?? [:] {
            let (kind, text, number, integer) = MetadataRecord.Kind.encode(value)
            try db.cachedStatement(sql: "INSERT INTO workoutPartMetadata (\(owner), key, kind, text, number, integer) VALUES (?, ?, ?, ?, ?, ?)")
                .execute(arguments: [ownerId, key, kind.rawValue, text, number, integer])
        }
    }

    // MARK: - Reading

    /// Rebuilds the workout stored under `row`.
    static func workout(
        row: SampleRecord, metadata: [String: HKMetadataValue]?, revision: HKSourceRevision, device: HKDevice?, in db: Database
    ) throws -> HKWorkout {
        let id = row.id!
        guard let workoutRow = try Row.fetchOne(db, sql: "SELECT activityType, duration FROM workout WHERE sampleId = ?", arguments: [id]),
              let activityType = HKWorkoutActivityType(rawValue: workoutRow["activityType"])
        else { throw HKError(.errorDatabaseInaccessible, "the store holds a workout (\(row.uuid)) without its workout row") }
        let start = Date(timeIntervalSinceReferenceDate: row.startDate), end = Date(timeIntervalSinceReferenceDate: row.endDate)
        let events = try self.events(workoutId: id, activityId: nil, in: db)
        var activities: [HKWorkoutActivity] = []
        for activityRow in try Row.fetchAll(db, sql: "SELECT * FROM workoutActivity WHERE workoutId = ? ORDER BY position", arguments: [id]) {
            let activityId: Int64 = activityRow["id"]
            let configuration = HKWorkoutConfiguration()
            configuration.activityType = HKWorkoutActivityType(rawValue: activityRow["activityType"]) ?? .other
            configuration.locationType = HKWorkoutSessionLocationType(rawValue: activityRow["locationType"]) ?? .unknown
            configuration.swimmingLocationType = HKWorkoutSwimmingLocationType(rawValue: activityRow["swimmingLocationType"]) ?? .unknown
            if let length = activityRow["lapLength"] as Double?, let unit = activityRow["lapLengthUnit"] as String? {
                configuration.lapLength = HKQuantity(unit: try HKUnit.parse(unit), doubleValue: length)
            }
            let activityStart = Date(timeIntervalSinceReferenceDate: activityRow["startDate"])
            let activityEnd = (activityRow["endDate"] as Double?).map(Date.init(timeIntervalSinceReferenceDate:))
            activities.append(HKWorkoutActivity(
                uuid: UUID(uuidString: activityRow["uuid"]) ?? UUID(), configuration: configuration, start: activityStart, end: activityEnd,
                events: try self.events(workoutId: id, activityId: activityId, in: db),
                statistics: try statistics(workoutId: id, activityId: activityId, start: activityStart, end: activityEnd ?? end, in: db),
                metadata: try partMetadata(owner: "activityId", ownerId: activityId, in: db)))
        }
        return HKWorkout(
            activityType: activityType, start: start, end: end, duration: workoutRow["duration"],
            events: events.isEmpty ? nil : events, activities: activities,
            statistics: try statistics(workoutId: id, activityId: nil, start: start, end: end, in: db),
            uuid: UUID(uuidString: row.uuid)!, metadata: metadata, sourceRevision: revision, device: device)
    }

    private static func events(workoutId: Int64, activityId: Int64?, in db: Database) throws -> [HKWorkoutEvent] {
        try Row.fetchAll(db, sql: "SELECT * FROM workoutEvent WHERE workoutId = ? AND activityId IS ? ORDER BY position",
                         arguments: [workoutId, activityId]).map { row in
            let interval = DateInterval(start: Date(timeIntervalSinceReferenceDate: row["startDate"]),
                                        end: Date(timeIntervalSinceReferenceDate: row["endDate"]))
            return HKWorkoutEvent(type: HKWorkoutEventType(rawValue: row["type"]) ?? .marker, dateInterval: interval,
                                  validatedMetadata: try partMetadata(owner: "eventId", ownerId: row["id"], in: db))
        }
    }

    private static func statistics(
        workoutId: Int64, activityId: Int64?, start: Date, end: Date, in db: Database
    ) throws -> [HKQuantityType: HKStatistics] {
        var result: [HKQuantityType: HKStatistics] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT * FROM workoutStatistic WHERE workoutId = ? AND activityId IS ?",
                                    arguments: [workoutId, activityId]) {
            guard let type = HKObjectType.type(forIdentifier: row["quantityType"]) as? HKQuantityType else { continue }
            let unit = try HKUnit.parse(row["unit"])
            func quantity(_ column: String) -> HKQuantity? { (row[column] as Double?).map { HKQuantity(unit: unit, doubleValue: $0) } }
            var interval: DateInterval?
            if let from = row["mostRecentStart"] as Double?, let to = row["mostRecentEnd"] as Double? {
                interval = DateInterval(start: Date(timeIntervalSinceReferenceDate: from), end: Date(timeIntervalSinceReferenceDate: to))
            }
            let values = HKStatistics.Values(
                sum: quantity("sum"), minimum: quantity("minimum"), maximum: quantity("maximum"), average: quantity("average"),
                mostRecent: quantity("mostRecent"), mostRecentDateInterval: interval,
                duration: (row["duration"] as Double?).map { HKQuantity(unit: .second(), doubleValue: $0) })
            result[type] = HKStatistics(quantityType: type, startDate: start, endDate: end, merged: values)
        }
        return result
    }

    private static func partMetadata(owner: String, ownerId: Int64, in db: Database) throws -> [String: HKMetadataValue]? {
        let rows = try Row.fetchAll(db, sql: "SELECT * FROM workoutPartMetadata WHERE \(owner) = ?", arguments: [ownerId])
        guard !rows.isEmpty else { return nil }
        var metadata: [String: HKMetadataValue] = [:]
        for row in rows {
            guard let kind = MetadataRecord.Kind(rawValue: row["kind"]) else { continue }
            metadata[row["key"]] = try kind.decode(text: row["text"], number: row["number"], integer: row["integer"])
        }
        return metadata
    }
}
