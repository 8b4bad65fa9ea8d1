public import Foundation
import HealthStore

/// Finds samples with Swift concurrency: one or more typed predicates, sort descriptors on the samples'
/// dates, an optional limit.
///
/// ```swift
/// let descriptor = HKSampleQueryDescriptor(predicates: [.quantitySample(type: HKQuantityType(.stepCount))],
///                                          sortDescriptors: [SortDescriptor(\.endDate, order: .reverse)],
///                                          limit: 10)
/// let latest = try await descriptor.result(for: store)
/// ```
///
/// Sorting is by `startDate` or `endDate` (what SQL indexes serve); another key path is `errorInvalidArgument`.
public struct HKSampleQueryDescriptor<Sample: HKSample>: HKAsyncQuery, @unchecked Sendable {
    // @unchecked: SortDescriptor over a non-Sendable class and NSPredicate; all are immutable values here.

    public var predicates: [HKSamplePredicate<Sample>]
    public var sortDescriptors: [SortDescriptor<Sample>]
    public var limit: Int?

    public init(predicates: [HKSamplePredicate<Sample>], sortDescriptors: [SortDescriptor<Sample>], limit: Int? = nil) {
        self.predicates = predicates
        self.sortDescriptors = sortDescriptors
        self.limit = limit
    }

    /// The samples, sorted and limited. Each type is read with the app's read permission: without it, only the
    /// app's own samples.
    public func result(for healthStore: HKHealthStore) async throws -> [Sample] {
        let order = try sortDescriptors.map { descriptor -> SampleOrder in
            let ascending = descriptor.order == .forward
            switch descriptor.keyPath {
            case \Sample.startDate: return SampleOrder(key: .startDate, ascending: ascending)
            case \Sample.endDate: return SampleOrder(key: .endDate, ascending: ascending)
            default: throw HKError.invalidArgument("sample query descriptors sort by \\.startDate or \\.endDate only")
            }
        }
        var samples: [Sample] = []
        for predicate in predicates {
            let plan = try SampleQueryPlan(type: predicate.sampleType, predicate: predicate.nsPredicate, limit: limit ?? 0, order: order)
            samples += try plan.run(on: healthStore).compactMap { $0 as? Sample }
        }
        if predicates.count > 1 {
            // Each type's rows came sorted and limited by SQL; merge them into one order.
            let keys = order.isEmpty ? [SampleOrder(key: .startDate, ascending: true)] : order
            samples.sort { a, b in
                for key in keys {
                    let (x, y) = key.key == .startDate ? (a.startDate, b.startDate) : (a.endDate, b.endDate)
                    if x != y { return key.ascending ? x < y : x > y }
                }
                return false
            }
            if let limit, limit > 0, samples.count > limit { samples.removeLast(samples.count - limit) }
        }
        return samples
    }
}
