// Porting corpus: an app's statistics helper for a week-of-steps chart, in the completion-handler style of
// Apple's documentation. Written for this suite; only the import is OpenHealthKit's, nothing else is imported:
// Date, Calendar, DateComponents, DispatchQueue and NSSortDescriptor come with it, as with `import HealthKit`.
#if canImport(HealthKit)
import HealthKit
#else
import OpenHealthKit
#endif

final class StepsChartService: @unchecked Sendable {
    struct Day: Equatable {
        let start: Date
        let steps: Double
    }

    let healthStore: HKHealthStore
    private let queue = DispatchQueue(label: "com.example.steps.chart")

    init(healthStore: HKHealthStore) {
        self.healthStore = healthStore
    }

    func requestAccess(completion: @escaping @Sendable (Bool, Error?) -> Void) {
        guard HKHealthStore.isHealthDataAvailable() else { return completion(false, nil) }
        let steps = HKObjectType.quantityType(forIdentifier: .stepCount)!
        healthStore.requestAuthorization(toShare: [steps], read: [steps], completion: completion)
    }

    func logWalk(steps count: Double, endingAt end: Date, minutes: Int, completion: @escaping @Sendable (Bool, Error?) -> Void) {
        let type = HKQuantityType.quantityType(forIdentifier: .stepCount)!
        let start = Calendar.current.date(byAdding: .minute, value: -minutes, to: end)!
        let sample = HKQuantitySample(type: type, quantity: HKQuantity(unit: HKUnit.count(), doubleValue: count), start: start, end: end,
                                      metadata: [HKMetadataKeyWasUserEntered: true])
        healthStore.save(sample, withCompletion: completion)
    }

    /// Daily totals of the seven days ending with `day`, oldest first, delivered on the service's queue.
    func weekOfSteps(endingOn day: Date, calendar: Calendar, completion: @escaping @Sendable ([Day]) -> Void) {
        let type = HKQuantityType.quantityType(forIdentifier: .stepCount)!
        let end = calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: day))!
        let start = calendar.date(byAdding: .day, value: -7, to: end)!
        let predicate = HKQuery.predicateForSamples(withStart: start, end: end, options: .strictStartDate)
        var interval = DateComponents()
        interval.day = 1
        let query = HKStatisticsCollectionQuery(quantityType: type, quantitySamplePredicate: predicate, options: .cumulativeSum,
                                                anchorDate: start, intervalComponents: interval)
        query.initialResultsHandler = { [queue] _, collection, _ in
            var days: [Day] = []
            collection?.enumerateStatistics(from: start, to: day) { statistics, _ in
                days.append(Day(start: statistics.startDate, steps: statistics.sumQuantity()?.doubleValue(for: .count()) ?? 0))
            }
            let week = days
            queue.async { completion(week) }
        }
        healthStore.execute(query)
    }

    /// The most recent walks, newest first.
    func recentWalks(limit: Int, completion: @escaping @Sendable ([HKQuantitySample]) -> Void) {
        let type = HKSampleType.quantityType(forIdentifier: .stepCount)!
        let newestFirst = NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: false)
        let query = HKSampleQuery(sampleType: type, predicate: nil, limit: limit, sortDescriptors: [newestFirst]) { _, samples, _ in
            completion(samples as? [HKQuantitySample] ?? [])
        }
        healthStore.execute(query)
    }
}
