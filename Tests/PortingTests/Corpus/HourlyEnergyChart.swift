// Porting corpus: a live hourly chart of active energy for one day: a long-running HKStatisticsCollectionQuery
// (hourly intervals anchored at midnight) with an initialResultsHandler and a statisticsUpdateHandler, each turning the
// collection into 24 bars with enumerateStatistics(from:to:with:), delivered on the main queue; statistics(for:) for
// the bar under the finger. Written for this suite; only the import is OpenHealthKit's.
#if canImport(HealthKit)
import HealthKit
#else
import OpenHealthKit
#endif

final class HourlyEnergyChart: @unchecked Sendable {
    struct Bar: Equatable {
        let hour: Int
        let kilocalories: Double
    }

    let healthStore: HKHealthStore
    let calendar: Calendar
    private let energyType = HKQuantityType.quantityType(forIdentifier: .activeEnergyBurned)!
    private let lock = NSLock()
    private var query: HKStatisticsCollectionQuery?
    private var collection: HKStatisticsCollection?

    init(healthStore: HKHealthStore, calendar: Calendar = .current) {
        self.healthStore = healthStore
        self.calendar = calendar
    }

    private func bars(from collection: HKStatisticsCollection, day: DateInterval) -> [Bar] {
        var bars: [Bar] = []
        collection.enumerateStatistics(from: day.start, to: day.end) { statistics, stop in
            guard statistics.startDate < day.end else {
                stop.pointee = true
                return
            }
            let hour = self.calendar.component(.hour, from: statistics.startDate)
            bars.append(Bar(hour: hour, kilocalories: statistics.sumQuantity()?.doubleValue(for: .kilocalorie()) ?? 0))
        }
        return bars
    }

    /// Starts charting `date`'s day; `onBars` gets the bars at first and after every change, on the main queue.
    func start(day date: Date, onBars: @escaping @Sendable ([Bar]) -> Void) {
        let midnight = calendar.startOfDay(for: date)
        let day = DateInterval(start: midnight, end: calendar.date(byAdding: .day, value: 1, to: midnight)!)
        let query = HKStatisticsCollectionQuery(quantityType: energyType,
                                                quantitySamplePredicate: HKQuery.predicateForSamples(withStart: day.start, end: day.end),
                                                options: .cumulativeSum,
                                                anchorDate: midnight,
                                                intervalComponents: DateComponents(hour: 1))
        query.initialResultsHandler = { [weak self] _, collection, error in
            guard let self = self, let collection = collection else { return }
            self.lock.withLock { self.collection = collection }
            let bars = self.bars(from: collection, day: day)
            DispatchQueue.main.async { onBars(bars) }
        }
        query.statisticsUpdateHandler = { [weak self] _, _, collection, error in
            guard let self = self, let collection = collection else { return }
            self.lock.withLock { self.collection = collection }
            let bars = self.bars(from: collection, day: day)
            DispatchQueue.main.async { onBars(bars) }
        }
        lock.withLock { self.query = query }
        healthStore.execute(query)
    }

    /// The energy of the hour containing `date`, from the last collection received.
    func kilocalories(at date: Date) -> Double? {
        lock.withLock { collection }?.statistics(for: date)?.sumQuantity()?.doubleValue(for: .kilocalorie())
    }

    func stop() {
        if let query = lock.withLock({ query }) {
            healthStore.stop(query)
        }
    }

    func logEnergy(kilocalories: Double, start: Date, end: Date, completion: @escaping @Sendable (Bool, Error?) -> Void) {
        let sample = HKQuantitySample(type: energyType, quantity: HKQuantity(unit: .kilocalorie(), doubleValue: kilocalories),
                                      start: start, end: end)
        healthStore.save(sample, withCompletion: completion)
    }
}
