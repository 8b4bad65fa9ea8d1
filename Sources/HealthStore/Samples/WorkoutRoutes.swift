package import Foundation
import GRDB
package import HealthModel

extension SampleStore {
    /// A route read from an export: the sample, its points in order, and the workout it belongs to.
    package struct ImportedRoute: Sendable {
        package let route: HKWorkoutRoute
        package let locations: [CLLocation]
        package let workout: UUID

        package init(route: HKWorkoutRoute, locations: [CLLocation], workout: UUID) {
            self.route = route
            self.locations = locations
            self.workout = workout
        }
    }

    /// Stores routes whose UUID is not stored yet, with their points, each associated with its workout (which must be
    /// stored already, in this transaction or before).
    func insertRoutes(_ routes: [ImportedRoute], savedAt: Double, created: [UUID: Double] = [:], workouts: [UUID: UUID] = [:],
                      in db: Database) throws -> ImportCounts {
        var counts = ImportCounts()
        // Date ranges reach back by the type's longest sample: a route's length must be known, or a range starting
        // inside a route would miss it.
        try SampleStore.recordSpans(routes.map(\.route), in: db)
        let insertLocation = try db.cachedStatement(sql: """
            INSERT INTO routeLocation (sampleId, position, timestamp, latitude, longitude, altitude, horizontalAccuracy, verticalAccuracy,
                                       course, speed)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for imported in routes {
            let route = imported.route
            guard try Int64.fetchOne(db, sql: "SELECT id FROM sample WHERE uuid = ?", arguments: [route.uuid.uuidString]) == nil else {
                counts.existing += 1
                continue
            }
            guard let workoutId = try Int64.fetchOne(db, sql: "SELECT id FROM sample WHERE uuid = ? AND kind = ?",
                                                     arguments: [(workouts[imported.workout] ?? imported.workout).uuidString,
                                                                 SampleKind.workout.rawValue]) else {
                throw HKError.invalidArgument("route \(route.uuid) belongs to workout \(imported.workout), which is not in the store")
            }
            let sourceId = try SampleStore.sourceId(for: route.sourceRevision.source, in: db, create: true)!
            try insert(route, sourceId: sourceId, revision: route.sourceRevision, correlationId: nil, savedAt: created[route.uuid] ?? savedAt,
                       in: db)
            // (Not `lastInsertedRowID`: the route's metadata rows come after it.)
            guard let routeId = try Int64.fetchOne(db, sql: "SELECT id FROM sample WHERE uuid = ?", arguments: [route.uuid.uuidString]) else {
                throw HKError(.errorDatabaseInaccessible, "route \(route.uuid) was not stored")
            }
            for (position, location) in imported.locations.enumerated() {
                try insertLocation.execute(arguments: [
                    routeId, position, location.timestamp.timeIntervalSinceReferenceDate, location.coordinate.latitude,
                    location.coordinate.longitude, location.altitude, location.horizontalAccuracy, location.verticalAccuracy,
                    location.course, location.speed,
                ])
            }
            try db.execute(sql: "INSERT OR IGNORE INTO workoutAssociation (workoutId, sampleId) VALUES (?, ?)", arguments: [workoutId, routeId])
            counts.added[route.sampleType.identifier, default: 0] += 1
        }
        return counts
    }

    /// The points of route `uuid`, in order; only those timestamped within `interval` when one is given. The caller
    /// has checked that the route is visible to the reader.
    package func routeLocations(of uuid: UUID, in interval: DateInterval? = nil) throws -> [CLLocation] {
        try database.read { db in
            var sql = """
                SELECT timestamp, latitude, longitude, altitude, horizontalAccuracy, verticalAccuracy, course, speed FROM routeLocation
                WHERE sampleId = (SELECT id FROM sample WHERE uuid = ?)
                """
            var arguments: StatementArguments = [uuid.uuidString]
            if let interval {
                sql += " AND timestamp BETWEEN ? AND ?"
                arguments += [interval.start.timeIntervalSinceReferenceDate, interval.end.timeIntervalSinceReferenceDate]
            }
            return try Row.fetchAll(db, sql: sql + " ORDER BY position", arguments: arguments).map(SampleStore.location)
        }
    }

    /// A `routeLocation` row as a location.
    static func location(_ row: Row) -> CLLocation {
        CLLocation(coordinate: CLLocationCoordinate2D(latitude: row["latitude"], longitude: row["longitude"]), altitude: row["altitude"],
                   horizontalAccuracy: row["horizontalAccuracy"], verticalAccuracy: row["verticalAccuracy"], course: row["course"],
                   speed: row["speed"], timestamp: Date(timeIntervalSinceReferenceDate: row["timestamp"]))
    }
}
