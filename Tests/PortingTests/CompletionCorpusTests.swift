import Foundation
import Testing
import OpenHealthKit

/// The corpus files written with completion handlers: each run against a store with a scripted person.
@Suite("Porting corpus: completion handlers")
struct CompletionCorpusTests {
    let calendar = Calendar.current
    let count = HKUnit.count()
    let milliliters = HKUnit.literUnit(with: .milli)

    // MARK: - WorkoutLogger (HKWorkoutBuilder)

    @Test func theWorkoutLoggerBuildsRunsAndReadsThemBack() async throws {
        let person = ScriptedPerson()
        let logger = WorkoutLogger(healthStore: person.app("com.example.runlog"))
        let (granted, _) = await withCheckedContinuation { done in logger.requestAuthorization { done.resume(returning: ($0, $1)) } }
        #expect(granted)

        func at(_ days: Int, _ hour: Int, _ minute: Int) -> Date { calendar.day(days, hour: hour, minute: minute) }
        let morning = WorkoutLogger.Run(
            start: at(2, 10, 0), end: at(2, 10, 35),
            splitEnds: [at(2, 10, 6), at(2, 10, 13), at(2, 10, 21), at(2, 10, 28), at(2, 10, 35)],
            kilocalories: 320, pauses: [DateInterval(start: at(2, 10, 15), end: at(2, 10, 20))])
        let treadmill = WorkoutLogger.Run(start: at(1, 18, 0), end: at(1, 18, 20), splitEnds: [at(1, 18, 7), at(1, 18, 14), at(1, 18, 20)],
                                          kilocalories: 190, indoor: true)
        for run in [morning, treadmill] {
            let (workout, error) = await withCheckedContinuation { done in logger.log(run) { done.resume(returning: ($0, $1)) } }
            #expect(workout != nil && error == nil, "\(String(describing: error))")
        }

        let (runs, error) = await withCheckedContinuation { done in logger.runs { done.resume(returning: ($0, $1)) } }
        #expect(error == nil)
        try #require(runs.count == 2)
        let (latest, first) = (runs[0], runs[1])
        #expect(latest.startDate == treadmill.start && first.startDate == morning.start)
        #expect(first.workoutActivityType == .running)
        // 35 minutes less the 5-minute pause.
        #expect(first.duration == 30 * 60)
        #expect(first.workoutEvents?.map(\.type) == [.pause, .resume])
        #expect(first.statistics(for: HKQuantityType(.distanceWalkingRunning))?.sumQuantity()?.doubleValue(for: .meter()) == 5000)
        #expect(first.statistics(for: HKQuantityType(.activeEnergyBurned))?.sumQuantity()?.doubleValue(for: .kilocalorie()) == 320)
        #expect(first.metadata?[HKMetadataKeyExternalUUID] as? String == "run-\(Int(morning.start.timeIntervalSince1970))")
        #expect(first.metadata?[HKMetadataKeyIndoorWorkout] as? Bool == false)
        #expect(latest.metadata?[HKMetadataKeyIndoorWorkout] as? Bool == true)
        #expect(latest.statistics(for: HKQuantityType(.distanceWalkingRunning))?.sumQuantity()?.doubleValue(for: .meter()) == 3000)

        // Each run's own samples, through HKQuery.predicateForObjects(from:).
        let (splits, _) = await withCheckedContinuation { done in
            logger.samples(of: HKQuantityType(.distanceWalkingRunning), in: first) { done.resume(returning: ($0, $1)) }
        }
        #expect(splits.map(\.endDate) == morning.splitEnds)
        #expect(splits.allSatisfy { $0.quantity.doubleValue(for: .meter()) == 1000 })
        let (energy, _) = await withCheckedContinuation { done in
            logger.samples(of: HKQuantityType(.activeEnergyBurned), in: latest) { done.resume(returning: ($0, $1)) }
        }
        #expect(energy.map { $0.quantity.doubleValue(for: .kilocalorie()) } == [190])
    }

    // MARK: - SleepReader

