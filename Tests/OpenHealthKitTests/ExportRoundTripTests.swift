import Foundation
import GRDB
import Testing
@testable import HealthExport
import HealthStore
@testable import OpenHealthKit

/// Every export fixture the importer takes: export.xml files (and fragments), zips, and the FHIR sample export folder
/// with its clinical-records/.
private let roundTripFixtures: [URL] = {
    let files = (FileManager.default.enumerator(at: exportFixtures, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? [])
        .filter { ["xml", "zip"].contains($0.pathExtension.lowercased()) }
        .sorted { $0.path < $1.path }
    return files + [fhirFixtures.appendingPathComponent("apple-health-export-sample/apple_health_export")]
}()

private func temporary(_ name: String) -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("ohk-roundtrip-\(UUID().uuidString)").appendingPathComponent(name)
}

/// A store's content as sorted lines of text, read with SQL straight from its file: every quantity, category,
/// correlation and workout sample (type, UUID, source, device, instants, value in the canonical unit, correlation), its
/// metadata, workouts with their events, statistics and activities, activity summaries, characteristics and clinical
/// records. Numbers are rounded to what an export carries (instants to the millisecond, values to 9 significant
/// digits); store-local ids, save times and the clinical records' random UUIDs are left out. Workout routes with their
/// points, heart-rate variability beat lists, audiograms, vision prescriptions, elements kept as written (unknown record types) and kept
/// files (electrocardiograms) are compared too.
private func contentDump(of folder: URL) throws -> [String] {
    var configuration = Configuration()
    configuration.readonly = true
    configuration.busyMode = .timeout(10)
    let database = try DatabaseQueue(path: folder.appendingPathComponent("health.sqlite").path, configuration: configuration)
    func number(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .double(let double): String(format: "%.9g", double)
        case .int64(let integer): String(integer)
        case .null: "∅"
        case .string(let text): text
        case .blob(let data): "\(data.count) bytes \(data.hashValue)"
        }
    }
    func line(_ row: Row, rounding: Set<String> = []) -> String {
        row.columnNames.map { name -> String in
            let value = row[name] as DatabaseValue
            if rounding.contains(name), case .double(let double) = value.storage { return "\(name)=\(String(format: "%.3f", double))" }
            return "\(name)=\(number(value))"
        }.joined(separator: " | ")
    }
    return try database.read { db in
        var lines: [String] = []
        func add(_ prefix: String, _ sql: String, rounding: Set<String> = []) throws {
            lines += try Row.fetchAll(db, sql: sql).map { prefix + " " + line($0, rounding: rounding) }
        }
        try add("sample", """
            SELECT t.identifier AS type, s.uuid, s.kind, s.startDate, s.endDate, s.value, s.count, src.name AS source, src.bundleIdentifier,
                   s.sourceVersion, s.productType, d.name AS deviceName, d.manufacturer, d.model, d.hardwareVersion, d.softwareVersion,
                   c.uuid AS correlation
            FROM sample s JOIN sampleType t ON t.code = s.typeCode JOIN source src ON src.id = s.sourceId LEFT JOIN device d ON d.id = s.deviceId
            LEFT JOIN sample c ON c.id = s.correlationId WHERE s.kind IN (0, 1, 2, 3, 6, 7, 9, 10, 11, 12)
            """, rounding: ["startDate", "endDate"])
        try add("beat", "SELECT s.uuid, b.position, b.offset, b.precededByGap FROM heartbeat b JOIN sample s ON s.id = b.sampleId")
        try add("route", """
            SELECT w.uuid AS workout, s.uuid, s.count, l.position, l.timestamp, l.latitude, l.longitude, l.altitude,
                   l.horizontalAccuracy, l.verticalAccuracy, l.course, l.speed
            FROM routeLocation l JOIN sample s ON s.id = l.sampleId JOIN workoutAssociation a ON a.sampleId = s.id
            JOIN sample w ON w.id = a.workoutId
            """, rounding: ["timestamp"])
        try add("extra", "SELECT s.uuid, x.xml FROM sampleExtra x JOIN sample s ON s.id = x.sampleId")
        try add("audiogram", "SELECT s.uuid, a.points FROM audiogram a JOIN sample s ON s.id = a.sampleId")
        try add("stateOfMind", "SELECT s.uuid, m.kind, m.labels, m.associations FROM stateOfMind m JOIN sample s ON s.id = m.sampleId")
        try add("assessment", "SELECT s.uuid, a.answers FROM scoredAssessment a JOIN sample s ON s.id = a.sampleId")
        try add("prescription", """
            SELECT s.uuid, p.prescriptionType, p.brand, p.rightEye, p.leftEye FROM visionPrescription p JOIN sample s ON s.id = p.sampleId
            """)
        try add("kept", "SELECT name, xml FROM exportElement")
        try add("file", "SELECT path, data FROM exportFile")
        try add("metadata", """
            SELECT s.uuid, m.key, m.kind, m.text, m.number, m.integer FROM metadata m JOIN sample s ON s.id = m.sampleId
            WHERE s.kind IN (0, 1, 2, 3, 6, 7, 9, 10, 11, 12)
            """)
        try add("workout", "SELECT s.uuid, w.activityType, w.duration FROM workout w JOIN sample s ON s.id = w.sampleId", rounding: ["duration"])
        try add("activity", """
            SELECT s.uuid AS workout, a.uuid, a.position, a.activityType, a.locationType, a.swimmingLocationType, a.lapLength,
                   a.lapLengthUnit, a.startDate, a.endDate
            FROM workoutActivity a JOIN sample s ON s.id = a.workoutId
            """, rounding: ["startDate", "endDate"])
        try add("event", """
            SELECT s.uuid AS workout, a.uuid AS activity, e.position, e.type, e.startDate, e.endDate,
                   (SELECT group_concat(entry, ';') FROM (
                        SELECT key || '=' || IFNULL(text, '') || IFNULL(number, '') || IFNULL(integer, '') AS entry
                        FROM workoutPartMetadata WHERE eventId = e.id ORDER BY key)) AS metadata
            FROM workoutEvent e JOIN sample s ON s.id = e.workoutId LEFT JOIN workoutActivity a ON a.id = e.activityId
            """, rounding: ["startDate", "endDate"])
        try add("statistic", """
            SELECT s.uuid AS workout, a.uuid AS activity, t.quantityType, t.unit, t.sum, t.minimum, t.maximum, t.average
            FROM workoutStatistic t JOIN sample s ON s.id = t.workoutId LEFT JOIN workoutActivity a ON a.id = t.activityId
            """)
        try add("activityMetadata", """
            SELECT a.uuid, m.key, m.kind, m.text, m.number, m.integer FROM workoutPartMetadata m JOIN workoutActivity a ON a.id = m.activityId
            """)
        try add("summary", "SELECT * FROM activitySummary", rounding: [])
        lines = lines.map { $0.replacingOccurrences(of: #"\| revision=\d+"#, with: "", options: .regularExpression) }
        try add("characteristic", "SELECT * FROM characteristic")
        try add("clinical", """
            SELECT src.name AS source, t.identifier AS type, s.startDate, r.resourceType, r.identifier, r.fhirVersion, r.sourceURL, r.displayName, r.data
            FROM clinicalRecord r JOIN sample s ON s.id = r.sampleId JOIN sampleType t ON t.code = s.typeCode JOIN source src ON src.id = r.sourceId
            """)
        try add("patient", """
            SELECT src.name AS source, p.identifier, p.fhirVersion, p.sourceURL, p.name, p.receivedDate, p.data
            FROM fhirPatient p JOIN source src ON src.id = p.sourceId
            """)
        try add("provider", "SELECT src.name, p.url FROM clinicalProvider p JOIN source src ON src.id = p.sourceId")
        return lines.sorted()
    }
}

/// Imports `fixture` into a fresh store, exports that store to `output`, imports the export into another fresh store.
private func roundTrip(_ fixture: URL, output name: String = "apple_health_export") throws
    -> (first: URL, second: URL, export: HealthDataExport, imported: ExportImport) {
    let first = temporary("store"), second = temporary("store")
    _ = try HealthPerson(storeDirectory: first).importExport(at: fixture)
    let export = try HealthPerson(storeDirectory: first).exportHealthData(to: temporary(name), timeZone: TimeZone(identifier: "America/New_York")!)
    let imported = try HealthPerson(storeDirectory: second).importExport(at: export.url)
    return (first, second, export, imported)
}

@Suite("Apple Health export: writing and the round trip")
struct ExportRoundTripTests {
    @Test(arguments: roundTripFixtures)
    func anImportedExportWrittenBackOutImportsToTheSameStore(_ fixture: URL) throws {
        let (first, second, export, imported) = try roundTrip(fixture)
        let before = try contentDump(of: first), after = try contentDump(of: second)
        #expect(!before.isEmpty)
        // Records of types the catalog does not know are reported again (they are kept as written each time).
        let problems = imported.problems.filter { !$0.reason.hasSuffix("(kept as written)") }
        #expect(problems.isEmpty, "\(problems.prefix(3))")
        let missing = Set(before).subtracting(after), extra = Set(after).subtracting(before)
        #expect(before.count == after.count && missing.isEmpty && extra.isEmpty,
                "lost: \(missing.sorted().prefix(3))\nadded: \(extra.sorted().prefix(3))")
        #expect(imported.addedTotal == before.filter { $0.hasPrefix("sample ") }.count && export.writtenTotal <= imported.addedTotal)
    }

    @Test func theExportOpensWithApplesDTDAndScansWithoutProblems() throws {
        let (_, _, export, _) = try roundTrip(exportFixtures.appendingPathComponent("y-yu_ahcd-go/export.xml"))
        let xml = export.url.appendingPathComponent("export.xml")
        let text = try String(contentsOf: xml, encoding: .utf8)
        let dtd = try String(contentsOf: Fixtures.reference.appendingPathComponent("apple-health-export/export-dtd-v14-ios18.1plus.xml"),
                             encoding: .utf8)
        #expect(text.hasPrefix(dtd.hasSuffix("\n") ? dtd : dtd + "\n"))
        #expect(text.contains("<HealthData locale=\"en_US\">\n <ExportDate value=\""))
        #expect(text.hasSuffix("</HealthData>\n"))
        var problems: [String] = [], names: [String] = []
        try XMLStartTagScanner(url: xml).scan { names.append($0.name) } problem: { problems.append("\($0): \($1)") }
        #expect(problems.isEmpty)
        #expect(names.prefix(3) == ["HealthData", "ExportDate", "Me"] && names.contains("Correlation"))
    }

    @Test func recordsKeepApplesAttributeOrderUnitsAndSymbolicCategoryValues() throws {
        let (_, _, export, _) = try roundTrip(exportFixtures.appendingPathComponent("tagbug_apple-health-analyzer/export.xml"))
        let text = try String(contentsOf: export.url.appendingPathComponent("export.xml"), encoding: .utf8)
        let sleep = try #require(text.split(separator: "\n").first { $0.contains("HKCategoryTypeIdentifierSleepAnalysis") })
        #expect(sleep.contains(#"value="HKCategoryValueSleepAnalysis"#))
        let record = try #require(text.split(separator: "\n").first { $0.contains("<Record type=\"HKQuantityTypeIdentifierHeartRate\"") })
        let order = ["type=", "sourceName=", "unit=", "creationDate=", "startDate=", "endDate=", "value="].map { record.range(of: " " + $0)?.lowerBound }
        #expect(order.allSatisfy { $0 != nil } && order.map { $0! } == order.map { $0! }.sorted())
        #expect(record.contains(#"unit="count/min""#))
    }

    @Test func anExportZipHoldsTheFolderAndImportsLikeIt() throws {
        let fixture = fhirFixtures.appendingPathComponent("apple-health-export-sample/apple_health_export")
        let (first, second, export, imported) = try roundTrip(fixture, output: "export.zip")
        #expect(export.url.pathExtension == "zip" && export.clinicalRecords > 0)
        #expect(imported.clinicalRecords.map { $0.added + $0.patients } == export.clinicalRecords && imported.clinicalRecords?.rejected == [])
        let before = try contentDump(of: first), after = try contentDump(of: second)
        #expect(before.count == after.count && Set(before) == Set(after))
    }

    @Test func attributeValuesAreEscapedAndDatesFollowTheSamplesTimeZone() throws {
        let folder = temporary("apple_health_export")
        let writer = try ExportWriter(folder: folder, timeZone: TimeZone(identifier: "Europe/Paris")!,
                                      exportDate: Date(timeIntervalSince1970: 1_700_000_000))
        let instant = Date(timeIntervalSince1970: 1_719_835_200)  // 2024-07-01 12:00:00 UTC
        let glucose = ExportSample(
            uuid: UUID(), type: "HKQuantityTypeIdentifierBloodGlucose", value: .quantity(5.5, unit: "mmol<180.15588000005408>/L"),
            startDate: instant, endDate: instant, creationDate: instant, source: HKSource(name: "Tom & \"Jerry\" <app>", bundleIdentifier: "x"),
            sourceVersion: "1\t2\u{0B}3", metadata: [("HKTimeZone", .string("America/Los_Angeles")), ("note", .string("a\nb"))])
        try writer.write(samples: [glucose])
        _ = try writer.finish()
        let xml = folder.appendingPathComponent("export.xml")
        let text = try String(contentsOf: xml, encoding: .utf8)
        #expect(text.contains(#"<ExportDate value="2023-11-14 23:13:20 +0100"/>"#))
        #expect(text.contains(#"sourceName="Tom &amp; &quot;Jerry&quot; &lt;app&gt;" sourceVersion="1&#9;2�3""#))
        #expect(text.contains(#"unit="mmol&lt;180.15588000005408&gt;/L""#))
        #expect(text.contains(#"startDate="2024-07-01 05:00:00 -0700""#))
        var attributes: [[String: String]] = [], problems: [String] = []
        try XMLStartTagScanner(url: xml).scan(names: ["Record", "MetadataEntry"]) { attributes.append($0.attributes) } problem: { problems.append($1) }
        #expect(problems.isEmpty)
        #expect(attributes.first?["sourceName"] == "Tom & \"Jerry\" <app>" && attributes.first?["unit"] == "mmol<180.15588000005408>/L")
        #expect(attributes.last?["value"] == "a\nb")
    }

    @Test func exportDatesAreWrittenLikeAFormatterAcrossZonesAndDaylightSaving() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        for zone in ["Europe/Paris", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "UTC"] {
            let timeZone = TimeZone(identifier: zone)!
            formatter.timeZone = timeZone
            var writer = ExportDateWriter(defaultZone: timeZone)
            for seconds in stride(from: 946_684_800.0, to: 1_800_000_000, by: 3_456_789.25) + [1_711_846_799, 1_711_846_800, -86_400.5] {
                let date = Date(timeIntervalSince1970: seconds)
                #expect(writer.text(date) == formatter.string(from: date), "\(zone) \(seconds)")
            }
        }
    }

    @Test func exportingOverAnExistingFileIsRefused() throws {
        let person = try HealthPerson(storeDirectory: temporary("store"))
        let zip = temporary("export.zip")
        try FileManager.default.createDirectory(at: zip.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: zip)
        #expect(throws: HKError.self) { try person.exportHealthData(to: zip) }
        #expect(try Data(contentsOf: zip) == Data("keep me".utf8))
    }
}
