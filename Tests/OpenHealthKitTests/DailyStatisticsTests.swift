import Foundation
import GRDB
import GRDBSQLite
import Testing
@testable import HealthStore
@testable import OpenHealthKit

/// The daily statistics kept for the person's charts (migrations v32 and v40) stay exact by themselves: every write of a type
/// drops the days it can touch, a change of the type's source order drops the type, and a computation that a write
/// overtook keeps nothing.
@Suite("Daily statistics kept for charts")
struct DailyStatisticsTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let day0 = Date(timeIntervalSinceReferenceDate: 800_000_000 - 800_000_000.truncatingRemainder(dividingBy: 86_400))

    static func day(_ index: Int) -> Date { day0.addingTimeInterval(Double(index) * 86_400) }

    static func walk(_ value: Double, on index: Int) -> HKQuantitySample {
        let start = day(index).addingTimeInterval(12 * 3600)
        return HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: value), start: start, end: start.addingTimeInterval(60))
    }

    /// A store with an app allowed steps, its database, and ten days kept (day 0 to 9, values 1 to 10).
    static func storeWithKeptDays() async throws -> (HKHealthStore, DailyStatistics, URL) {
        let (store, _, folder) = makeStore(.allowAll)
        try await store.requestAuthorization(toShare: [steps], read: [steps])
        let kept = DailyStatistics(database: try HealthDatabase(directory: folder))
        let computation = try kept.begin(steps.identifier, zone: utc)
        #expect(try kept.keep((0..<10).map { DailyStatistics.Day(start: day($0), total: Double($0 + 1)) }, of: computation))
        return (store, kept, folder)
    }

    static func keptDays(_ kept: DailyStatistics) throws -> Set<Int> {
        Set(try kept.days(of: steps.identifier, zone: utc, starts: (0..<10).map(day)).keys.map { Int($0.timeIntervalSince(day0) / 86_400) })
    }

    @Test func keptDaysAreReadBackForTheirZoneOnly() async throws {
        let (_, kept, folder) = try await Self.storeWithKeptDays()
        defer { try? FileManager.default.removeItem(at: folder) }
        let days = try kept.days(of: steps.identifier, zone: Self.utc, starts: [Self.day(3), Self.day(4)])
        #expect(days[Self.day(3)]?.total == 4 && days[Self.day(4)]?.total == 5)
        #expect(try kept.days(of: steps.identifier, zone: TimeZone(identifier: "Europe/Paris")!, starts: [Self.day(3)]).isEmpty)
        #expect(try kept.days(of: heartRate.identifier, zone: Self.utc, starts: [Self.day(3)]).isEmpty)
    }

    @Test func aSaveDropsOnlyTheDaysItCanTouch() async throws {
        let (store, kept, folder) = try await Self.storeWithKeptDays()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await store.save(Self.walk(100, on: 5))
        // A day's start within two days before the sample and a day (and a reading's hold) after it.
        #expect(try Self.keptDays(kept) == [0, 1, 2, 3, 7, 8, 9])
    }

    @Test func aDeletionDropsTheDaysOfTheDeletedSample() async throws {
        let (store, _, folder) = makeStore(.allowAll)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await store.requestAuthorization(toShare: [steps], read: [steps])
        let sample = Self.walk(100, on: 2)
        try await store.save(sample)
        let kept = DailyStatistics(database: try HealthDatabase(directory: folder))
        let computation = try kept.begin(steps.identifier, zone: Self.utc)
        try kept.keep((0..<10).map { DailyStatistics.Day(start: Self.day($0), total: 1) }, of: computation)
        try await store.delete(sample)
        #expect(try Self.keptDays(kept) == [0, 4, 5, 6, 7, 8, 9])
    }

    @Test func anotherTypesWriteDropsNothing() async throws {
        let (store, kept, folder) = try await Self.storeWithKeptDays()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await store.requestAuthorization(toShare: [heartRate], read: [])
        let start = Self.day(5)
        try await store.save(HKQuantitySample(type: heartRate, quantity: HKQuantity(unit: .count().unitDivided(by: .minute()), doubleValue: 70),
                                              start: start, end: start))
        #expect(try Self.keptDays(kept) == Set(0..<10))
    }

    @Test func changingTheSourceOrderDropsTheType() async throws {
        let (store, kept, folder) = try await Self.storeWithKeptDays()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Far from the kept days, so only the order's change can drop them.
        try await store.save(Self.walk(1, on: 400))
        #expect(try Self.keptDays(kept) == Set(0..<10))
        try HealthPerson(storeDirectory: folder).setSourcePriority(["com.example.steps"], for: steps)
        #expect(try Self.keptDays(kept).isEmpty)
    }

    /// The SQLite steps one sample's insert takes (its triggers' included) in a store whose steps are kept for `days`
    /// days.
    static func insertSteps(withDaysKept days: Int) async throws -> Int32 {
        let (store, _, folder) = makeStore(.allowAll)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await store.requestAuthorization(toShare: [steps], read: [steps])
        try await store.save(walk(1, on: 5000))
        let database = try HealthDatabase(directory: folder)
        let kept = DailyStatistics(database: database)
        #expect(try kept.keep((0..<days).map { DailyStatistics.Day(start: day($0), total: 1) }, of: try kept.begin(steps.identifier, zone: utc)))
        return try database.write { db in
            let insert = try db.makeStatement(sql: """
                INSERT INTO sample (uuid, typeCode, kind, startDate, endDate, value, originalValue, unit, sourceId, savedAt)
                SELECT 'copy', typeCode, kind, startDate, endDate, value, originalValue, unit, sourceId, savedAt FROM sample LIMIT 1
                """)
            try insert.execute()
            return sqlite3_stmt_status(insert.sqliteStatement, SQLITE_STMTSTATUS_VM_STEP, 0)
        }
    }

    /// A write drops its days by index ranges: its cost does not grow with the days kept (v32's triggers scanned every
    /// kept day of the type for each sample written, an insert 8 times slower once a year was kept).
    @Test func aWritesCostDoesNotGrowWithTheDaysKept() async throws {
        let few = try await Self.insertSteps(withDaysKept: 10)
        let many = try await Self.insertSteps(withDaysKept: 3650)
        #expect(many - few < 20, "\(few) steps with 10 days kept, \(many) with 3,650")
    }

    @Test func aComputationOvertakenByAWriteKeepsNothing() async throws {
        let (store, _, folder) = makeStore(.allowAll)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await store.requestAuthorization(toShare: [steps], read: [steps])
        let kept = DailyStatistics(database: try HealthDatabase(directory: folder))
        let computation = try kept.begin(steps.identifier, zone: Self.utc)
        // A write of the type between the engine's read and the keeping, even on a day far away.
        try await store.save(Self.walk(5, on: 300))
        #expect(try !kept.keep([DailyStatistics.Day(start: Self.day(0), total: 1)], of: computation))
        #expect(try Self.keptDays(kept).isEmpty)
        // Begun after the write, the next one keeps its days.
        let again = try kept.begin(steps.identifier, zone: Self.utc)
        #expect(try kept.keep([DailyStatistics.Day(start: Self.day(0), total: 1)], of: again))
        #expect(try Self.keptDays(kept) == [0])
    }
}
