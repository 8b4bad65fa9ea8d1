import Foundation
import GRDB
import Synchronization
import Testing
@testable import HealthExport
import HealthStore
@testable import OpenHealthKit
import TestSupport

private func freshPerson() throws -> (HealthPerson, URL) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-export-\(UUID().uuidString)")
    return (try HealthPerson(storeDirectory: folder), folder)
}

/// A reader app allowed to read everything in the person's store.
private func reader(_ folder: URL, types: Set<HKObjectType>) async throws -> HKHealthStore {
    let (store, _, _) = makeStore(.allowAll, in: folder)
    try await store.requestAuthorization(toShare: [], read: types)
    return store
}

/// A tiny export in the current format, with `offset` on every date and body mass in `massUnit`.
private func syntheticExport(offset: String = "-0700", mass: String = "70", massUnit: String = "kg") -> Data {
    Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary)*)>
        <!ATTLIST Record type CDATA #REQUIRED>
        ]>
        <HealthData locale="en_US">
         <ExportDate value="2024-06-09 10:00:00 \(offset)"/>
         <Me HKCharacteristicTypeIdentifierDateOfBirth="1980-05-04" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeONegative" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet"/>
         <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Health" sourceVersion="17.5.1" unit="mmHg" creationDate="\(time(13, 14, 18, offset))" startDate="\(time(13, 14, 0, offset))" endDate="\(time(13, 14, 0, offset))" value="97">
          <MetadataEntry key="HKWasUserEntered" value="1"/>
         </Record>
         <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Health" sourceVersion="17.5.1" creationDate="\(time(13, 14, 18, offset))" startDate="\(time(13, 14, 0, offset))" endDate="\(time(13, 14, 0, offset))">
          <MetadataEntry key="HKWasUserEntered" value="1"/>
          <Record type="HKQuantityTypeIdentifierBloodPressureDiastolic" sourceName="Health" sourceVersion="17.5.1" unit="mmHg" creationDate="\(time(13, 14, 18, offset))" startDate="\(time(13, 14, 0, offset))" endDate="\(time(13, 14, 0, offset))" value="68">
           <MetadataEntry key="HKWasUserEntered" value="1"/>
          </Record>
          <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Health" sourceVersion="17.5.1" unit="mmHg" creationDate="\(time(13, 14, 18, offset))" startDate="\(time(13, 14, 0, offset))" endDate="\(time(13, 14, 0, offset))" value="97">
           <MetadataEntry key="HKWasUserEntered" value="1"/>
          </Record>
         </Correlation>
         <Record type="HKQuantityTypeIdentifierBloodPressureDiastolic" sourceName="Health" sourceVersion="17.5.1" unit="mmHg" creationDate="\(time(13, 14, 18, offset))" startDate="\(time(13, 14, 0, offset))" endDate="\(time(13, 14, 0, offset))" value="68">
          <MetadataEntry key="HKWasUserEntered" value="1"/>
         </Record>
         <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Health" unit="\(massUnit)" creationDate="\(time(8, 0, 0, offset))" startDate="\(time(8, 0, 0, offset))" endDate="\(time(8, 0, 0, offset))" value="\(mass)"/>
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Alex’s Apple Watch" sourceVersion="10.5" device="&lt;&lt;HKDevice: 0x283a1&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,1, software:10.5&gt;" creationDate="\(time(7, 1, 0, offset))" startDate="\(time(1, 0, 0, offset))" endDate="\(time(2, 30, 0, offset))" value="HKCategoryValueSleepAnalysisAsleepCore"/>
         <Record type="HKQuantityTypeIdentifierFlightsClimbed" sourceName="Phone" unit="count" startDate="\(time(9, 0, 0, offset))" endDate="\(time(8, 0, 0, offset))" value="3"/>
         <Record type="HKQuantityTypeIdentifierNoSuchThing" sourceName="Phone" unit="count" startDate="\(time(9, 0, 0, offset))" endDate="\(time(9, 0, 0, offset))" value="3"/>
        </HealthData>
        """.utf8)
}

/// `2024-06-08 hh:mm:ss <offset>` for the instant that is hh:mm:ss at UTC−7.
private func time(_ hour: Int, _ minute: Int, _ second: Int, _ offset: String) -> String {
    var utc = Calendar(identifier: .gregorian)
    utc.timeZone = TimeZone(identifier: "UTC")!
    let instant = utc.date(from: DateComponents(year: 2024, month: 6, day: 8, hour: hour + 7, minute: minute, second: second))!
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
    formatter.timeZone = TimeZone(secondsFromGMT: (offset.hasPrefix("-") ? -1 : 1) * (Int(offset.dropFirst().prefix(2))! * 3600 + Int(offset.suffix(2))! * 60))
    return formatter.string(from: instant)
}

private func write(_ data: Data) throws -> URL {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString).xml")
    try data.write(to: file)
    return file
}

@Suite("Apple Health export import")
struct ExportImportTests {
    @Test func aRealExcerptImportsWithItsSourcesDevicesMetadataSummariesAndCharacteristics() async throws {
        let (person, folder) = try freshPerson()
        let result = try person.importExport(at: exportFixtures.appendingPathComponent("dogsheep_healthkit-to-sqlite/export.xml"))
        #expect(result.added == [HKQuantityTypeIdentifier.bodyMassIndex.rawValue: 1, HKQuantityTypeIdentifier.heartRate.rawValue: 1, HKWorkoutTypeIdentifier: 1,
                                 HKWorkoutRouteTypeIdentifier: 1])
        #expect(result.activitySummaries == 2 && result.characteristics == 2)  // male and the birth date; blood and skin type not set
        let store = try await reader(folder, types: [HKQuantityType(.heartRate), HKQuantityType(.bodyMassIndex),
                                                      HKCharacteristicType(.biologicalSex), HKObjectType.activitySummaryType()])
        let heart = try #require(try await run(store, type: HKQuantityType(.heartRate)).first as? HKQuantitySample)
        // The export writes "Apple\u{00A0}Watch" (a no-break space), and so does the store.
        #expect(heart.sourceRevision.source.name == "Apple\u{00A0}Watch" && heart.sourceRevision.source.bundleIdentifier.hasPrefix("com.apple.health."))
        #expect(heart.sourceRevision.productType == "Watch2,4" && heart.sourceRevision.version == "4.3.1")
        #expect(heart.device?.hardwareVersion == "Watch2,4" && heart.device?.manufacturer == "Apple" && heart.device?.softwareVersion == "4.3.1")
        #expect(heart.metadata?[HKMetadataKeyHeartRateMotionContext] as? Int == 0)
        let bmi = try #require(try await run(store, type: HKQuantityType(.bodyMassIndex)).first as? HKQuantitySample)
        #expect(bmi.quantity.doubleValue(for: .count()) == 22.5312 && bmi.sourceRevision.source.bundleIdentifier == "export.Health Mate")
        #expect(bmi.metadata?["Withings Link"] as? String == "withings-bd2://timeline/measure?userid=12345&date=482685932&type=1")
        #expect(bmi.startDate == Date(timeIntervalSince1970: 1_460_993_132))  // 2016-04-18 08:25:32 -0700
        #expect(try store.biologicalSex().biologicalSex == .male)
        #expect(try person.activitySummaries().map { $0.appleExerciseTime.doubleValue(for: .minute()) } == [68, 39])
        #expect(result.problemCounts.isEmpty)
        // The 2016 running workout: totals as attributes (miles, kcal), weather metadata as quantities.
        let workouts = try await run(try await reader(folder, types: [HKObjectType.workoutType()]), type: HKObjectType.workoutType())
        let run = try #require(workouts.first as? HKWorkout)
        #expect(run.workoutActivityType == .running && abs(run.duration - 5.19412346680959 * 60) < 1e-6)
        #expect(run.totalDistance?.doubleValue(for: .mile()) == 0.4971749504535062)
        #expect(run.statistics(for: HKQuantityType(.activeEnergyBurned))?.sumQuantity()?.doubleValue(for: .kilocalorie()) == 48.74499999999999)
        #expect(run.metadata?[HKMetadataKeyWeatherTemperature] as? HKQuantity == HKQuantity(unit: .degreeFahrenheit(), doubleValue: 56))
    }

    @Test func correlationsAreStoredOnceAndReimportsAndOverlappingExportsAddNothing() async throws {
        let (person, folder) = try freshPerson()
        let first = try person.importExport(at: try write(syntheticExport()))
        #expect(first.added == [HKCorrelationTypeIdentifier.bloodPressure.rawValue: 1, HKQuantityTypeIdentifier.bloodPressureSystolic.rawValue: 1,
                                HKQuantityTypeIdentifier.bloodPressureDiastolic.rawValue: 1, HKQuantityTypeIdentifier.bodyMass.rawValue: 1,
                                HKCategoryTypeIdentifier.sleepAnalysis.rawValue: 1])
        #expect(first.problems.map(\.reason).sorted() == ["a Record that ends before it starts", "unknown record type HKQuantityTypeIdentifierNoSuchThing (kept as written)"])
        #expect(first.problems.allSatisfy { $0.line > 10 })
        #expect(first.characteristics == 3)

        let store = try await reader(folder, types: [HKQuantityType(.bloodPressureSystolic), HKQuantityType(.bloodPressureDiastolic),
                                                      HKCategoryType(.sleepAnalysis)])
        let pressures = try await correlations(store, members: nil)
        #expect(pressures.count == 1 && pressures[0].objects.count == 2)
        #expect(try await run(store, type: HKQuantityType(.bloodPressureSystolic)).count == 1)
        let sleep = try #require(try await run(store, type: HKCategoryType(.sleepAnalysis)).first as? HKCategorySample)
        #expect(sleep.value == HKCategoryValueSleepAnalysis.asleepCore.rawValue && sleep.sourceRevision.productType == "Watch6,1")

        // The same export again, then a newer one written at another UTC offset with body mass in pounds.
        #expect(try person.importExport(at: try write(syntheticExport())).addedTotal == 0)
        let overlapping = try person.importExport(at: try write(syntheticExport(offset: "+0200", mass: "154.3236", massUnit: "lb")))
        // Five samples, and the unknown record kept as written: the same instants at another offset are the same element.
        #expect(overlapping.addedTotal == 0 && overlapping.alreadyStored == 6 && overlapping.exactCopies == 0,
                "\(overlapping.alreadyStored) stored, \(overlapping.exactCopies) copies")
    }

    @Test func aZipWithMacOSExtrasAndOldAndBrokenExportsImportWhatTheyCan() throws {
        let (person, _) = try freshPerson()
        let zipped = try person.importExport(at: exportFixtures.appendingPathComponent("alxdrcirilo_apple-health-parser/export.zip"))
        #expect(zipped.addedTotal == 8 && zipped.problems.isEmpty)

        // 2015: compact dates, `source=`, heart rate as an average in count/s, numeric Me values.
        let old = try person.importExport(at: exportFixtures.appendingPathComponent("ericwolter_apple-healthkit-csv/export.xml"))
        #expect(old.added[HKQuantityTypeIdentifier.stepCount.rawValue] == 534)
        #expect((old.added[HKQuantityTypeIdentifier.heartRate.rawValue] ?? 0) > 0)

        // The malformed iOS 8 export: attribute names with spaces. Records are recovered, each problem has a line.
        let broken = try person.importExport(at: exportFixtures.appendingPathComponent("ericwolter_apple-healthkit-csv/Exportieren.xml"))
        #expect(broken.addedTotal > 1_000)
        #expect(!broken.problems.isEmpty && broken.problems.allSatisfy { $0.line > 0 })
    }

    @Test func aModernSwimWorkoutKeepsItsLapsStatisticsAndMetadata() async throws {
        let (person, folder) = try freshPerson()
        let result = try person.importExport(at: exportFixtures.appendingPathComponent("NicolasReyrolle_apple-health-analyzer/exports/workout_swimming.xml"))
        #expect(result.added == [HKWorkoutTypeIdentifier: 1])
        let store = try await reader(folder, types: [HKObjectType.workoutType()])
        let swim = try #require(try await run(store, type: HKObjectType.workoutType()).first as? HKWorkout)
        #expect(swim.workoutActivityType == .swimming && swim.sourceRevision.productType == "Watch7,2")
        #expect(swim.device?.softwareVersion == "11.6.1")  // the iOS 26 device string's "creation date" field is not part of it
        #expect(swim.metadata?[HKMetadataKeyLapLength] as? HKQuantity == HKQuantity(unit: .meter(), doubleValue: 50))
        #expect(swim.metadata?[HKMetadataKeyTimeZone] as? String == "Europe/Luxembourg")
        #expect((swim.metadata?[HKMetadataKeyAverageMETs] as? HKQuantity).map { $0.doubleValue(for: HKUnit(from: "kcal/(hr*kg)")) } == 6.52565)
        let laps = (swim.workoutEvents ?? []).filter { $0.type == .lap }
        #expect(!laps.isEmpty && laps[0].metadata?[HKMetadataKeySwimmingStrokeStyle] as? Int == 4)
        #expect(swim.statistics(for: HKQuantityType(.distanceSwimming))?.sumQuantity() != nil)
    }

    @Test func exportDatesParseLikeAFormatterInBothForms() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        for text in ["2019-05-14 19:05:29 -0400", "2016-02-29 00:00:00 +0530", "1999-12-31 23:59:59 +0000", "2024-03-01 09:15:02 -0800"] {
            #expect(ExportDates.parse(text) == formatter.date(from: text), "\(text)")
        }
        #expect(ExportDates.parse("20151107171924+0100") == formatter.date(from: "2015-11-07 17:19:24 +0100"))
        for bad in ["2019-13-01 00:00:00 +0000", "2019-05-14", "yesterday", "2019-05-14 19:05:29"] { #expect(ExportDates.parse(bad) == nil, "\(bad)") }
    }

    @Test(arguments: ["2026-02-30 10:00:00 +0100", "2025-02-29 10:00:00 +0100", "1900-02-29 10:00:00 +0000", "2026-04-31 10:00:00 +0100",
                      "2026-06-31 10:00:00 +0100", "2026-09-31 10:00:00 +0100", "2026-11-31 10:00:00 +0100", "2026-01-32 10:00:00 +0100",
                      "2026-10-01 10:00:60 +0100", "2026-10-01 24:00:00 +0100", "2026-10-01 10:60:00 +0100", "0000-10-01 10:00:00 +0100",
                      "2026-10-01 10:00:00 +9999", "2026-10-01 10:00:00 +1500", "2026-10-01 10:00:00 -0960", "20260230100000+0100"])
    func impossibleExportDatesAreRefusedNotMovedToAnotherDay(text: String) {
        #expect(ExportDates.parse(text) == nil)
    }

    @Test func theEdgesOfPossibleExportDatesAreRead() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        for text in ["2024-02-29 23:59:59 +1400", "2000-02-29 00:00:00 -1200", "2026-12-31 23:59:59 -0930", "1583-01-01 00:00:00 +0000",
                     "9999-12-31 23:59:59 +0000", "2026-04-30 12:00:00 +0545"] {
            #expect(ExportDates.parse(text) == formatter.date(from: text), "\(text)")
        }
        // Proleptic Gregorian down to year 1 (a formatter switches to the Julian calendar before 1582).
        #expect(ExportDates.parse("0001-01-01 00:00:00 +0000")?.timeIntervalSince1970 == -62_135_596_800)
    }

    @Test func impossibleGPXTimesAreRefused() {
        #expect(GPXReader.parseTime("2019-06-11T22:00:42Z") == ExportDates.parse("2019-06-11 22:00:42 +0000"))
        #expect(GPXReader.parseTime("2019-06-11T22:00:42.5Z") == ExportDates.parse("2019-06-11 22:00:42 +0000")?.addingTimeInterval(0.5))
        for bad in ["2026-02-30T10:00:00Z", "2025-02-29T10:00:00Z", "2026-04-31T10:00:00Z", "2026-10-01T24:00:00Z", "2026-10-01T10:60:00Z",
                    "2026-10-01T10:00:60Z", "2026-10-01T10:00:60.5Z", "0000-10-01T10:00:00Z", "2026-13-01T10:00:00Z"] {
            #expect(GPXReader.parseTime(bad) == nil, "\(bad)")
        }
    }

    @Test func progressIsReportedUpToTheWholeFile() throws {
        let (person, _) = try freshPerson()
        let file = exportFixtures.appendingPathComponent("opendroid_hk/audio_exposure.xml")
        let calls = Mutex<[(Int, Int, Int)]>([])
        _ = try person.importExport(at: file) { bytes, total, samples in calls.withLock { $0.append((bytes, total, samples)) } }
        let seen = calls.withLock { $0 }
        #expect(seen.count >= 2)  // 1.99 MB in 1 MB chunks
        #expect(seen.last.map { $0.0 == $0.1 && $0.1 == 1_986_008 } == true)
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.0 <= $1.0 && $0.2 <= $1.2 })
    }

    @Test func workoutsRoutesAndCorrelationsKeepTheirCreationDatesAsSaveTimes() throws {
        let (person, folder) = try freshPerson()
        _ = try person.importExport(at: exportFixtures.appendingPathComponent("dogsheep_healthkit-to-sqlite/export.xml"))
        _ = try person.importExport(at: exportFixtures.appendingPathComponent("y-yu_ahcd-go/export.xml"))
        func date(_ text: String) -> Double { ExportDates.parse(text)!.timeIntervalSinceReferenceDate }
        let saved = try DatabaseQueue(path: folder.appendingPathComponent("health.sqlite").path).read { db in
            try Row.fetchAll(db, sql: """
                SELECT identifier, savedAt, correlationId IS NOT NULL AS member FROM sample JOIN sampleType ON code = typeCode
                WHERE identifier IN ('HKWorkoutTypeIdentifier', 'HKWorkoutRouteTypeIdentifier', 'HKCorrelationTypeIdentifierBloodPressure')
                   OR correlationId IS NOT NULL
                """).map { ($0["identifier"] as String, $0["savedAt"] as Double, $0["member"] as Bool) }
        }
        #expect(saved.filter { $0.0 == HKWorkoutTypeIdentifier }.map(\.1) == [date("2016-11-14 07:33:49 -0700")])
        #expect(saved.filter { $0.0 == HKWorkoutRouteTypeIdentifier }.map(\.1) == [date("2016-11-14 07:33:54 -0700")])
        #expect(saved.filter { $0.0 == "HKCorrelationTypeIdentifierBloodPressure" }.map(\.1) == [date("2020-08-02 19:12:44 +0900")])
        let members = saved.filter(\.2)
        #expect(members.count == 2 && members.allSatisfy { $0.1 == date("2020-08-02 19:12:44 +0900") })
    }
}
