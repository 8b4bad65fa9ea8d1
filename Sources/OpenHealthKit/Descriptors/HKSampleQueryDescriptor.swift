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
            case let keyPath? where keyPath as AnyKeyPath == \HKWorkout.duration: return SampleOrder(key: .duration, ascending: ascending)
            default: throw HKError.invalidArgument("sample query descriptors sort by \\.startDate or \\.endDate (workouts also by \\.duration) only")
            }
        }
        let plans = try predicates.map {
            try SampleQueryPlan(type: $0.sampleType, predicate: $0.nsPredicate, limit: limit ?? 0, order: order)
        }
        return try await SampleQueryPlan.run(plans, on: healthStore).compactMap { $0 as? Sample }
    }
}