    @Test func theSleepReaderGroupsStagesIntoNights() async throws {
        let person = ScriptedPerson()
        let reader = SleepReader(healthStore: person.app("com.example.sleep"), calendar: calendar)
        let (granted, _) = await withCheckedContinuation { done in reader.requestAuthorization { done.resume(returning: ($0, $1)) } }
        #expect(granted)

        func at(_ days: Int, _ hour: Int, _ minute: Int = 0) -> Date { calendar.day(days, hour: hour, minute: minute) }
        func during(_ start: Date, _ end: Date) -> DateInterval { DateInterval(start: start, end: end) }
        // The evening 3 days ago: 8h15 in bed; 7h20 asleep (the ten minutes awake do not count).
        let (saved, _) = await withCheckedContinuation { done in
            reader.saveNight(inBed: during(at(3, 22, 30), at(2, 6, 45)), stages: [
                (.asleepCore, during(at(3, 23), at(2, 1))),
                (.asleepDeep, during(at(2, 1), at(2, 2))),
                (.asleepREM, during(at(2, 2), at(2, 2, 30))),
                (.awake, during(at(2, 2, 30), at(2, 2, 40))),
                (.asleepCore, during(at(2, 2, 40), at(2, 6, 30))),
            ]) { done.resume(returning: ($0, $1)) }
        }
        #expect(saved)
        // The next night came from a watch app, without stages; a nap the day after is not part of the two nights.
        let sleep = HKCategoryType(.sleepAnalysis)
        try await person.otherApp("com.example.watch", saves: [
            HKCategorySample(type: sleep, value: HKCategoryValueSleepAnalysis.inBed.rawValue, start: at(2, 23), end: at(1, 7)),
            HKCategorySample(type: sleep, value: HKCategoryValueSleepAnalysis.asleepUnspecified.rawValue, start: at(2, 23, 30), end: at(1, 6, 30)),
            HKCategorySample(type: sleep, value: HKCategoryValueSleepAnalysis.asleepCore.rawValue, start: at(1, 13), end: at(1, 14)),
        ])

        let nights = await withCheckedContinuation { done in
            reader.nights(in: DateInterval(start: at(3, 0), end: at(2, 0))) { done.resume(returning: $0) }
        }
        try #require(nights.count == 2)
        #expect(nights[0].evening == at(3, 0) && nights[1].evening == at(2, 0))
        let hour: TimeInterval = 3600, minute: TimeInterval = 60
        #expect(nights[0].inBed == 8 * hour + 15 * minute)
        #expect(nights[0].asleep == 7 * hour + 20 * minute)
        let firstStages: [HKCategoryValueSleepAnalysis: TimeInterval] = [.asleepCore: 5 * hour + 50 * minute, .asleepDeep: hour, .asleepREM: 30 * minute]
        #expect(nights[0].stages == firstStages)
        #expect(nights[1].inBed == 8 * hour && nights[1].asleep == 7 * hour)
        #expect(nights[1].stages == [.asleepUnspecified: 7 * hour])
    }

    // MARK: - BloodPressureLogger (correlations)

