public import Foundation

/// An `HKActivitySummaryQuery` with Swift concurrency: `result(for:)` once, or `results(for:)` as a sequence that
/// yields the matching summaries and then, after each write, the new or changed ones.
///
/// ```swift
/// let today = HKQuery.predicateForActivitySummary(with: todayComponents)
/// let summaries = try await HKActivitySummaryQueryDescriptor(predicate: today).result(for: store)
/// ```
public struct HKActivitySummaryQueryDescriptor: HKAsyncQuery, HKAsyncSequenceQuery, @unchecked Sendable {
    // @unchecked: the NSPredicate is immutable once made by HKQuery.

    public var predicate: NSPredicate?

    public init(predicate: NSPredicate?) {
        self.predicate = predicate
    }

    /// The matching summaries in day order (none when the app may not read activity summaries).
    public func result(for healthStore: HKHealthStore) async throws -> [HKActivitySummary] {
        try await ActivitySummaryPlan(predicate: predicate).summaries(on: healthStore)
    }

    /// The matching summaries, then the new or changed ones after each write, until the consuming task stops.
    public struct Results: AsyncSequence, Sendable {
        public typealias Element = [HKActivitySummary]
        let live: LiveResults<[HKActivitySummary]>

        /// Steps through the results as they come.
        public struct Iterator: AsyncIteratorProtocol {
            var base: AsyncThrowingStream<[HKActivitySummary], any Error>.AsyncIterator
            public mutating func next() async throws -> [HKActivitySummary]? { try await base.next() }
        }

        public func makeAsyncIterator() -> Iterator { Iterator(base: live.makeStream().makeAsyncIterator()) }
    }

    public func results(for healthStore: HKHealthStore) -> Results {
        let predicate = UncheckedPredicate(predicate)
        return Results(live: LiveResults { continuation in
            try await ActivitySummaryPlan(predicate: predicate.value).run(on: healthStore, live: true) {
                continuation.yield($0)
            } update: {
                continuation.yield($0)
            }
        })
    }
}
