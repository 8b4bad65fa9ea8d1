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
        self.type = type
        self.filter = try SampleFilter(optional: predicate)
        self.limit = limit == HKObjectQueryNoLimit ? nil : limit
        self.order = order.isEmpty ? [SampleOrder(key: .startDate, ascending: true)] : order
    }

    func run(on store: HKHealthStore) throws -> [HKSample] {
        try store.sampleStore().samples(ofType: type, matching: filter, visibleTo: store.configuration.app.bundleIdentifier,
                                        order: order, limit: limit)
    }

    /// Runs several plans (one per type) and merges their rows into one order, keeping the limit. Each plan's
    /// rows come sorted and limited by SQL.
    static func run(_ plans: [SampleQueryPlan], on store: HKHealthStore) throws -> [HKSample] {
        guard plans.count > 1 else { return try plans.first?.run(on: store) ?? [] }
        var samples = try plans.flatMap { try $0.run(on: store) }
        let keys = plans[0].order
        samples.sort { a, b in
            for key in keys {
                let (x, y) = key.key == .startDate ? (a.startDate, b.startDate) : (a.endDate, b.endDate)
                if x != y { return key.ascending ? x < y : x > y }
            }
            return false
        }
        if let limit = plans[0].limit, samples.count > limit { samples.removeLast(samples.count - limit) }
        return samples
    }

    /// The sort keys of `NSSortDescriptor`s: start or end date; anything else is `errorInvalidArgument`.
    static func order(_ descriptors: [NSSortDescriptor]) throws -> [SampleOrder] {
        try descriptors.map { descriptor in
            switch descriptor.keyPath {
            case \HKSample.startDate: SampleOrder(key: .startDate, ascending: descriptor.ascending)
            case \HKSample.endDate: SampleOrder(key: .endDate, ascending: descriptor.ascending)
            default: throw HKError.invalidArgument(
                "samples can be sorted by HKSampleSortIdentifierStartDate or HKSampleSortIdentifierEndDate only")
            }
        }
    }
}
