public import Foundation

/// A realistic synthetic person, to fill a store for demos and benchmarks: a phone and an overlapping watch
/// counting steps by the minute, the watch's heart rate every few seconds while awake, sleep stages each
/// night, workouts a few times a week, weight entered by hand in the Health app, and two medications tracked in the
/// Health app with the doses logged (a statin each morning on a schedule, ibuprofen as needed). Deterministic for a
/// seed.
///
/// ```swift
/// let person = try HealthPerson(storeDirectory: folder)
/// let summary = try person.generate(SyntheticPerson(days: 30))
/// print(summary.total, "samples")
/// ```
///
/// Each day also gets the watch's activity summary (rings), computed from that day's watch samples: active
/// energy from walking and workouts, exercise minutes from brisk walking and workouts, stand hours from the hours
/// with walking; goals 500 kcal, 30 minutes, 12 hours.
///
/// Sources are the person's own, as in an Apple Health export: "Alex’s iPhone" and "Alex’s Apple Watch"
/// (`com.apple.health.*`, so the default priority puts the watch first) and "Health" (`com.apple.Health`) for
/// manual entries.
public struct SyntheticPerson: Sendable {
    /// How many days, ending at `end`.
    public var days: Int
    /// The end of the last day (exclusive); days are UTC days.
    public var end: Date
    /// The random seed.
    public var seed: UInt64
    /// Seconds between heart-rate readings while awake.
    public var heartRateInterval: TimeInterval

    public init(days: Int = 365, end: Date = Date(timeIntervalSinceReferenceDate: 815_443_200), seed: UInt64 = 1,
                heartRateInterval: TimeInterval = 5) {
        self.days = days
        self.end = end
        self.seed = seed
        self.heartRateInterval = heartRateInterval
    }

    /// What was generated.
    public struct Summary: Sendable {
        /// Samples per type identifier.
        public var samplesByType: [String: Int] = [:]
        public var total: Int { samplesByType.values.reduce(0, +) }
        /// Activity summaries (one per day).
        public var activitySummaries = 0
        /// The medications the person tracks that the dose events are of (added now or tracked already).
        public var medications = 0
        /// The generated interval.
        public var interval: DateInterval
    }

    static let phone = HKSourceRevision(
        source: HKSource(name: "Alex’s iPhone", bundleIdentifier: "com.apple.health.6F1B5E2A-0C3D-4F7A-9E21-3B8D5C4A1F00"),
        version: "17.4", productType: "iPhone15,2", operatingSystemVersion: OperatingSystemVersion(majorVersion: 17, minorVersion: 4, patchVersion: 0))
    static let watch = HKSourceRevision(
        source: HKSource(name: "Alex’s Apple Watch", bundleIdentifier: "com.apple.health.9A2C7D31-5B6E-4C80-A1F4-7E3D2B1C0A99"),
        version: "10.4", productType: "Watch6,1", operatingSystemVersion: OperatingSystemVersion(majorVersion: 10, minorVersion: 4, patchVersion: 0))
    static let health = HKSourceRevision(
        source: HKSource(name: "Health", bundleIdentifier: "com.apple.Health"),
        version: "17.4", productType: "iPhone15,2", operatingSystemVersion: OperatingSystemVersion(majorVersion: 17, minorVersion: 4, patchVersion: 0))
    static let phoneDevice = HKDevice(name: "iPhone", manufacturer: "Apple Inc.", model: "iPhone", hardwareVersion: "iPhone15,2",
                                      firmwareVersion: nil, softwareVersion: "17.4", localIdentifier: nil, udiDeviceIdentifier: nil)
    static let watchDevice = HKDevice(name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch", hardwareVersion: "Watch6,1",
                                      firmwareVersion: nil, softwareVersion: "10.4", localIdentifier: nil, udiDeviceIdentifier: nil)