    @Test func theBloodPressureLoggerSavesCorrelationsAndQueriesThem() async throws {
        let person = ScriptedPerson()
        let logger = BloodPressureLogger(healthStore: person.app("com.example.pressure"))
        let (granted, _) = await withCheckedContinuation { done in logger.requestAuthorization { done.resume(returning: ($0, $1)) } }
        #expect(granted)

        for (systolic, diastolic, date) in [(118.0, 76.0, calendar.day(2, hour: 8)), (145, 92, calendar.day(2, hour: 20)), (152, 98, calendar.day(1, hour: 8))] {
            let (saved, error) = await withCheckedContinuation { done in
                logger.log(systolic: systolic, diastolic: diastolic, at: date) { done.resume(returning: ($0, $1)) }
            }
            #expect(saved && error == nil, "\(String(describing: error))")
        }
        let all = await withCheckedContinuation { done in logger.readings { done.resume(returning: $0) } }
        #expect(all == [
            .init(date: calendar.day(2, hour: 8), systolic: 118, diastolic: 76),
            .init(date: calendar.day(2, hour: 20), systolic: 145, diastolic: 92),
            .init(date: calendar.day(1, hour: 8), systolic: 152, diastolic: 98),
        ])
        let high = await withCheckedContinuation { done in logger.readings(systolicAtLeast: 140) { done.resume(returning: $0) } }
        #expect(high.map(\.systolic) == [145, 152] && high.map(\.diastolic) == [92, 98])

        for (meal, date) in [(BloodPressureLogger.Meal(name: "Oatmeal", kilocalories: 350, proteinGrams: 12), calendar.day(1, hour: 8, minute: 30)),
                             (BloodPressureLogger.Meal(name: "Lentil soup", kilocalories: 420, proteinGrams: 24), calendar.day(1, hour: 13)),
                             (BloodPressureLogger.Meal(name: "Pasta", kilocalories: 700, proteinGrams: 20), calendar.day(3, hour: 19))] {
            let (saved, _) = await withCheckedContinuation { done in logger.log(meal, at: date) { done.resume(returning: ($0, $1)) } }
            #expect(saved)
        }
        let yesterday = DateInterval(start: calendar.day(1), end: calendar.day(0))
        let meals = await withCheckedContinuation { done in logger.meals(in: yesterday) { done.resume(returning: $0) } }
        #expect(meals == [.init(name: "Oatmeal", kilocalories: 350, proteinGrams: 12), .init(name: "Lentil soup", kilocalories: 420, proteinGrams: 24)])
    }

    // MARK: - StepSourcesReport (statistics by source, sources)

    @Test func theStepReportSplitsADayBySource() async throws {
        let person = ScriptedPerson()
        let day = calendar.day(1)
        func at(_ hour: Int) -> Date { calendar.day(1, hour: hour) }
        try await person.otherApp("com.example.phone", saves: [
            sample(.stepCount, 3000, count, at: at(8), minutes: 60), sample(.stepCount, 2000, count, at: at(12), minutes: 60),
        ])
        let bpm = HKUnit(from: "count/min")
        try await person.otherApp("com.example.watch", saves: [
            sample(.stepCount, 4000, count, at: at(18), minutes: 60),
            // A minute each, so the time-weighted average is the plain mean.
            sample(.heartRate, 60, bpm, at: at(7), minutes: 1), sample(.heartRate, 100, bpm, at: at(12), minutes: 1),
            sample(.heartRate, 80, bpm, at: at(21), minutes: 1),
        ])
        let store = person.app("com.example.report")
        try await store.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount), HKQuantityType(.heartRate)])
        let report = StepSourcesReport(healthStore: store, calendar: calendar)

        let sources = await withCheckedContinuation { done in report.stepSources { done.resume(returning: $0) } }
        #expect(sources.map(\.name) == ["Phone", "Watch"])
        #expect(sources.map(\.bundleIdentifier) == ["com.example.phone", "com.example.watch"])

        let summary = await withCheckedContinuation { done in report.report(for: day) { done.resume(returning: $0) } }
        #expect(summary.total == 9000 && !summary.hadNoData)
        #expect(summary.shares == [
            .init(sourceName: "Phone", bundleIdentifier: "com.example.phone", steps: 5000),
            .init(sourceName: "Watch", bundleIdentifier: "com.example.watch", steps: 4000),
        ])
        let watch = try #require(sources.last)
        let watchSteps = await withCheckedContinuation { done in report.steps(from: watch, on: day) { done.resume(returning: $0) } }
        #expect(watchSteps == 4000)

        let heart = await withCheckedContinuation { done in report.heartRate(on: day) { done.resume(returning: $0) } }
        #expect(heart == .init(average: 80, minimum: 60, maximum: 100, mostRecent: 80))

        // A day without steps: nothing to share out.
        let empty = await withCheckedContinuation { done in report.report(for: calendar.day(5)) { done.resume(returning: $0) } }
        #expect(empty.total == 0 && empty.shares.isEmpty)
    }

    // MARK: - ProfileReader (characteristics, authorization status)

    @Test func theProfileReaderReadsCharacteristicsAndAuthorization() async throws {
        let person = ScriptedPerson()
        let you = try person.person()
        try you.setDateOfBirth(DateComponents(year: 1990, month: 5, day: 17))
        try you.setBiologicalSex(.female)
        try you.setBloodType(.abNegative)
        try you.setWheelchairUse(.no)
        try you.setActivityMoveMode(.appleMoveTime)
        let answers = ScriptedPresenter.Script(default: .allow, share: [HKQuantityTypeIdentifier.height.rawValue: .deny],
                                               read: [HKCharacteristicTypeIdentifier.bloodType.rawValue: .deny])
        let reader = ProfileReader(healthStore: person.app("com.example.profile", answers))

        #expect(await withCheckedContinuation { done in reader.needsAuthorizationStep { done.resume(returning: $0) } })
        #expect(reader.profile() == ProfileReader.Profile())
        #expect(reader.writableMeasurements().isEmpty && reader.deniedMeasurements().isEmpty)

        try await reader.requestAuthorization()
        #expect(!(await withCheckedContinuation { done in reader.needsAuthorizationStep { done.resume(returning: $0) } }))
        let gregorian = Calendar(identifier: .gregorian)
        let dayBefore = gregorian.date(from: DateComponents(year: 2025, month: 5, day: 16, hour: 12))!
        let birthday = gregorian.date(from: DateComponents(year: 2025, month: 5, day: 17, hour: 12))!
        // Blood type stays hidden: the person did not share it.
        #expect(reader.profile(on: dayBefore) == .init(age: 34, biologicalSex: "Female", bloodType: "Not set", usesWheelchair: false, movesByTime: true))
        #expect(reader.profile(on: birthday).age == 35)
        #expect(reader.writableMeasurements() == [HKQuantityTypeIdentifier.bodyMass.rawValue])
        #expect(reader.deniedMeasurements() == [HKQuantityTypeIdentifier.height.rawValue])

        // What the person changes in Health shows at the next read.
        try you.setBiologicalSex(.other)
        try you.setPermission(app: "com.example.profile", type: HKCharacteristicType(.bloodType), share: nil, read: true)
        #expect(reader.profile(on: birthday).biologicalSex == "Other" && reader.profile(on: birthday).bloodType == "AB−")
    }

    // MARK: - ImportCleanupService (deleteObjects, deleted objects)

    @Test func theCleanupServiceDeletesItsOwnEntriesAndReportsTheDeletions() async throws {
        let person = ScriptedPerson()
        let bottle = try await person.otherApp("com.example.bottle", saves: [
            sample(.dietaryWater, 330, milliliters, at: calendar.day(3, hour: 12)),
            sample(.dietaryWater, 500, milliliters, at: calendar.day(2, hour: 9, minute: 30)),
        ])
        let service = ImportCleanupService(healthStore: person.app("com.example.importer"))
        try await service.requestAuthorization()
        let (nothingYet, _) = await withCheckedContinuation { done in service.deletionsSinceLastCheck { done.resume(returning: ($0, $1)) } }
        #expect(nothingYet.isEmpty)

        for (batch, entries) in [
            ("march", [("a1", calendar.day(3, hour: 8), 250.0), ("a2", calendar.day(3, hour: 12), 300), ("a3", calendar.day(3, hour: 18), 200)]),
            ("april", [("b1", calendar.day(2, hour: 9), 400), ("b2", calendar.day(2, hour: 15), 150)]),
        ] {
            let (saved, error) = await withCheckedContinuation { done in
                service.importBatch(batch, entries: entries.map { (id: $0.0, date: $0.1, milliliters: $0.2) }) { done.resume(returning: ($0, $1)) }
            }
            #expect(saved && error == nil, "\(String(describing: error))")
        }

        let (march, marchError) = await withCheckedContinuation { done in service.deleteBatch("march") { done.resume(returning: ($0, $1)) } }
        #expect(march == 3 && marchError == nil)
        // Only the app's own entry in that hour goes; the bottle's, half an hour later, stays.
        let (morning, _) = await withCheckedContinuation { done in
            service.deleteEntries(in: DateInterval(start: calendar.day(2, hour: 9), end: calendar.day(2, hour: 10))) { done.resume(returning: ($0, $1)) }
        }
        #expect(morning == 1)

        let remaining = try await HKSampleQueryDescriptor(predicates: [.quantitySample(type: HKQuantityType(.dietaryWater))],
                                                           sortDescriptors: [SortDescriptor(\.startDate)]).result(for: bottle)
        #expect(remaining.map { $0.quantity.doubleValue(for: milliliters) } == [330, 500, 150])
        let last = try #require(remaining.last)
        let (deleted, _) = await withCheckedContinuation { done in service.delete(last) { done.resume(returning: ($0, $1)) } }
        #expect(deleted)

        let (uuids, syncIdentifiers) = await withCheckedContinuation { done in service.deletionsSinceLastCheck { done.resume(returning: ($0, $1)) } }
        #expect(uuids.count == 5 && Set(uuids).contains(last.uuid))
        #expect(syncIdentifiers == ["a1", "a2", "a3", "b1", "b2"])
        let (again, _) = await withCheckedContinuation { done in service.deletionsSinceLastCheck { done.resume(returning: ($0, $1)) } }
        #expect(again.isEmpty)
    }

    /// The corpus file selected its own entries with `HKSource.default()` at first; see its porting note and
    /// KnownDifferencesTests.
    @Test func theCleanupServiceFindsItsOwnEntriesByTheirMetadata() async throws {
        let person = ScriptedPerson()
        try await person.otherApp("com.example.bottle", saves: [sample(.dietaryWater, 330, milliliters, at: calendar.day(3, hour: 12))])
        let service = ImportCleanupService(healthStore: person.app("com.example.importer"))
        try await service.requestAuthorization()
        let (saved, _) = await withCheckedContinuation { done in
            service.importBatch("may", entries: [(id: "c1", date: calendar.day(2, hour: 8), milliliters: 250)]) { done.resume(returning: ($0, $1)) }
        }
        #expect(saved)
        let own = await withCheckedContinuation { done in service.ownEntries { done.resume(returning: $0) } }
        #expect(own.map { $0.quantity.doubleValue(for: milliliters) } == [250])
    }

    /// HealthKit: the completion-handler and async forms of `save` are one Objective-C method, so a test double that
    /// overrides the completion form also receives `try await store.save(_:)` (MockHealthStore.swift).
    @Test func overridingTheCompletionFormAlsoCatchesTheAsyncCall() async throws {
        final class CompletionOnlyDouble: HKHealthStore, @unchecked Sendable {
            var saved: [HKObject] = []
            override func save(_ object: HKObject, withCompletion completion: @escaping (Bool, Error?) -> Void) {
                saved.append(object)
                completion(true, nil)
            }
        }
        let double = CompletionOnlyDouble()
        try await double.save(sample(.dietaryWater, 250, .literUnit(with: .milli), at: calendar.day(1, hour: 8)))
        #expect(double.saved.count == 1)
    }

    /// HealthKit: a statistics query that matches no sample answers nil statistics and `HKError.errorNoData`
    /// ("No data available for the specified predicate."), which apps test for (StepSourcesReport.swift).
    @Test func aStatisticsQueryWithoutDataReportsErrorNoData() async throws {
        let person = ScriptedPerson()
        let store = person.app("com.example.report")
        try await store.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount)])
        let report = StepSourcesReport(healthStore: store, calendar: calendar)
        let empty = await withCheckedContinuation { done in report.report(for: calendar.day(5)) { done.resume(returning: $0) } }
        #expect(empty.total == 0 && empty.shares.isEmpty)
        #expect(empty.hadNoData)
    }
}
