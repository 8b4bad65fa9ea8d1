import Foundation
import GRDB
import Testing
@testable import HealthStore
@testable import OpenHealthKit

@Suite("Sample types stored as codes")
struct SampleTypeCodeTests {
    @Test func everyCatalogSampleTypeHasItsOwnCodeThatReadsBack() throws {
        let identifiers = SampleTypeCode.catalogIdentifiers
        #expect(identifiers.count > 150)
        #expect(Set(identifiers.map(SampleTypeCode.hash)).count == identifiers.count, "two sample types share a code")
        for identifier in identifiers { #expect(SampleTypeCode.identifier(SampleTypeCode.code(identifier)) == identifier) }
        // Codes are stored: the hash must never change (FNV-1a's published vector, and a stored code).
        #expect(SampleTypeCode.hash("a") == 0xE40C_292C)
        #expect(SampleTypeCode.code(HKQuantityTypeIdentifier.stepCount.rawValue) == 0x846B_E9A7)
        #expect(SampleTypeCode.identifier(12345) == nil)
    }

    @Test func aStoreThatNamedTypesInFullKeepsItsRowsIdsAndCounterWhenUpgraded() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("v15-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pool = try DatabasePool(path: folder.appendingPathComponent("health.sqlite").path)
        try HealthDatabase.migrator.migrate(pool, upTo: "v15: preferred units")
        let steps = UUID(), heartRate = UUID()
        try await pool.write { db in
            try db.execute(sql: "INSERT INTO source (bundleIdentifier, name) VALUES ('com.example.steps', 'Steps')")
            try db.execute(sql: """
                INSERT INTO sample (id, uuid, type, kind, startDate, endDate, value, originalValue, unit, sourceId, savedAt) VALUES
                    (3, '\(steps.uuidString)', 'HKQuantityTypeIdentifierStepCount', 0, 100, 200, 10, 10, 'count', 1, 300),
                    (5, '\(heartRate.uuidString)', 'HKQuantityTypeIdentifierHeartRate', 0, 100, 100, 1.2, 72, 'count/min', 1, 300),
                    (9, '\(UUID().uuidString)', 'HKQuantityTypeIdentifierStepCount', 0, 400, 500, 5, 5, 'count', 1, 600)
                """)
            // The newest row is deleted: its id must never be given again (anchors count on it).
            try db.execute(sql: "DELETE FROM sample WHERE id = 9")
        }
        try pool.close()

        let (store, _, _) = makeStore(.allowAll, in: folder)
        let stepType = HKQuantityType(.stepCount), heartRateType = HKQuantityType(.heartRate)
        try await store.requestAuthorization(toShare: [stepType], read: [stepType, heartRateType])
        let app = AppManifest.stepsApp.bundleIdentifier
        #expect(try store.sampleStore().samples(ofType: stepType, visibleTo: app).map(\.uuid) == [steps])
        let pulse = try #require(try store.sampleStore().samples(ofType: heartRateType, visibleTo: app).first as? HKQuantitySample)
        #expect(pulse.uuid == heartRate)
        #expect(pulse.quantity.doubleValue(for: .count().unitDivided(by: .minute())) == 72)
        try await store.save(HKQuantitySample(type: stepType, quantity: HKQuantity(unit: .count(), doubleValue: 7),
                                              start: Date(timeIntervalSinceReferenceDate: 700), end: Date(timeIntervalSinceReferenceDate: 800)))

        let database = try DatabaseQueue(path: folder.appendingPathComponent("health.sqlite").path)
        try await database.read { db in
            #expect(try Int64.fetchAll(db, sql: "SELECT id FROM sample ORDER BY id").prefix(2) == [3, 5])
            #expect(try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM sample")! > 9)
            #expect(try db.columns(in: "sample").map(\.name).contains("type") == false)
            #expect(try String.fetchAll(db, sql: """
                SELECT identifier FROM sample JOIN sampleType ON code = typeCode ORDER BY sample.id
                """) == ["HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierHeartRate", "HKQuantityTypeIdentifierStepCount"])
            let indexed = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'sample' AND sql LIKE '%typeCode%'")
            #expect(Set(indexed) == ["sample_type_start", "sample_type_end", "sample_source"])
            #expect(try String.fetchOne(db, sql: "PRAGMA foreign_key_check") == nil)
        }
    }
}