    /// The medications the person tracks, by RxNorm code: `HealthPerson.generate` adds those the store does not track
    /// yet, and `day(_:)` logs their doses.
    static let medications: [(name: String, rxNorm: String, hasSchedule: Bool)] = [
        ("Atorvastatin 20 MG Oral Tablet", "617310", true),
        ("Ibuprofen 200 MG Oral Tablet", "310965", false),
    ]

    /// The samples of day `index` (0 = the first), all sources together.
    func day(_ index: Int) -> [HKObject] {
        var random = Random(seed: seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
        let dayStart = end.addingTimeInterval(Double(index - days) * 86_400)
        func at(_ seconds: Double) -> Date { dayStart.addingTimeInterval(seconds) }
        var objects: [HKObject] = []
        let count = HKUnit.count(), bpm = HKUnit.count().unitDivided(by: .minute())

        // Awake 07:00–23:00. Walking comes in bouts (a two-state Markov chain per minute); the watch counts
        // every walking minute, the phone only while carried (and a little differently).
        let wake = 7 * 3600.0 + random.uniform(-1800, 1800), sleep = 23 * 3600.0 + random.uniform(-1800, 1800)
        var walking = false, carried = true
        var minute = (wake / 60).rounded(.down) * 60
        while minute < sleep {
            walking = random.chance(walking ? 0.8 : 0.12)
            if random.chance(0.05) { carried.toggle() }
            if walking {
                let cadence = random.uniform(60, 120)
                objects.append(HKQuantitySample.make(
                    type: HKQuantityType(.stepCount), quantity: HKQuantity(unit: count, doubleValue: cadence.rounded()),
                    start: at(minute), end: at(minute + 60), metadata: nil, sourceRevision: Self.watch, device: Self.watchDevice))
                if carried {
                    // The phone's minutes are offset by a few seconds and count a bit differently.
                    let offset = random.uniform(0, 20)
                    objects.append(HKQuantitySample.make(
                        type: HKQuantityType(.stepCount), quantity: HKQuantity(unit: count, doubleValue: (cadence * random.uniform(0.85, 1.05)).rounded()),
                        start: at(minute + offset), end: at(minute + 60 + offset), metadata: nil, sourceRevision: Self.phone, device: Self.phoneDevice))
                }
            }
            minute += 60
        }

        // Heart rate from the watch while awake: a resting level with slow drift.
        var rate = random.uniform(58, 72)
        var t = wake
        while t < sleep {
            rate = min(max(rate + random.uniform(-1.5, 1.5), 48), 165)
            objects.append(HKQuantitySample.make(
                type: HKQuantityType(.heartRate), quantity: HKQuantity(unit: bpm, doubleValue: rate.rounded()),
                start: at(t), end: at(t), metadata: [HKMetadataKeyHeartRateMotionContext: .integer(walking ? 2 : 1)],
                sourceRevision: Self.watch, device: Self.watchDevice))
            t += heartRateInterval
        }

        // Sleep from the watch: last night's stages, 90-minute cycles from about 23:00 the previous day.
        let sleepType = HKCategoryType(.sleepAnalysis)
        var s = -3600.0 + random.uniform(-1800, 1800)
        let rise = wake - random.uniform(0, 900)
        objects.append(HKCategorySample(type: sleepType, value: HKCategoryValueSleepAnalysis.inBed.rawValue, start: at(s - 600), end: at(rise),
                                        metadata: nil, sourceRevision: Self.watch, device: Self.watchDevice))
        let stages: [HKCategoryValueSleepAnalysis] = [.asleepCore, .asleepDeep, .asleepCore, .asleepREM, .awake]
        while s < rise {
            for stage in stages where s < rise {
                let length = min(random.uniform(300, 1800), rise - s)
                objects.append(HKCategorySample(type: sleepType, value: stage.rawValue, start: at(s), end: at(s + length),
                                                metadata: nil, sourceRevision: Self.watch, device: Self.watchDevice))
                s += length
            }
        }

        // A workout on about three days in seven, recorded by the watch.
        if random.chance(3.0 / 7) {
            let kinds: [(HKWorkoutActivityType, Double)] = [(.running, 2.8), (.cycling, 6.5), (.walking, 1.4), (.yoga, 0)]
            let (kind, metersPerSecond) = kinds[Int(random.uniform(0, Double(kinds.count))) % kinds.count]
            let start = 18 * 3600.0 + random.uniform(0, 3600), duration = random.uniform(1200, 4200)
            var statistics: [HKQuantityType: HKStatistics] = [:]
            let energyType = HKQuantityType(.activeEnergyBurned)
            statistics[energyType] = HKStatistics(
                quantityType: energyType, startDate: at(start), endDate: at(start + duration),
                merged: .init(sum: HKQuantity(unit: .kilocalorie(), doubleValue: (duration / 60 * random.uniform(5, 12)).rounded())))
            if metersPerSecond > 0 {
                let distanceType = HKWorkout.distanceType(for: kind)
                statistics[distanceType] = HKStatistics(
                    quantityType: distanceType, startDate: at(start), endDate: at(start + duration),
                    merged: .init(sum: HKQuantity(unit: .meter(), doubleValue: (duration * metersPerSecond * random.uniform(0.9, 1.1)).rounded())))
            }
            objects.append(HKWorkout(activityType: kind, start: at(start), end: at(start + duration), duration: duration, events: nil,
                                     statistics: statistics, metadata: nil, sourceRevision: Self.watch, device: Self.watchDevice))
        }

        // Weight entered by hand most mornings.
        if random.chance(0.6) {
            let kilograms = 72 + 2 * sin(Double(index) / 58) + random.uniform(-0.4, 0.4)
            let when = at(wake + 900)
            objects.append(HKQuantitySample.make(
                type: HKQuantityType(.bodyMass), quantity: HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: (kilograms * 10).rounded() / 10),
                start: when, end: when, metadata: [HKMetadataKeyWasUserEntered: .bool(true)], sourceRevision: Self.health, device: nil))
        }

        // Doses logged in the Health app: the statin due at 08:00, taken on most days, skipped on some, not logged on the
        // rest; one or two ibuprofen tablets on about one day in ten.
        let tablets = HKUnit.count(), due = at(8 * 3600)
        let answer = random.uniform(0, 1), logged = at(max(wake, 8 * 3600 - 1800) + random.uniform(0, 3600))
        if answer < 0.93 {
            objects.append(HKMedicationDoseEvent(
                scheduleType: .schedule, medicationConceptIdentifier: .medication(Self.medications[0].rxNorm), scheduledDate: due,
                scheduledDoseQuantity: 1, doseQuantity: answer < 0.85 ? 1 : nil, logStatus: answer < 0.85 ? .taken : .skipped,
                unit: tablets, start: logged, end: logged, sourceRevision: Self.health))
        }
        if random.chance(0.1) {
            let when = at(random.uniform(wake + 3600, sleep - 3600))
            objects.append(HKMedicationDoseEvent(
                scheduleType: .asNeeded, medicationConceptIdentifier: .medication(Self.medications[1].rxNorm), scheduledDate: nil,
                scheduledDoseQuantity: nil, doseQuantity: random.chance(0.5) ? 1 : 2, logStatus: .taken, unit: tablets,
                start: when, end: when, sourceRevision: Self.health))
        }
        return objects
    }

