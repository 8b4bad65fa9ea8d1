import Foundation
import Synchronization
import Testing
@testable import HealthExport
@testable import OpenHealthKit
import TestSupport

/// Imports `path` (under the export fixtures) into a fresh store; returns the person, the folder and what happened.
private func imported(_ path: String) throws -> (HealthPerson, URL, ExportImport) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-route-\(UUID().uuidString)")
    let person = try HealthPerson(storeDirectory: folder)
    return (person, folder, try person.importExport(at: exportFixtures.appendingPathComponent(path)))
}

/// An app in the person's store that may read `types`.
private func app(_ folder: URL, reading types: Set<HKObjectType>) async throws -> HKHealthStore {
    let (store, _, _) = makeStore(.allowAll, in: folder)
    try await store.requestAuthorization(toShare: [], read: types)
    return store
}

/// Every batch an `HKWorkoutRouteQuery` delivers, until `done`.
private func locations(_ route: HKWorkoutRoute, interval: DateInterval? = nil, on store: HKHealthStore) async throws -> [[CLLocation]] {
    let batches = Mutex<[[CLLocation]]>([])
    return try await withCheckedThrowingContinuation { continuation in
        let handler: HKWorkoutRouteQuery.DataHandler = { _, locations, done, error in
            if let error { return continuation.resume(throwing: error) }
            batches.withLock { $0.append(locations ?? []) }
            if done { continuation.resume(returning: batches.withLock { $0 }) }
        }
        store.execute(interval.map { HKWorkoutRouteQuery(route: route, dateInterval: $0, dataHandler: handler) }
                      ?? HKWorkoutRouteQuery(route: route, dataHandler: handler))
    }
}

/// The routes of `workout` an app sees.
private func routes(of workout: HKWorkout, on store: HKHealthStore) async throws -> [HKWorkoutRoute] {
    try await run(store, type: HKSeriesType.workoutRoute(), predicate: HKQuery.predicateForObjects(from: workout)).compactMap { $0 as? HKWorkoutRoute }
}

@Suite("Workout routes from exports")
struct WorkoutRouteTests {
    @Test func inlineLocationsOfAnOldExportBecomeARouteOfTheirWorkout() async throws {
        let (_, folder, result) = try imported("dogsheep_healthkit-to-sqlite/export.xml")
        #expect(result.added[HKWorkoutRouteTypeIdentifier] == 1 && result.problemCounts.isEmpty)
        let store = try await app(folder, reading: [HKObjectType.workoutType(), HKSeriesType.workoutRoute()])
        let workout = try #require(try await run(store, type: HKObjectType.workoutType()).first as? HKWorkout)
        let route = try #require(try await routes(of: workout, on: store).first)
        #expect(route.count == 2 && route.sourceRevision.source.name == "Simon’s iPhone" && route.sourceRevision.version == "10.1.1")
        #expect(route.startDate == Date(timeIntervalSince1970: 1_479_133_544) && route.endDate == Date(timeIntervalSince1970: 1_479_133_851))
        let points = try await locations(route, on: store).flatMap { $0 }
        #expect(points.map(\.altitude) == [21.2694, 21.2677])
        #expect(points[0].coordinate == CLLocationCoordinate2D(latitude: 37.7777, longitude: -122.426))
        #expect(points[0].horizontalAccuracy == 2.40948 && points[0].verticalAccuracy == 1.67859 && points[0].course == -1 && points[0].speed == 2.48034)
        #expect(points[0].timestamp == Date(timeIntervalSince1970: 1_479_133_544))
    }

    @Test func gpxFilesOfANewExportAreReadWhateverTheFolderIsCalled() async throws {
        let (_, folder, result) = try imported("dogsheep_healthkit-to-sqlite/zip_contents/apple_health_export/export.xml")
        #expect(result.added[HKWorkoutRouteTypeIdentifier] == 1 && result.problemCounts.isEmpty)
        let store = try await app(folder, reading: [HKObjectType.workoutType(), HKSeriesType.workoutRoute()])
        let route = try #require(try await run(store, type: HKSeriesType.workoutRoute()).first as? HKWorkoutRoute)
        var points: [CLLocation] = []
        for try await point in HKWorkoutRouteQueryDescriptor(route).results(for: store) { points.append(point) }
        #expect(points.count == 3 && route.count == 3)
        #expect(points[0].coordinate == CLLocationCoordinate2D(latitude: 37.781672, longitude: -122.396397))
        #expect(points[0].altitude == 4.076904 && points[0].speed == 0.180883 && points[0].course == 206.252884)
        #expect(points[0].horizontalAccuracy == 8.063116 && points[0].verticalAccuracy == 6.428697)
        #expect(points[2].timestamp == Date(timeIntervalSince1970: 1_560_290_443))  // 2019-06-11T22:00:43Z
        // Only the points within an interval.
        let first = try await locations(route, interval: DateInterval(start: points[0].timestamp, duration: 0.5), on: store).flatMap { $0 }
        #expect(first.count == 2)
    }

