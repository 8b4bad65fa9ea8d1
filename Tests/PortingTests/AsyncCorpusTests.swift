import Foundation
import Testing
import OpenHealthKit

/// The corpus files written in async/await: each run against a store with a scripted person.
@Suite("Porting corpus: async/await")
struct AsyncCorpusTests {
    let calendar = Calendar.current
    let kilograms = HKUnit.gramUnit(with: .kilo)
    let beatsPerMinute = HKUnit.count().unitDivided(by: .minute())

    // MARK: - HealthKitManager

    @Test func theManagerSavesBodyMeasurementsAndComputesTheBodyMassIndex() async throws {
        let person = ScriptedPerson()
        try await person.otherApp("com.example.scale", saves: [sample(.bodyMass, 81, kilograms, at: calendar.day(3, hour: 7))])
        let manager = HealthKitManager(healthStore: person.app("com.example.manager"))

        #expect(try await manager.requestAuthorization())
        // The scale's weighing is there before the app saves anything.
        #expect(try await manager.latestBodyMass() == 81)
        #expect(try await manager.latestHeight() == nil)

        try await manager.saveBodyMass(kilograms: 80.2, date: calendar.day(1, hour: 7))
        try await manager.saveHeight(centimeters: 180, date: calendar.day(2, hour: 7))
        #expect(try await manager.latestBodyMass() == 80.2)
        let pounds = try #require(try await manager.latestBodyMass(in: .pound()))
        #expect(abs(pounds - 176.8113) < 0.001)
        #expect(try await manager.latestHeight() == 1.8)

        let bodyMassIndex = try #require(try await manager.updateBodyMassIndex(at: calendar.day(1, hour: 8)))
        #expect(abs(bodyMassIndex - 80.2 / (1.8 * 1.8)) < 1e-9)
        let saved = try #require(try await manager.latestSample(of: HKQuantityType(.bodyMassIndex)))
        #expect(saved.quantity.doubleValue(for: .count()) == bodyMassIndex)
        #expect(saved.sourceRevision.source.bundleIdentifier == "com.example.manager")
        #expect(saved.startDate == calendar.day(1, hour: 8))
    }

    @Test func withReadingDeniedTheManagerSeesOnlyWhatItSavedAndARevocationStopsItsSaves() async throws {
        let person = ScriptedPerson()
        // The scale weighed the person more recently than the app will.
        try await person.otherApp("com.example.scale", saves: [sample(.bodyMass, 81, kilograms, at: calendar.day(0, hour: 7))])
        let denyReadingMass = ScriptedPresenter.Script(default: .allow, read: [HKQuantityTypeIdentifier.bodyMass.rawValue: .deny])
        let manager = HealthKitManager(healthStore: person.app("com.example.manager", denyReadingMass))

        // The sheet was handled: success, though the person said no to reading body mass (HealthKit never tells).
        #expect(try await manager.requestAuthorization())
        #expect(try await manager.latestBodyMass() == nil)
        try await manager.saveBodyMass(kilograms: 80.2, date: calendar.day(2, hour: 7))
        #expect(try await manager.latestBodyMass() == 80.2)

        try person.person().revokeAll(app: "com.example.manager")
        let error = await #expect(throws: HKError.self) { try await manager.saveBodyMass(kilograms: 79.9) }
        #expect(error?.code == .errorAuthorizationDenied)
    }

    // MARK: - HeartRateHistory (query descriptors)