    /// The watch's activity summary of day `index`, from that day's samples (`objects`, as `day(_:)` made them).
    func activitySummary(_ index: Int, of objects: [HKObject]) -> HKActivitySummary {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let dayStart = end.addingTimeInterval(Double(index - days) * 86_400)
        let summary = HKActivitySummary(dateComponents: utc.dateComponents([.year, .month, .day], from: dayStart))
        var kilocalories = 0.0, exerciseMinutes = 0.0, standHours = Set<Int>()
        for object in objects where object.sourceRevision == Self.watch {
            if let sample = object as? HKQuantitySample, sample.quantityType == HKQuantityType(.stepCount) {
                let steps = sample.quantity.doubleValue(for: .count())
                kilocalories += steps * 0.045
                if steps >= 100 { exerciseMinutes += 1 }
                standHours.insert(Int(sample.startDate.timeIntervalSince(dayStart) / 3600))
            } else if let workout = object as? HKWorkout {
                kilocalories += workout.statistics(for: HKQuantityType(.activeEnergyBurned))?.sumQuantity()?.doubleValue(for: .kilocalorie()) ?? 0
                exerciseMinutes += workout.duration / 60
            }
        }
        summary.activeEnergyBurned = HKQuantity(unit: .kilocalorie(), doubleValue: kilocalories.rounded())
        summary.activeEnergyBurnedGoal = HKQuantity(unit: .kilocalorie(), doubleValue: 500)
        summary.appleExerciseTime = HKQuantity(unit: .minute(), doubleValue: exerciseMinutes.rounded())
        summary.exerciseTimeGoal = HKQuantity(unit: .minute(), doubleValue: 30)
        summary.appleStandHours = HKQuantity(unit: .count(), doubleValue: Double(standHours.count))
        summary.standHoursGoal = HKQuantity(unit: .count(), doubleValue: 12)
        return summary
    }

