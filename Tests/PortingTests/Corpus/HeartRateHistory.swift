// Porting corpus: heart-rate history in the Swift-concurrency style of iOS 15.4+: the query descriptors with
// HKSamplePredicate — HKSampleQueryDescriptor for the latest readings, HKStatisticsQueryDescriptor and
// HKStatisticsCollectionQueryDescriptor for averages, HKSourceQueryDescriptor for the devices that measured, and
// HKAnchoredObjectQueryDescriptor both one-shot (`result(for:)`) and as a live async sequence (`results(for:)`).
// Written for this suite; only the import is OpenHealthKit's.
#if canImport(HealthKit)
import HealthKit
#else
import OpenHealthKit
#endif

struct HeartRateHistory {
    struct Reading: Equatable {
        let date: Date
        let beatsPerMinute: Double
    }

    struct DailyRange: Equatable {
        let day: Date
        let minimum: Double
        let average: Double
        let maximum: Double
    }

    struct Changes {
        var added: [Reading]
        var deleted: [UUID]
        var anchor: HKQueryAnchor
    }

    let healthStore: HKHealthStore
    private let heartRate = HKQuantityType(.heartRate)
    private let beatsPerMinute = HKUnit.count().unitDivided(by: .minute())

    init(healthStore: HKHealthStore) {
        self.healthStore = healthStore
    }

    func requestAuthorization() async throws {
        try await healthStore.requestAuthorization(toShare: [], read: [heartRate])
    }

    /// The `count` most recent readings, newest first.
    func latestReadings(count: Int) async throws -> [Reading] {
        let descriptor = HKSampleQueryDescriptor(
            predicates: [.quantitySample(type: heartRate)],
            sortDescriptors: [SortDescriptor(\.startDate, order: .reverse)],
            limit: count)
        let samples = try await descriptor.result(for: healthStore)
        return samples.map(reading)
    }

    /// The readings taken while resting (those with the motion context metadata set to sedentary) in an interval.
    func restingReadings(in interval: DateInterval) async throws -> [Reading] {
        let during = HKQuery.predicateForSamples(withStart: interval.start, end: interval.end, options: .strictStartDate)
        let sedentary = HKQuery.predicateForObjects(withMetadataKey: HKMetadataKeyHeartRateMotionContext,
                                                    allowedValues: [HKHeartRateMotionContext.sedentary.rawValue])
        let predicate = NSCompoundPredicate(andPredicateWithSubpredicates: [during, sedentary])
        let descriptor = HKSampleQueryDescriptor(predicates: [.quantitySample(type: heartRate, predicate: predicate)],
                                                 sortDescriptors: [SortDescriptor(\.startDate)])
        return try await descriptor.result(for: healthStore).map(reading)
    }

    /// The average over an interval, or nil without readings.
    func average(in interval: DateInterval) async throws -> Double? {
        let predicate = HKQuery.predicateForSamples(withStart: interval.start, end: interval.end)
        let descriptor = HKStatisticsQueryDescriptor(predicate: .quantitySample(type: heartRate, predicate: predicate),
                                                     options: .discreteAverage)
        return try await descriptor.result(for: healthStore)?.averageQuantity()?.doubleValue(for: beatsPerMinute)
    }

    /// Minimum, average and maximum of each day from `start` up to `end`, skipping days without readings.
    func dailyRanges(from start: Date, to end: Date, calendar: Calendar) async throws -> [DailyRange] {
        let anchor = calendar.startOfDay(for: start)
        let descriptor = HKStatisticsCollectionQueryDescriptor(
            predicate: .quantitySample(type: heartRate, predicate: HKQuery.predicateForSamples(withStart: anchor, end: end)),
            options: [.discreteMin, .discreteAverage, .discreteMax],
            anchorDate: anchor,
            intervalComponents: DateComponents(day: 1))
        let collection = try await descriptor.result(for: healthStore)
        var ranges: [DailyRange] = []
        collection.enumerateStatistics(from: anchor, to: end) { statistics, _ in
            guard let minimum = statistics.minimumQuantity(), let average = statistics.averageQuantity(),
                  let maximum = statistics.maximumQuantity() else { return }
            ranges.append(DailyRange(day: statistics.startDate, minimum: minimum.doubleValue(for: beatsPerMinute),
                                     average: average.doubleValue(for: beatsPerMinute),
                                     maximum: maximum.doubleValue(for: beatsPerMinute)))
        }
        return ranges
    }

    /// The names of the apps and devices that recorded heart rates, sorted.
    func sourceNames() async throws -> [String] {
        let descriptor = HKSourceQueryDescriptor(predicate: .quantitySample(type: heartRate))
        return try await descriptor.result(for: healthStore).map(\.name).sorted()
    }

    /// What changed since `anchor` (everything when nil).
    func changes(since anchor: HKQueryAnchor?) async throws -> Changes {
        let descriptor = HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: heartRate)], anchor: anchor)
        let result = try await descriptor.result(for: healthStore)
        return Changes(added: result.addedSamples.map(reading), deleted: result.deletedObjects.map(\.uuid), anchor: result.newAnchor)
    }

    /// Follows the store: the first batch is what is there now, then one batch per change. Stops after `batches`.
    func follow(from anchor: HKQueryAnchor?, batches: Int, onBatch: (Changes) -> Void) async throws {
        let descriptor = HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: heartRate)], anchor: anchor)
        var seen = 0
        for try await result in descriptor.results(for: healthStore) {
            onBatch(Changes(added: result.addedSamples.map(reading), deleted: result.deletedObjects.map(\.uuid),
                            anchor: result.newAnchor))
            seen += 1
            if seen == batches { break }
        }
    }

    private func reading(_ sample: HKQuantitySample) -> Reading {
        Reading(date: sample.startDate, beatsPerMinute: sample.quantity.doubleValue(for: beatsPerMinute))
    }
}