    @Test func theHeartRateHistoryReadsThroughTheQueryDescriptors() async throws {
        let person = ScriptedPerson()
        // Each reading lasts a minute: HealthKit weighs heart rates by time in averages, so equal durations make the
        // average the plain mean of the readings.
        func sample(_ identifier: HKQuantityTypeIdentifier, _ value: Double, _ unit: HKUnit, at date: Date,
                    metadata: [String: Any]? = nil) -> HKQuantitySample {
            PortingTests.sample(identifier, value, unit, at: date, minutes: 1, metadata: metadata)
        }
        let sedentary: [String: Any] = [HKMetadataKeyHeartRateMotionContext: HKHeartRateMotionContext.sedentary.rawValue]
        let active: [String: Any] = [HKMetadataKeyHeartRateMotionContext: HKHeartRateMotionContext.active.rawValue]
        let readings = [
            sample(.heartRate, 60, beatsPerMinute, at: calendar.day(2, hour: 8), metadata: sedentary),
            sample(.heartRate, 90, beatsPerMinute, at: calendar.day(2, hour: 12), metadata: active),
            sample(.heartRate, 72, beatsPerMinute, at: calendar.day(2, hour: 20), metadata: sedentary),
            sample(.heartRate, 58, beatsPerMinute, at: calendar.day(1, hour: 7), metadata: sedentary),
            sample(.heartRate, 120, beatsPerMinute, at: calendar.day(1, hour: 18), metadata: active),
        ]
        let watch = try await person.otherApp("com.example.watch", saves: readings)
        try await person.otherApp("com.example.strap", saves: [sample(.heartRate, 140, beatsPerMinute, at: calendar.day(1, hour: 18, minute: 30))])

        let history = HeartRateHistory(healthStore: person.app("com.example.history"))
        try await history.requestAuthorization()

        #expect(try await history.latestReadings(count: 3).map(\.beatsPerMinute) == [140, 120, 58])
        let twoDays = DateInterval(start: calendar.day(2), end: calendar.day(0))
        #expect(try await history.restingReadings(in: twoDays).map(\.beatsPerMinute) == [60, 72, 58])
        #expect(try await history.average(in: DateInterval(start: calendar.day(2), end: calendar.day(1))) == 74)
        #expect(try await history.average(in: DateInterval(start: calendar.day(5), end: calendar.day(4))) == nil)

        let ranges = try await history.dailyRanges(from: calendar.day(2), to: calendar.day(0), calendar: calendar)
        #expect(ranges == [
            .init(day: calendar.day(2), minimum: 60, average: 74, maximum: 90),
            .init(day: calendar.day(1), minimum: 58, average: (58 + 120 + 140) / 3, maximum: 140),
        ])
        #expect(try await history.sourceNames() == ["Strap", "Watch"])

        // One-shot anchored reads: everything, then what changed since.
        let first = try await history.changes(since: nil)
        #expect(first.added.count == 6 && first.deleted.isEmpty)
        try await watch.delete(readings[1])
        try await watch.save(sample(.heartRate, 65, beatsPerMinute, at: calendar.day(0, hour: 6)))
        let second = try await history.changes(since: first.anchor)
        #expect(second.added.map(\.beatsPerMinute) == [65] && second.deleted == [readings[1].uuid])

        // The live sequence: the current state (nothing new since the anchor), then each change.
        let batches = Recorder<HeartRateHistory.Changes>()
        let follower = Task { try await history.follow(from: second.anchor, batches: 2) { batches.append($0) } }
        defer { follower.cancel() }
        try #require(await eventually { batches.all.count == 1 })
        #expect(batches.all.first?.added.isEmpty == true && batches.all.first?.deleted.isEmpty == true)
        try await watch.save(sample(.heartRate, 77, beatsPerMinute, at: calendar.day(0, hour: 6, minute: 30)))
        #expect(await eventually { batches.all.count == 2 })
        #expect(batches.all.last?.added.map(\.beatsPerMinute) == [77])
    }

    // MARK: - HydrationViewModel with MockHealthStore and with a real store

    @MainActor @Test func theViewModelRunsAgainstTheTestDouble() async throws {
        let mock = MockHealthStore()
        let viewModel = HydrationViewModel(healthStore: mock)
        await viewModel.requestAccess()
        #expect(mock.requestedShareTypes == [HKQuantityType(.dietaryWater)])
        #expect(mock.requestedReadTypes == [HKQuantityType(.dietaryWater)])
        #expect(viewModel.isAuthorized && viewModel.errorMessage == nil)

        await viewModel.logWater(milliliters: 250)
        #expect(mock.savedObjects.count == 1)
        let saved = try #require(mock.savedObjects.first as? HKQuantitySample)
        #expect(saved.quantity.doubleValue(for: .literUnit(with: .milli)) == 250 && viewModel.todayMilliliters == 250)

        mock.saveError = HKError(.errorAuthorizationDenied)
        await viewModel.logWater(milliliters: 100)
        #expect(mock.savedObjects.count == 1 && viewModel.todayMilliliters == 250 && viewModel.errorMessage != nil)

        viewModel.startObserving()
        let observer = try #require(mock.executedQueries.first as? HKObserverQuery)
        #expect(observer.objectType == HKQuantityType(.dietaryWater))
        viewModel.stopObserving()
        #expect(mock.stoppedQueries.first === observer)

        let denying = MockHealthStore()
        denying.grantsAuthorization = false
        let deniedViewModel = HydrationViewModel(healthStore: denying)
        await deniedViewModel.requestAccess()
        #expect(!deniedViewModel.isAuthorized)
    }

    @MainActor @Test func theViewModelRunsAgainstARealStore() async throws {
        let person = ScriptedPerson()
        let now = calendar.day(1, hour: 18)
        let bottle = try await person.otherApp("com.example.bottle", saves: [
            sample(.dietaryWater, 330, .literUnit(with: .milli), at: calendar.day(1, hour: 10)),
            sample(.dietaryWater, 1000, .literUnit(with: .milli), at: calendar.day(2, hour: 10)),
        ])
        let viewModel = HydrationViewModel(healthStore: person.app("com.example.hydration"), calendar: calendar)
        await viewModel.requestAccess()
        #expect(viewModel.isAuthorized && viewModel.errorMessage == nil)

        await viewModel.refresh(now: now)
        #expect(viewModel.todayMilliliters == 330 && viewModel.errorMessage == nil)
        await viewModel.logWater(milliliters: 250, at: calendar.day(1, hour: 9))
        await viewModel.logWater(milliliters: 500, at: calendar.day(1, hour: 12))
        #expect(viewModel.todayMilliliters == 1080)
        await viewModel.refresh(now: now)
        #expect(viewModel.todayMilliliters == 1080)
        await viewModel.refresh(now: calendar.day(3, hour: 12))
        #expect(viewModel.todayMilliliters == 0 && viewModel.errorMessage == nil)

        // While observing, another app's drink shows up without the screen asking.
        viewModel.startObserving(now: { now })
        try await bottle.save(sample(.dietaryWater, 200, .literUnit(with: .milli), at: calendar.day(1, hour: 15)))
        #expect(await eventually { viewModel.todayMilliliters == 1280 })
        viewModel.stopObserving()
        await settle()
        try await bottle.save(sample(.dietaryWater, 100, .literUnit(with: .milli), at: calendar.day(1, hour: 16)))
        await settle()
        #expect(viewModel.todayMilliliters == 1280)
    }

    // MARK: - HealthValueFormatter

    @Test func theUnitHelpersConvertThroughHKQuantity() {
        #expect(abs(HealthValueFormatter.pounds(fromKilograms: 70) - 154.3236) < 0.0001)
        #expect(abs(HealthValueFormatter.miles(fromKilometers: 5) - 3.106856) < 0.000001)
        #expect(abs(HealthValueFormatter.fahrenheit(fromCelsius: 37) - 98.6) < 1e-9)
        #expect(abs(HealthValueFormatter.kilojoules(fromKilocalories: 100) - 418.4) < 1e-9)
        #expect(abs(HealthValueFormatter.milligramsPerDeciliter(fromMillimolesPerLiter: 5.5) - 5.5 * 18.015588) < 0.0001)
        #expect(abs(HealthValueFormatter.minutesPerMile(fromSecondsPerKilometer: 300) - 8.04672) < 1e-9)
        #expect(HealthValueFormatter.unit(named: "count/min") == HealthValueFormatter.beatsPerMinute)
        #expect(HealthValueFormatter.unit(named: "kg") == .gramUnit(with: .kilo))
        #expect(HealthValueFormatter.unit(named: "furlong") == nil)
        #expect(HealthValueFormatter.milligramsPerDeciliter.unitString == "mg/dL")
        #expect(HealthValueFormatter.beatsPerMinute.unitString == "count/min")
    }

    @Test func theFormatterShowsValuesInThePersonsPreferredUnits() async throws {
        let person = ScriptedPerson()
        var formatter = HealthValueFormatter(healthStore: person.app("com.example.units"))
        let shown: Set<HKQuantityType> = [HKQuantityType(.bodyMass), HKQuantityType(.distanceWalkingRunning), HKQuantityType(.dietaryEnergyConsumed)]

        // As in HealthKit, an app must have asked for the types before asking for their units.
        let error = await #expect(throws: HKError.self) { try await formatter.loadPreferredUnits(for: shown) }
        #expect(error?.code == .errorAuthorizationNotDetermined)

        try person.person().setPreferredUnit(.pound(), for: HKQuantityType(.bodyMass))
        try person.person().setPreferredUnit(.mile(), for: HKQuantityType(.distanceWalkingRunning))
        try person.person().setPreferredUnit(.jouleUnit(with: .kilo), for: HKQuantityType(.dietaryEnergyConsumed))
        try await formatter.healthStore.requestAuthorization(toShare: [], read: shown)
        try await formatter.loadPreferredUnits(for: shown)
        #expect(formatter.preferredUnits[HKQuantityType(.bodyMass)] == .pound())
        #expect(formatter.preferredUnits[HKQuantityType(.distanceWalkingRunning)] == .mile())

        #expect(formatter.bodyMassString(HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: 70)) == "154.3 lb")
        #expect(formatter.distanceString(HKQuantity(unit: .meterUnit(with: .kilo), doubleValue: 5)) == "3.11 mi")
        #expect(formatter.energyString(HKQuantity(unit: .kilocalorie(), doubleValue: 200)) == "837 kJ")
    }
}
