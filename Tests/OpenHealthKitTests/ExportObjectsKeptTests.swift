import Foundation
import GRDB
import Testing
@testable import HealthExport
@testable import HealthStore
@testable import OpenHealthKit
import TestSupport

private func freshPerson() throws -> (HealthPerson, URL) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-kept-\(UUID().uuidString)")
    return (try HealthPerson(storeDirectory: folder), folder)
}

@Suite("Every object of an export kept")
struct ExportObjectsKeptTests {
    @Test func workoutsThatDifferOnlyInCreationDateAreTwoObjectsAndExactCopiesAreSaidSo() async throws {
        let (person, folder) = try freshPerson()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = madeFixtures.appendingPathComponent("workout-copies.xml")
        let first = try person.importExport(at: file)
        #expect(first.added == [HKWorkoutTypeIdentifier: 2, HKQuantityTypeIdentifier.stepCount.rawValue: 1])
        #expect(first.exactCopies == 2 && first.alreadyStored == 0)
        let workouts = try await run(person.healthStore, type: .workoutType()).compactMap { $0 as? HKWorkout }
        #expect(workouts.count == 2 && Set(workouts.map(\.uuid)).count == 2 && Set(workouts.map(\.startDate)).count == 1)
        // Again: nothing new; what was stored is said to be, the file's own copies are said to be copies.
        let again = try person.importExport(at: file)
        #expect(again.addedTotal == 0 && again.alreadyStored == 3 && again.exactCopies == 2, "\(again.alreadyStored), \(again.exactCopies)")
    }

    @Test func aMindfulSessionWithoutValueIsNotApplicableAndSleepWithoutOneIsAProblem() async throws {
        let (person, folder) = try freshPerson()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try person.importExport(at: madeFixtures.appendingPathComponent("valueless-category.xml"))
        #expect(result.added == [HKCategoryTypeIdentifier.mindfulSession.rawValue: 1])
        #expect(result.problems.map(\.reason) == ["\"\" is not a value of HKCategoryTypeIdentifierSleepAnalysis"])
        let session = try #require(try await run(person.healthStore, type: HKCategoryType(.mindfulSession)).first as? HKCategorySample)
        #expect(session.value == HKCategoryValue.notApplicable.rawValue && session.endDate.timeIntervalSince(session.startDate) == 300)
    }

    @Test func meKeepsEveryAttributeAndWritesItBack() throws {
        let (person, folder) = try freshPerson()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try person.importExport(at: madeFixtures.appendingPathComponent("me-full.xml"))
        #expect(result.characteristics == 4)  // date of birth, sex, blood type, cardio-fitness medications (skin type not set)
        let export = try person.exportHealthData(to: folder.appendingPathComponent("out"))
        let text = try String(contentsOf: export.url.appendingPathComponent("export.xml"), encoding: .utf8)
        let me = try #require(text.split(separator: "\n").first { $0.hasPrefix(" <Me ") })
        #expect(me.contains(#"HKCharacteristicTypeIdentifierDateOfBirth="1980-05-04""#))
        #expect(me.contains(#"HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale""#))
        #expect(me.contains(#"HKCharacteristicTypeIdentifierBloodType="HKBloodTypeONegative""#))
        #expect(me.contains(#"HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet""#))
        #expect(me.contains(#"HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse="None""#))
    }

    @Test func aKeptElementExportedAtAnotherOffsetIsKeptOnce() throws {
        let (person, folder) = try freshPerson()
        defer { try? FileManager.default.removeItem(at: folder) }
        let winter = try person.importExport(at: madeFixtures.appendingPathComponent("kept-element-winter.xml"))
        let summer = try person.importExport(at: madeFixtures.appendingPathComponent("kept-element-summer.xml"))
        #expect(winter.kept == ["Record": 1] && summer.kept == ["Record": 1] && summer.alreadyStored == 1)
        let count = try DatabaseQueue(path: folder.appendingPathComponent("health.sqlite").path)
            .read { try Int.fetchOne($0, sql: "SELECT count(*) FROM exportElement") }
        #expect(count == 1)
    }

