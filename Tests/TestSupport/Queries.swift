package import Foundation
package import OpenHealthKit
import Synchronization

/// Query helpers the suites share (on both backends in HealthServerTests, and the embedded import and privacy tests):
/// sample, source and correlation queries run and awaited, blood-pressure readings, and an observer's calls as a stream.

/// Runs an HKSampleQuery and waits for its handler.
package func run(_ store: HKHealthStore, type: HKSampleType, predicate: NSPredicate? = nil, limit: Int = HKObjectQueryNoLimit,
                 sort: [NSSortDescriptor]? = nil) async throws -> [HKSample] {
    try await withCheckedThrowingContinuation { continuation in
        store.execute(HKSampleQuery(sampleType: type, predicate: predicate, limit: limit, sortDescriptors: sort) { _, samples, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: samples ?? []) }
        })
    }
}

/// Runs an HKSourceQuery and waits for it.
package func sources(_ store: HKHealthStore, _ type: HKSampleType = HKQuantityType(.stepCount), predicate: NSPredicate? = nil) async throws
    -> Set<HKSource>
{
    try await withCheckedThrowingContinuation { continuation in
        store.execute(HKSourceQuery(sampleType: type, samplePredicate: predicate) { _, sources, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: sources ?? []) }
        })
    }
}

/// Runs an HKCorrelationQuery of blood pressure and waits for it.
package func correlations(_ store: HKHealthStore, predicate: NSPredicate? = nil,
                          members: [HKSampleType: NSPredicate]?) async throws -> [HKCorrelation] {
    try await withCheckedThrowingContinuation { continuation in
        store.execute(HKCorrelationQuery(type: HKCorrelationType(.bloodPressure), predicate: predicate, samplePredicates: members) { _, found, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: found ?? []) }
        })
    }
}

package let systolicType = HKQuantityType(.bloodPressureSystolic)
package let diastolicType = HKQuantityType(.bloodPressureDiastolic)

/// A blood-pressure reading `minute` minutes after `day0`.
package func bloodPressure(_ high: Double, _ low: Double, at minute: Double) -> HKCorrelation {
    let when = day0.addingTimeInterval(minute * 60)
    let mmHg = HKUnit.millimeterOfMercury()
    return HKCorrelation(type: HKCorrelationType(.bloodPressure), start: when, end: when, objects: [
        HKQuantitySample(type: systolicType, quantity: HKQuantity(unit: mmHg, doubleValue: high), start: when, end: when),
        HKQuantitySample(type: diastolicType, quantity: HKQuantity(unit: mmHg, doubleValue: low), start: when, end: when),
    ])
}

/// Collects an observer's calls; `complete()` calls the completion handler of the latest one.
package final class ObserverLog: Sendable {
    private let state = Mutex<(calls: Int, completion: HKObserverQueryCompletionHandler?)>((0, nil))
    package let stream: AsyncStream<Int>
    private let continuation: AsyncStream<Int>.Continuation

    package init() { (stream, continuation) = AsyncStream.makeStream() }

    package var calls: Int { state.withLock { $0.calls } }

    package var handler: HKObserverQuery.UpdateHandler {
        { [self] _, completion, _ in
            let n = state.withLock { state in
                state.calls += 1
                state.completion = completion
                return state.calls
            }
            continuation.yield(n)
        }
    }

    package func complete() { state.withLock { $0.completion }?() }
}
