// Porting corpus: a SwiftUI-style view model that takes its HKHealthStore from outside, so that its tests can give it a
// test double (MockHealthStore.swift) instead. Main-actor state; the async HealthKit API for authorization and saving,
// an HKStatisticsQuery for today's total, and an HKObserverQuery that refreshes it when the store changes.
// Written for this suite; only the import is OpenHealthKit's.
#if canImport(HealthKit)
import HealthKit
#else
import OpenHealthKit
#endif

@MainActor
final class HydrationViewModel {
    private(set) var isAuthorized = false
    private(set) var todayMilliliters: Double = 0
    private(set) var errorMessage: String?

    let healthStore: HKHealthStore
    let calendar: Calendar
    private let waterType = HKQuantityType(.dietaryWater)
    private var observer: HKObserverQuery?
    /// Called after each refresh the observer triggers.
    var onChange: (() -> Void)?

    init(healthStore: HKHealthStore, calendar: Calendar = .current) {
        self.healthStore = healthStore
        self.calendar = calendar
    }

    func requestAccess() async {
        do {
            try await healthStore.requestAuthorization(toShare: [waterType], read: [waterType])
            isAuthorized = healthStore.authorizationStatus(for: waterType) == .sharingAuthorized
        } catch {
            errorMessage = error.localizedDescription
            isAuthorized = false
        }
    }

    func logWater(milliliters: Double, at date: Date = Date()) async {
        let quantity = HKQuantity(unit: .literUnit(with: .milli), doubleValue: milliliters)
        let sample = HKQuantitySample(type: waterType, quantity: quantity, start: date, end: date)
        do {
            try await healthStore.save(sample)
            todayMilliliters += milliliters
        } catch {
            errorMessage = error.localizedDescription
        }
    }

    /// Reloads today's total (the day of `now`) from the store.
    func refresh(now: Date = Date()) async {
        let start = calendar.startOfDay(for: now)
        let end = calendar.date(byAdding: .day, value: 1, to: start)!
        let predicate = HKQuery.predicateForSamples(withStart: start, end: end, options: .strictStartDate)
        let type = waterType
        let store = healthStore
        do {
            let statistics: HKStatistics? = try await withCheckedThrowingContinuation { continuation in
                let query = HKStatisticsQuery(quantityType: type, quantitySamplePredicate: predicate, options: .cumulativeSum) { _, statistics, error in
                    if let error = error as? HKError, error.code == .errorNoData {
                        continuation.resume(returning: nil)
                    } else if let error = error {
                        continuation.resume(throwing: error)
                    } else {
                        continuation.resume(returning: statistics)
                    }
                }
                store.execute(query)
            }
            todayMilliliters = statistics?.sumQuantity()?.doubleValue(for: .literUnit(with: .milli)) ?? 0
        } catch {
            errorMessage = error.localizedDescription
        }
    }

    /// Keeps `todayMilliliters` current while the screen is shown.
    func startObserving(now: @escaping @Sendable () -> Date = { Date() }) {
        guard observer == nil else { return }
        // @Sendable: HealthKit calls the handler on a queue of its own, not on the main actor.
        let query = HKObserverQuery(sampleType: waterType, predicate: nil) { @Sendable [weak self] _, completionHandler, error in
            completionHandler()
            guard error == nil else { return }
            Task { @MainActor in
                await self?.refresh(now: now())
                self?.onChange?()
            }
        }
        observer = query
        healthStore.execute(query)
    }

    func stopObserving() {
        if let observer = observer {
            healthStore.stop(observer)
        }
        observer = nil
    }
}
