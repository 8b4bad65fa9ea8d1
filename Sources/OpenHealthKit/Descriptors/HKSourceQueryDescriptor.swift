import Foundation

/// An `HKSourceQuery` with Swift concurrency: the apps and devices that saved samples matching a predicate.
///
/// ```swift
/// let sources = try await HKSourceQueryDescriptor(predicate: .quantitySample(type: HKQuantityType(.stepCount)))
///     .result(for: store)
/// ```
public struct HKSourceQueryDescriptor<Sample: HKSample>: HKAsyncQuery, @unchecked Sendable {
    // @unchecked: HKSamplePredicate holds an immutable NSPredicate.

    public var predicate: HKSamplePredicate<Sample>

    public init(predicate: HKSamplePredicate<Sample>) {
        self.predicate = predicate
    }

    /// The sources, by name; only the app itself when it may not read the type.
    public func result(for healthStore: HKHealthStore) async throws -> [HKSource] {
        try await HKSourceQuery.sources(type: predicate.sampleType, predicate: predicate.nsPredicate, on: healthStore)
    }
}