    @Test func elementIdentitiesReadDatesAsInstantsAndDropDevicePointers() {
        let a = #"<Record creationDate="2026-01-15 10:01:00 -0800" device="&lt;&lt;HKDevice: 0x283a1c0a0&gt;, name:W&gt;"/>"#
        let b = #"<Record creationDate="2026-01-15 20:01:00 +0200" device="&lt;&lt;HKDevice: 0x600001e5c&gt;, name:W&gt;"/>"#
        let c = #"<Record creationDate="2026-01-15 20:01:01 +0200" device="&lt;&lt;HKDevice: 0x600001e5c&gt;, name:W&gt;"/>"#
        #expect(ExportElement.identity(of: a) == ExportElement.identity(of: b))
        #expect(ExportElement.identity(of: b) != ExportElement.identity(of: c))
        #expect(ExportElement.instant(of: "20151107171924+0100") == 1_446_913_164)
        #expect(ExportElement.instant(of: "2015-11-07 17:19:24 +0100") == 1_446_913_164)
    }

    @Test func aStoreImportedBeforeCreationDatesCountedAddsNothingWhenImportingAgain() throws {
        let (person, folder) = try freshPerson()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = exportFixtures.appendingPathComponent("dogsheep_healthkit-to-sqlite/zip_contents/apple_health_export/export.xml")
        #expect(try person.importExport(at: file).addedTotal == 4)
        // Made as an earlier version made it: every object under the UUID of its content alone, the store flagged.
        var formerUUIDs: [UUID: UUID] = [:]
        _ = try ExportImportReader(legacyIdentities: true).read(try ExportLocation(file), into: ExportImportReader.Sink(batch: { batch in
            for row in batch.rows { formerUUIDs[row.uuid] = row.legacyUUID }
            formerUUIDs.merge(batch.legacy) { $1 }
        }, me: { _, _ in }, activitySummaries: { _ in }))
        #expect(formerUUIDs.count == 4 && formerUUIDs.allSatisfy { $0.key != $0.value })
        try DatabaseQueue(path: folder.appendingPathComponent("health.sqlite").path).write { db in
            for (now, former) in formerUUIDs {
                try db.execute(sql: "UPDATE sample SET uuid = ? WHERE uuid = ?", arguments: [former.uuidString, now.uuidString])
            }
            try db.execute(sql: "INSERT OR REPLACE INTO storeFlag (name, value) VALUES ('legacyExportIdentities', 1)")
        }
        let again = try person.importExport(at: file)
        #expect(again.addedTotal == 0 && again.alreadyStored == 4, "\(again.added), \(again.alreadyStored)")
    }

    @Test func newRecordsBesideStoredOnesInOneStatementKeepTheirMetadata() async throws {
        let (person, folder) = try freshPerson()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Heart-rate records of one shape, each with two metadata entries: 8, then the same 8 and 8 new ones, so the
        // second import writes a group of 16 rows of which 8 are already stored.
        func export(_ minutes: Range<Int>) throws -> URL {
            let records = minutes.map { minute in
                let time = String(format: "2026-10-30 09:%02d:00 -0700", minute)
                return #" <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" "#
                    + #"creationDate="\#(time)" startDate="\#(time)" endDate="\#(time)" value="\#(60 + minute)">"#
                    + #"<MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="1"/><MetadataEntry key="Minute" value="\#(minute)"/></Record>"#
            }
            let file = folder.appendingPathComponent("export-\(minutes.count).xml")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(("<HealthData locale=\"en_US\">\n" + records.joined(separator: "\n") + "\n</HealthData>\n").utf8).write(to: file)
            return file
        }
        #expect(try person.importExport(at: export(0..<8)).addedTotal == 8)
        let second = try person.importExport(at: export(0..<16))
        #expect(second.addedTotal == 8 && second.alreadyStored == 8)
        let samples = try await run(person.healthStore, type: HKQuantityType(.heartRate))
        #expect(samples.count == 16)
        #expect(samples.allSatisfy { $0.metadata?["Minute"] != nil && $0.metadata?[HKMetadataKeyHeartRateMotionContext] != nil },
                "\(samples.filter { $0.metadata?["Minute"] == nil }.count) samples lost their metadata")
    }
}
