import Foundation
import HealthStore

/// Samples added and objects deleted since an anchor, with Swift concurrency: `result(for:)` once, or
/// `results(for:)` as a sequence that yields the first answer and then one per later change.
///
/// ```swift
/// let descriptor = HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: HKQuantityType(.stepCount))],
///                                                  anchor: savedAnchor)
/// for try await change in descriptor.results(for: store) {
///     savedAnchor = change.newAnchor
/// }
/// ```
public struct HKAnchoredObjectQueryDescriptor<Sample: HKSample>: HKAsyncQuery, HKAsyncSequenceQuery, @unchecked Sendable {
    // @unchecked: HKSamplePredicate holds immutable NSPredicates.

    public var predicates: [HKSamplePredicate<Sample>]
    public var anchor: HKQueryAnchor?
    public var limit: Int?

    public init(predicates: [HKSamplePredicate<Sample>], anchor: HKQueryAnchor?, limit: Int? = nil) {
        self.predicates = predicates
        self.anchor = anchor
        self.limit = limit
    }

    /// One answer: what was added and deleted, and the anchor to continue from.
    public struct Result: @unchecked Sendable {
        // @unchecked: the samples are immutable.
        public let addedSamples: [Sample]
        public let deletedObjects: [HKDeletedObject]
        public let newAnchor: HKQueryAnchor

        init(_ answer: AnchoredPlan.Answer) {
            addedSamples = answer.samples.compactMap { $0 as? Sample }
            deletedObjects = answer.deleted
            newAnchor = answer.anchor
        }
    }

    /// The first answer, then one per save or delete the app can see, until the consuming task stops.
    public struct Results: AsyncSequence, Sendable {
        public typealias Element = Result
        let live: LiveResults<Result>

        /// Steps through the results as they come.
        public struct Iterator: AsyncIteratorProtocol {
            var base: AsyncThrowingStream<Result, any Error>.AsyncIterator
            public mutating func next() async throws -> Result? { try await base.next() }
        }

        public func makeAsyncIterator() -> Iterator { Iterator(base: live.makeStream().makeAsyncIterator()) }
    }

    private func plan() throws -> AnchoredPlan {
        try AnchoredPlan(predicates.map { ($0.sampleType, $0.nsPredicate) }, limit: limit ?? HKObjectQueryNoLimit)
    }

    public func result(for healthStore: HKHealthStore) async throws -> Result {
        Result(try await plan().fetch(on: healthStore, after: anchor))
    }

    public func results(for healthStore: HKHealthStore) -> Results {
        let descriptor = self
        return Results(live: LiveResults { continuation in
            let plan = try descriptor.plan()
            try await plan.run(on: healthStore, from: descriptor.anchor, live: true) {
                continuation.yield(Result($0))
            } update: {
                continuation.yield(Result($0))
            }
        })
    }
}
