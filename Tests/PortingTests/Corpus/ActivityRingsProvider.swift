// Porting corpus: activity rings for a week view and a live "today" ring: HKActivitySummaryQuery with a date-components
// range predicate and an updateHandler that keeps running, and HKActivitySummaryQueryDescriptor for the same in async
// code (`result(for:)` and the `results(for:)` sequence). Ring progress is value / goal, as Fitness shows it.
// Written for this suite; only the import is OpenHealthKit's.
#if canImport(HealthKit)
import HealthKit
#else
import OpenHealthKit
#endif

final class ActivityRingsProvider: @unchecked Sendable {
    struct Rings: Equatable {
        let day: DateComponents
        let move: Double
        let exercise: Double
        let stand: Double
    }

    let healthStore: HKHealthStore
    /// Activity summaries are keyed by Gregorian day components.
    let calendar = Calendar(identifier: .gregorian)
    private let lock = NSLock()
    private var liveQuery: HKActivitySummaryQuery?

    init(healthStore: HKHealthStore) {
        self.healthStore = healthStore
    }

    func requestAuthorization(completion: @escaping @Sendable (Bool, Error?) -> Void) {
        healthStore.requestAuthorization(toShare: nil, read: [HKObjectType.activitySummaryType()], completion: completion)
    }

    private func dayComponents(_ date: Date) -> DateComponents {
        var components = calendar.dateComponents([.era, .year, .month, .day], from: date)
        components.calendar = calendar
        return components
    }

    private func weekPredicate(endingOn day: Date) -> NSPredicate {
        let start = calendar.date(byAdding: .day, value: -6, to: day)!
        return HKQuery.predicate(forActivitySummariesBetweenStart: dayComponents(start), end: dayComponents(day))
    }

    func rings(of summary: HKActivitySummary) -> Rings {
        let kilocalories = HKUnit.kilocalorie()
        let move = summary.activeEnergyBurned.doubleValue(for: kilocalories) / summary.activeEnergyBurnedGoal.doubleValue(for: kilocalories)
        let exerciseGoal = summary.exerciseTimeGoal ?? HKQuantity(unit: .minute(), doubleValue: 30)
        let exercise = summary.appleExerciseTime.doubleValue(for: .minute()) / exerciseGoal.doubleValue(for: .minute())
        let standGoal = summary.standHoursGoal ?? HKQuantity(unit: .count(), doubleValue: 12)
        let stand = summary.appleStandHours.doubleValue(for: .count()) / standGoal.doubleValue(for: .count())
        var day = summary.dateComponents(for: calendar)
        day.calendar = nil
        return Rings(day: day, move: move, exercise: exercise, stand: stand)
    }

    /// The seven days ending with `day`, oldest first (days without a summary are missing).
    func week(endingOn day: Date, completion: @escaping @Sendable ([Rings]) -> Void) {
        let query = HKActivitySummaryQuery(predicate: weekPredicate(endingOn: day)) { [weak self] _, summaries, _ in
            guard let self = self else { return }
            completion((summaries ?? []).map(self.rings(of:)))
        }
        healthStore.execute(query)
    }

    /// Today's rings now and after every change, until `stopObservingToday()`.
    func observeToday(_ today: Date, onChange: @escaping @Sendable (Rings?) -> Void) {
        let predicate = HKQuery.predicateForActivitySummary(with: dayComponents(today))
        let query = HKActivitySummaryQuery(predicate: predicate) { [weak self] _, summaries, _ in
            onChange(summaries?.first.flatMap { self?.rings(of: $0) })
        }
        query.updateHandler = { [weak self] _, summaries, _ in
            onChange(summaries?.first.flatMap { self?.rings(of: $0) })
        }
        lock.withLock { liveQuery = query }
        healthStore.execute(query)
    }

    func stopObservingToday() {
        if let query = lock.withLock({ liveQuery }) {
            healthStore.stop(query)
        }
    }

    /// The same week in async code.
    func week(endingOn day: Date) async throws -> [Rings] {
        let descriptor = HKActivitySummaryQueryDescriptor(predicate: weekPredicate(endingOn: day))
        return try await descriptor.result(for: healthStore).map(rings(of:))
    }

    /// Follows the week's summaries: what is there now, then the days each change touched. Stops after `deliveries`.
    func followWeek(endingOn day: Date, deliveries: Int, onDelivery: ([Rings]) -> Void) async throws {
        let descriptor = HKActivitySummaryQueryDescriptor(predicate: weekPredicate(endingOn: day))
        var delivered = 0
        for try await summaries in descriptor.results(for: healthStore) {
            onDelivery(summaries.map(rings(of:)))
            delivered += 1
            if delivered == deliveries { break }
        }
    }
}
