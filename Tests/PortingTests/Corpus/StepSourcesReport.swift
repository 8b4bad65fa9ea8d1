// Porting corpus: a statistics helper that explains a day's step total: HKSourceQuery for the apps and devices that
// counted steps, HKStatisticsQuery with [.cumulativeSum, .separateBySource] for each one's share and the merged total,
// a source-filtered HKStatisticsQuery (HKQuery.predicateForObjects(from:)) for one source, and a discrete
// HKStatisticsQuery (average / minimum / maximum / most recent) for heart rate. HealthKit answers a statistics query
// that matches nothing with HKError.errorNoData, which the report treats as an empty day.
// Written for this suite; only the import is OpenHealthKit's.
#if canImport(HealthKit)
import HealthKit
#else
import OpenHealthKit
#endif

final class StepSourcesReport: Sendable {
    struct Share: Equatable {
        let sourceName: String
        let bundleIdentifier: String
        let steps: Double
    }

    struct Day: Equatable {
        var total: Double = 0
        var shares: [Share] = []
        var hadNoData = false
    }

    struct HeartRateSummary: Equatable {
        let average: Double
        let minimum: Double
        let maximum: Double
        let mostRecent: Double
    }

    let healthStore: HKHealthStore
    let calendar: Calendar
    private let stepType = HKQuantityType.quantityType(forIdentifier: .stepCount)!
    private let heartRateType = HKQuantityType.quantityType(forIdentifier: .heartRate)!

    init(healthStore: HKHealthStore, calendar: Calendar = .current) {
        self.healthStore = healthStore
        self.calendar = calendar
    }

    private func dayPredicate(_ day: Date) -> NSPredicate {
        let start = calendar.startOfDay(for: day)
        return HKQuery.predicateForSamples(withStart: start, end: calendar.date(byAdding: .day, value: 1, to: start), options: [])
    }

    /// The sources that wrote steps, by name.
    func stepSources(completion: @escaping @Sendable ([HKSource]) -> Void) {
        let query = HKSourceQuery(sampleType: stepType, samplePredicate: nil) { _, sources, _ in
            completion((sources ?? []).sorted { $0.name < $1.name })
        }
        healthStore.execute(query)
    }

    /// The day's total and each source's share, largest first.
    func report(for day: Date, completion: @escaping @Sendable (Day) -> Void) {
        let query = HKStatisticsQuery(quantityType: stepType, quantitySamplePredicate: dayPredicate(day),
                                      options: [.cumulativeSum, .separateBySource]) { _, statistics, error in
            if let error = error as? HKError, error.code == .errorNoData {
                return completion(Day(hadNoData: true))
            }
            guard let statistics = statistics else { return completion(Day()) }
            var report = Day(total: statistics.sumQuantity()?.doubleValue(for: .count()) ?? 0)
            for source in statistics.sources ?? [] {
                let steps = statistics.sumQuantity(for: source)?.doubleValue(for: .count()) ?? 0
                report.shares.append(Share(sourceName: source.name, bundleIdentifier: source.bundleIdentifier, steps: steps))
            }
            report.shares.sort { $0.steps > $1.steps }
            completion(report)
        }
        healthStore.execute(query)
    }

    /// The steps one source counted on a day.
    func steps(from source: HKSource, on day: Date, completion: @escaping @Sendable (Double) -> Void) {
        let predicate = NSCompoundPredicate(andPredicateWithSubpredicates: [dayPredicate(day), HKQuery.predicateForObjects(from: source)])
        let query = HKStatisticsQuery(quantityType: stepType, quantitySamplePredicate: predicate, options: .cumulativeSum) { _, statistics, _ in
            completion(statistics?.sumQuantity()?.doubleValue(for: .count()) ?? 0)
        }
        healthStore.execute(query)
    }

    /// The day's heart rate, or nil without readings.
    func heartRate(on day: Date, completion: @escaping @Sendable (HeartRateSummary?) -> Void) {
        let bpm = HKUnit(from: "count/min")
        let query = HKStatisticsQuery(quantityType: heartRateType, quantitySamplePredicate: dayPredicate(day),
                                      options: [.discreteAverage, .discreteMin, .discreteMax, .mostRecent]) { _, statistics, _ in
            guard let statistics = statistics, let average = statistics.averageQuantity(), let minimum = statistics.minimumQuantity(),
                  let maximum = statistics.maximumQuantity(), let mostRecent = statistics.mostRecentQuantity() else {
                return completion(nil)
            }
            completion(HeartRateSummary(average: average.doubleValue(for: bpm), minimum: minimum.doubleValue(for: bpm),
                                        maximum: maximum.doubleValue(for: bpm), mostRecent: mostRecent.doubleValue(for: bpm)))
        }
        healthStore.execute(query)
    }
}
