// Porting corpus: a sleep reader: HKCategorySample sleep-analysis stages saved by the app and read back with an
// HKSampleQuery whose predicate combines a date range and the asleep values (NSCompoundPredicate,
// HKCategoryValueSleepAnalysis.predicateForSamples(equalTo:)), then grouped into nights (noon to noon) with time
// asleep, time in bed and the stages. Written for this suite; only the import is OpenHealthKit's.
#if canImport(HealthKit)
import HealthKit
#else
import OpenHealthKit
#endif

final class SleepReader: Sendable {
    struct Night: Equatable {
        /// The evening the night began (start of that day).
        let evening: Date
        var asleep: TimeInterval = 0
        var inBed: TimeInterval = 0
        var stages: [HKCategoryValueSleepAnalysis: TimeInterval] = [:]
    }

    let healthStore: HKHealthStore
    let calendar: Calendar
    private let sleepType = HKObjectType.categoryType(forIdentifier: .sleepAnalysis)!

    init(healthStore: HKHealthStore, calendar: Calendar = .current) {
        self.healthStore = healthStore
        self.calendar = calendar
    }

    func requestAuthorization(completion: @escaping @Sendable (Bool, Error?) -> Void) {
        healthStore.requestAuthorization(toShare: [sleepType], read: [sleepType], completion: completion)
    }

    /// Saves a night as the app's tracker recorded it: stage intervals, and the time in bed around them.
    func saveNight(inBed: DateInterval, stages: [(HKCategoryValueSleepAnalysis, DateInterval)],
                   completion: @escaping @Sendable (Bool, Error?) -> Void) {
        var samples = [HKCategorySample(type: sleepType, value: HKCategoryValueSleepAnalysis.inBed.rawValue,
                                        start: inBed.start, end: inBed.end)]
        for (stage, interval) in stages {
            samples.append(HKCategorySample(type: sleepType, value: stage.rawValue, start: interval.start, end: interval.end,
                                            metadata: [HKMetadataKeyTimeZone: calendar.timeZone.identifier]))
        }
        healthStore.save(samples, withCompletion: completion)
    }

    /// The nights whose evenings fall in `interval`, oldest first.
    func nights(in interval: DateInterval, completion: @escaping @Sendable ([Night]) -> Void) {
        // A night belongs to the evening it started: samples from noon on the first day to noon after the last.
        let start = calendar.date(byAdding: .hour, value: 12, to: calendar.startOfDay(for: interval.start))!
        let end = calendar.date(byAdding: .hour, value: 36, to: calendar.startOfDay(for: interval.end))!
        let during = HKQuery.predicateForSamples(withStart: start, end: end, options: [.strictStartDate])
        var relevant = HKCategoryValueSleepAnalysis.allAsleepValues
        relevant.insert(.inBed)
        let stages = HKCategoryValueSleepAnalysis.predicateForSamples(equalTo: relevant)
        let predicate = NSCompoundPredicate(andPredicateWithSubpredicates: [during, stages])
        let oldestFirst = NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: true)
        let calendar = self.calendar
        let query = HKSampleQuery(sampleType: sleepType, predicate: predicate, limit: HKObjectQueryNoLimit,
                                  sortDescriptors: [oldestFirst]) { _, samples, _ in
            var byEvening: [Date: Night] = [:]
            for sample in samples as? [HKCategorySample] ?? [] {
                guard let value = HKCategoryValueSleepAnalysis(rawValue: sample.value) else { continue }
                let shifted = calendar.date(byAdding: .hour, value: -12, to: sample.startDate)!
                let evening = calendar.startOfDay(for: shifted)
                let duration = sample.endDate.timeIntervalSince(sample.startDate)
                var night = byEvening[evening] ?? Night(evening: evening)
                if value == .inBed {
                    night.inBed += duration
                } else {
                    night.asleep += duration
                    night.stages[value, default: 0] += duration
                }
                byEvening[evening] = night
            }
            completion(byEvening.values.sorted { $0.evening < $1.evening })
        }
        healthStore.execute(query)
    }
}
