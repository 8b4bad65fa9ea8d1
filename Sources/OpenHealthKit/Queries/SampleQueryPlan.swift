import Foundation
import HealthStore

/// A sample query ready to run: the type, the compiled predicate, the order and the limit — all Sendable,
/// so it can leave the caller's thread.
struct SampleQueryPlan: Sendable {
    let type: HKSampleType
    let filter: SampleFilter?
    let limit: Int?
    let order: [SampleOrder]

    init(type: HKSampleType, predicate: NSPredicate?, limit: Int, order: [SampleOrder]) throws {
        guard limit >= 0 else { throw HKError.invalidArgument("a query's limit is \(limit); it must be 0 (no limit) or more") }
        if let key = order.first(where: { !$0.key.isColumn }), type != HKObjectType.workoutType() {
            throw HKError.invalidArgument("only workouts can be sorted by \(key.key); \(type.identifier) samples by start or end date")
        }
        self.type = type
        self.filter = try SampleFilter(optional: predicate)
        self.limit = limit == HKObjectQueryNoLimit ? nil : limit
        self.order = order.isEmpty ? [SampleOrder(key: .startDate, ascending: true)] : order
    }

    /// The samples the store's app may see, from the engine or the daemon behind it.
    func run(on store: HKHealthStore) async throws -> [HKSample] {
        try await store.backend().samples(of: type, matching: filter, order: order, limit: limit)
    }

    /// Whether `a` sorts before `b` by `keys` (equal on every key: neither). A workout without a total sorts
    /// before those with one, as SQL sorts NULL first.
    static func precedes(_ a: HKSample, _ b: HKSample, by keys: [SampleOrder]) -> Bool {
        for key in keys {
            let (x, y) = (value(of: a, key.key), value(of: b, key.key))
            if x != y { return key.ascending ? x < y : x > y }
        }
        return false
    }

    private static func value(of sample: HKSample, _ key: SampleOrder.Key) -> Double {
        let workout = sample as? HKWorkout
        func total(_ quantity: HKQuantity?, _ unit: HKUnit) -> Double { quantity.map { $0.doubleValue(for: unit) } ?? -.infinity }
        return switch key {
        case .startDate: sample.startDate.timeIntervalSinceReferenceDate
        case .endDate: sample.endDate.timeIntervalSinceReferenceDate
        case .duration: workout?.duration ?? -.infinity
        case .totalDistance: total(workout?.totalDistance, .meter())
        case .totalEnergyBurned: total(workout?.totalEnergyBurned, .kilocalorie())
        case .totalSwimmingStrokeCount: total(workout?.totalSwimmingStrokeCount, .count())
        case .totalFlightsClimbed: total(workout?.totalFlightsClimbed, .count())
        }
    }

    /// Runs several plans (one per type) and merges their rows into one order, keeping the limit. Each plan's
    /// rows come sorted and limited by SQL.
    static func run(_ plans: [SampleQueryPlan], on store: HKHealthStore) async throws -> [HKSample] {
        guard plans.count > 1 else { return try await plans.first?.run(on: store) ?? [] }
        var samples: [HKSample] = []
        for plan in plans { samples += try await plan.run(on: store) }
        let keys = plans[0].order
        samples.sort { precedes($0, $1, by: keys) }
        if let limit = plans[0].limit, samples.count > limit { samples.removeLast(samples.count - limit) }
        return samples
    }

    /// The sort keys of `NSSortDescriptor`s: start or end date, and for workouts the `HKWorkoutSortIdentifier…` keys;
    /// anything else is `errorInvalidArgument`.
    static func order(_ descriptors: [NSSortDescriptor]) throws -> [SampleOrder] {
        try descriptors.map { descriptor in
            let key: SampleOrder.Key? = switch descriptor.keyPath {
            case \HKSample.startDate: .startDate
            case \HKSample.endDate: .endDate
            case \HKWorkout.duration: .duration
            case \HKWorkout.totalDistanceSortKey: .totalDistance
            case \HKWorkout.totalEnergyBurnedSortKey: .totalEnergyBurned
            case \HKWorkout.totalSwimmingStrokeCountSortKey: .totalSwimmingStrokeCount
            case \HKWorkout.totalFlightsClimbedSortKey: .totalFlightsClimbed
            default: nil
            }
            guard let key else {
                throw HKError.invalidArgument("""
                    samples can be sorted by HKSampleSortIdentifierStartDate or HKSampleSortIdentifierEndDate, and workouts \
                    by the HKWorkoutSortIdentifier keys, only
                    """)
            }
            return SampleOrder(key: key, ascending: descriptor.ascending)
        }
    }
}