    /// SplitMix64, with the draws the plan makes.
    struct Random {
        var generator: SplitMix64
        init(seed: UInt64) { generator = SplitMix64(state: seed) }
        mutating func next() -> UInt64 { generator.next() }
        mutating func uniform(_ low: Double, _ high: Double) -> Double { low + (high - low) * Double(next() >> 11) / Double(1 << 53) }
        mutating func chance(_ p: Double) -> Bool { uniform(0, 1) < p }
    }
}

extension HealthPerson {
    /// The most days `generate` makes.
    public static let mostGeneratedDays = 36_500

    /// Fills the store with `person`'s data, one transaction per day; `progress` hears each finished day.
    @discardableResult
    public func generate(_ person: SyntheticPerson, progress: (@Sendable (Int) -> Void)? = nil) throws -> SyntheticPerson.Summary {
        guard person.days > 0 else { throw HKError.invalidArgument("generate at least one day (asked for \(person.days))") }
        // A hundred years: more is no person's history, and runs for days (a year is ~1.6 million samples).
        guard person.days <= Self.mostGeneratedDays else {
            throw HKError.invalidArgument("generate at most \(Self.mostGeneratedDays.formatted()) days, a hundred years (asked for \(person.days.formatted()))")
        }
        guard person.heartRateInterval >= 1 else {
            throw HKError.invalidArgument("heart-rate readings must be at least 1 second apart (asked for \(person.heartRateInterval))")
        }
        var summary = SyntheticPerson.Summary(interval: DateInterval(start: person.end.addingTimeInterval(Double(-person.days) * 86_400), end: person.end))
        // The medications the doses are of, once: a store generated into again keeps tracking the same ones.
        let tracked = Set(try medications().map(\.medication.identifier.underlyingIdentifier))
        for medication in SyntheticPerson.medications where !tracked.contains(medication.rxNorm) {
            try addMedication(named: medication.name, form: .tablet,
                              codings: [HKClinicalCoding(system: HKClinicalCoding.rxNormSystem, version: nil, code: medication.rxNorm)],
                              hasSchedule: medication.hasSchedule)
        }
        summary.medications = SyntheticPerson.medications.count
        for index in 0..<person.days {
            let objects = person.day(index)
            try sampleStore.importSamples(objects)
            try saveActivitySummaries([person.activitySummary(index, of: objects)])
            summary.activitySummaries += 1
            for object in objects { summary.samplesByType[(object as! HKSample).sampleType.identifier, default: 0] += 1 }
            progress?(index + 1)
        }
        return summary
    }
}
