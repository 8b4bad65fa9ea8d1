import Foundation
import GRDB
import Testing
@testable import HealthStore
@testable import OpenHealthKit

@Suite("Workouts in the store")
struct WorkoutStorageTests {
    let workoutType = HKObjectType.workoutType()

    func authorizedStore() async throws -> HKHealthStore {
        let (store, _, _) = makeStore(.allowAll)
        try await store.requestAuthorization(toShare: [workoutType], read: [workoutType])
        return store
    }

    @Test func aWorkoutWithEventsTotalsAndMetadataComesBackEqual() async throws {
        let store = try await authorizedStore()
        let start = now, end = now.addingTimeInterval(3600)
        let pause = HKWorkoutEvent(type: .pause, dateInterval: DateInterval(start: start.addingTimeInterval(600), duration: 0), metadata: nil)
        let resume = HKWorkoutEvent(type: .resume, dateInterval: DateInterval(start: start.addingTimeInterval(900), duration: 0), metadata: nil)
        let lap = HKWorkoutEvent(type: .lap, dateInterval: DateInterval(start: start, duration: 300),
                                 metadata: [HKMetadataKeyLapLength: HKQuantity(unit: .meter(), doubleValue: 400)])
        let run = try HKWorkout.validated(
            activityType: .running, start: start, end: end, workoutEvents: [lap, pause, resume],
            totalEnergyBurned: HKQuantity(unit: .kilocalorie(), doubleValue: 420),
            totalDistance: HKQuantity(unit: .meterUnit(with: .kilo), doubleValue: 10.2),
            metadata: [HKMetadataKeyIndoorWorkout: false, "plan": "tempo"])
        try await store.save(run)

        let saved = try #require(try store.sampleStore().samples(ofType: workoutType, visibleTo: AppManifest.stepsApp.bundleIdentifier).first
                                 as? HKWorkout)
        #expect(saved.uuid == run.uuid)
        #expect(saved.workoutActivityType == .running)
        #expect(saved.startDate == start && saved.endDate == end)
        #expect(saved.duration == 3300)  // an hour less the five-minute pause
        #expect(saved.workoutEvents == run.workoutEvents)
        #expect(saved.workoutEvents?.first?.metadataValues == lap.metadataValues)
        #expect(saved.totalEnergyBurned == HKQuantity(unit: .kilocalorie(), doubleValue: 420))
        #expect(saved.totalDistance?.doubleValue(for: .meter()) == 10_200)
        #expect(saved.totalDistance?.unit == .meterUnit(with: .kilo))
        #expect(saved.metadataValues == run.metadataValues)
        #expect(saved.sourceRevision.source.bundleIdentifier == AppManifest.stepsApp.bundleIdentifier)
    }

    @Test func aWorkoutsActivitiesComeBackWithTheirConfigurationEventsAndStatistics() async throws {
        let store = try await authorizedStore()
        let swim = HKWorkoutConfiguration()
        swim.activityType = .swimming
        swim.swimmingLocationType = .pool
        swim.lapLength = HKQuantity(unit: .yard(), doubleValue: 25)
        let ride = HKWorkoutConfiguration()
        ride.activityType = .cycling
        ride.locationType = .outdoor
        let heart = HKQuantityType(.heartRate)
        let bpm = HKUnit.count().unitDivided(by: .minute())
        let legs = [
            HKWorkoutActivity(
                configuration: swim, start: now, end: now.addingTimeInterval(1200),
                events: [HKWorkoutEvent(type: .segment, dateInterval: DateInterval(start: now, duration: 600), metadata: ["set": 1])],
                statistics: [heart: HKStatistics(quantityType: heart, startDate: now, endDate: now.addingTimeInterval(1200),
                                                 merged: .init(minimum: HKQuantity(unit: bpm, doubleValue: 98),
                                                               maximum: HKQuantity(unit: bpm, doubleValue: 151),
                                                               average: HKQuantity(unit: bpm, doubleValue: 132)))],
                metadata: ["leg": .string("swim")]),
            HKWorkoutActivity(configuration: ride, start: now.addingTimeInterval(1300), end: now.addingTimeInterval(4900), metadata: nil),
        ]
        let triathlon = HKWorkout(activityType: .swimBikeRun, start: now, end: now.addingTimeInterval(4900), duration: 4800,
                                  events: nil, activities: legs, statistics: [:], metadata: nil, device: nil)
        try await store.save(triathlon)

        let saved = try #require(try store.sampleStore().samples(ofType: workoutType, visibleTo: AppManifest.stepsApp.bundleIdentifier).first
                                 as? HKWorkout)
        #expect(saved.duration == 4800)
        #expect(saved.workoutEvents == nil)
        #expect(saved.workoutActivities.map(\.uuid) == legs.map(\.uuid))
        #expect(saved.workoutActivities.map { $0.workoutConfiguration } == [swim, ride])
        #expect(saved.workoutActivities[0].workoutConfiguration.lapLength == swim.lapLength)
        #expect(saved.workoutActivities[0].metadataValues == ["leg": .string("swim")])
        #expect(saved.workoutActivities[0].workoutEvents == legs[0].workoutEvents)
        #expect(saved.workoutActivities[0].workoutEvents.first?.metadataValues == ["set": .integer(1)])
        let stats = try #require(saved.workoutActivities[0].statistics(for: heart))
        #expect(stats.averageQuantity() == HKQuantity(unit: bpm, doubleValue: 132))
        #expect(stats.minimumQuantity()?.doubleValue(for: bpm) == 98)
        #expect(stats.maximumQuantity()?.doubleValue(for: bpm) == 151)
        #expect(stats.sumQuantity() == nil)
        #expect(saved.workoutActivities[1].endDate == now.addingTimeInterval(4900))
        #expect(saved.workoutActivities[1].allStatistics.isEmpty)
    }

    @Test func deletingAWorkoutRemovesItsPartsAndLeavesATombstone() async throws {
        let store = try await authorizedStore()
        let lap = HKWorkoutEvent(type: .lap, dateInterval: DateInterval(start: now, duration: 60), metadata: ["n": 1])
        let walk = try HKWorkout.validated(activityType: .walking, start: now, end: now.addingTimeInterval(600), workoutEvents: [lap],
                                           totalEnergyBurned: HKQuantity(unit: .kilocalorie(), doubleValue: 40))
        try await store.save(walk)
        try await store.delete(walk)
        let leftovers = try store.sampleStore().database.read { db in
            try ["sample", "workout", "workoutEvent", "workoutStatistic", "workoutPartMetadata"].map {
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \($0)")!
            }
        }
        #expect(leftovers == [0, 0, 0, 0, 0])
        #expect(try store.sampleStore().deletedObjects(ofType: workoutType, visibleTo: AppManifest.stepsApp.bundleIdentifier)
                    .map(\.uuid) == [walk.uuid])
    }

    @Test func savingAWorkoutNeedsShareAuthorizationForWorkouts() async throws {
        let (store, _, _) = makeStore(.allowAll)
        try await store.requestAuthorization(toShare: [steps], read: [])
        let walk = HKWorkout(activityType: .walking, start: now, end: now.addingTimeInterval(600))
        await #expect(throws: HKError(.errorAuthorizationNotDetermined)) { try await store.save(walk) }
    }

    @Test func aStoreWrittenBeforeWorkoutsKeepsItsSamplesWhenUpgraded() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("v2-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let pool = try DatabasePool(path: folder.appendingPathComponent("health.sqlite").path)
        try HealthDatabase.migrator.migrate(pool, upTo: "v2: samples, metadata, sources, devices, tombstones, characteristics")
        try await pool.write { db in
            try db.execute(sql: "INSERT INTO source (bundleIdentifier, name) VALUES ('com.example.steps', 'Steps')")
            try db.execute(sql: """
                INSERT INTO sample (uuid, type, kind, startDate, endDate, value, originalValue, unit, sourceId, savedAt)
                VALUES ('\(UUID().uuidString)', 'HKQuantityTypeIdentifierStepCount', 0, 1, 2, 10, 10, 'count', 1, 3)
                """)
        }
        try pool.close()
        let (store, _, _) = makeStore(.allowAll, in: folder)
        try await store.requestAuthorization(toShare: [workoutType], read: [steps])
        #expect(try store.sampleStore().samples(ofType: steps, visibleTo: AppManifest.stepsApp.bundleIdentifier).count == 1)
        try await store.save(HKWorkout(activityType: .yoga, start: now, end: now.addingTimeInterval(60)))
    }
}
