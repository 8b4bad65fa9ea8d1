package import Foundation
package import OpenHealthKit
import Synchronization

/// What the anchored-query suites share (on both backends in HealthServerTests, and the embedded privacy property
/// test): a one-shot anchored query run and awaited, and a long-running one's answers as a stream.

/// What one answer of an anchored query carried.
package struct AnchoredAnswer: Sendable {
    package var samples: [HKSample]
    package var deleted: [HKDeletedObject]
    package var anchor: HKQueryAnchor?

    /// The step counts of the samples (quantity samples counted in `count`).
    package var counts: [Double] { samples.map { ($0 as! HKQuantitySample).quantity.doubleValue(for: .count()) } }
}

/// Runs a one-shot anchored query and waits for its results.
package func runAnchored(_ store: HKHealthStore, type: HKSampleType = HKQuantityType(.stepCount), predicate: NSPredicate? = nil,
                         anchor: HKQueryAnchor?, limit: Int = HKObjectQueryNoLimit) async throws -> AnchoredAnswer {
    try await withCheckedThrowingContinuation { continuation in
        store.execute(HKAnchoredObjectQuery(type: type, predicate: predicate, anchor: anchor, limit: limit) { _, samples, deleted, anchor, error in
            if let error { continuation.resume(throwing: error) }
            else { continuation.resume(returning: AnchoredAnswer(samples: samples ?? [], deleted: deleted ?? [], anchor: anchor)) }
        })
    }
}

/// Collects every answer of a long-running query (first results, then updates) into a stream.
package final class AnswerStream: Sendable {
    package let answers: AsyncStream<AnchoredAnswer>
    private let continuation: AsyncStream<AnchoredAnswer>.Continuation
    private let count = Mutex(0)

    /// How many answers arrived so far.
    package var delivered: Int { count.withLock { $0 } }

    package init() { (answers, continuation) = AsyncStream.makeStream() }

    package var handler: HKAnchoredObjectQuery.Handler {
        { [self] _, samples, deleted, anchor, _ in
            count.withLock { $0 += 1 }
            continuation.yield(AnchoredAnswer(samples: samples ?? [], deleted: deleted ?? [], anchor: anchor))
        }
    }
}