    @Test func aLongRouteArrivesInBatchesEndingWithDone() async throws {
        let (_, folder, result) = try imported("NicolasReyrolle_apple-health-analyzer/exports/workout_running.xml")
        #expect(result.added[HKWorkoutRouteTypeIdentifier] == 1)
        let store = try await app(folder, reading: [HKSeriesType.workoutRoute()])
        let route = try #require(try await run(store, type: HKSeriesType.workoutRoute()).first as? HKWorkoutRoute)
        let batches = try await locations(route, on: store)
        #expect(route.count == 3654 && batches.map(\.count).reduce(0, +) == 3654)  // the GPX file's 3,654 track points
        #expect(batches.count == 8 && batches.dropLast().allSatisfy { $0.count == HKWorkoutRouteQuery.batchSize })
        let times = batches.flatMap { $0 }.map(\.timestamp)
        #expect(times == times.sorted())
        #expect(route.metadata?[HKMetadataKeySyncVersion] as? Int == 2)
    }

    @Test func aRouteAnAppMayNotReadLooksLikeNoRouteAtAll() async throws {
        let (person, folder, _) = try imported("dogsheep_healthkit-to-sqlite/export.xml")
        let route = try #require(try await run(person.healthStore, type: HKSeriesType.workoutRoute()).first as? HKWorkoutRoute)
        let (store, _, _) = makeStore(.denyAll, in: folder)
        try await store.requestAuthorization(toShare: [], read: [HKSeriesType.workoutRoute()])
        let denied = await #expect(throws: HKError.self) { try await locations(route, on: store) }
        let missing = HKWorkoutRoute(count: 1, start: route.startDate, end: route.endDate, metadata: nil, device: nil)
        let absent = await #expect(throws: HKError.self) { try await locations(missing, on: person.healthStore) }
        #expect(denied?.code == .errorNoData && absent?.code == .errorNoData)
    }

    @Test func aMissingRouteFileIsReportedAndTheWorkoutStillLands() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-route-missing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let source = exportFixtures.appendingPathComponent("dogsheep_healthkit-to-sqlite/zip_contents/apple_health_export/export.xml")
        try FileManager.default.copyItem(at: source, to: folder.appendingPathComponent("export.xml"))
        let person = try HealthPerson(storeDirectory: folder.appendingPathComponent("store"))
        let result = try person.importExport(at: folder.appendingPathComponent("export.xml"))
        #expect(result.added[HKWorkoutTypeIdentifier] == 1 && result.added[HKWorkoutRouteTypeIdentifier] == nil)
        #expect(result.problems.map(\.description) == [
            "line 18 (WorkoutRoute): the route file /workout-routes/route_2019-06-11_3.00pm.gpx is not in the export",
            "line 18 (WorkoutRoute): a WorkoutRoute without readable locations",
        ])
    }

    @Test func anExportWritesEachRouteAsAGPXFileNamedAfterItsLocalStart() throws {
        let (person, _, _) = try imported("dogsheep_healthkit-to-sqlite/zip_contents/apple_health_export/export.xml")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-route-out-\(UUID().uuidString)")
        let export = try person.exportHealthData(to: out, timeZone: TimeZone(identifier: "America/Los_Angeles")!)
        #expect(export.routes == 1 && export.notExported.isEmpty)
        let xml = try String(contentsOf: out.appendingPathComponent("export.xml"), encoding: .utf8)
        // Named after the route's start as export.xml gives it (2016-11-14 06:25:44 -0800), with the same points.
        #expect(xml.contains(#"<FileReference path="/workout-routes/route_2016-11-14_6.25am.gpx"/>"#))
        let gpx = out.appendingPathComponent("workout-routes/route_2016-11-14_6.25am.gpx")
        let original = exportFixtures.appendingPathComponent(
            "dogsheep_healthkit-to-sqlite/zip_contents/apple_health_export/workout-routes/route_2019-06-11_3.00pm.gpx")
        #expect(try GPXReader.locations(at: gpx) == GPXReader.locations(at: original))
        #expect(try String(contentsOf: gpx, encoding: .utf8).contains("<name>Route 2016-11-14 6:25am</name>"))
    }
}
