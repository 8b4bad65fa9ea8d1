public import Foundation

/// The voltage measurements of an electrocardiogram as an asynchronous sequence, in order.
///
/// ```swift
/// for try await measurement in HKElectrocardiogramQueryDescriptor(ecg).results(for: store) {
///     trace.append(measurement.quantity(for: .appleWatchSimilarToLeadI))
/// }
/// ```
public struct HKElectrocardiogramQueryDescriptor: HKAsyncSequenceQuery, Sendable {
    public var electrocardiogram: HKElectrocardiogram

    public init(_ electrocardiogram: HKElectrocardiogram) {
        self.electrocardiogram = electrocardiogram
    }

    public struct Results: AsyncSequence, Sendable {
        public typealias Element = HKElectrocardiogram.VoltageMeasurement
        let live: LiveResults<HKElectrocardiogram.VoltageMeasurement>

        /// Steps through the results as they come.
        public struct Iterator: AsyncIteratorProtocol {
            var base: AsyncThrowingStream<HKElectrocardiogram.VoltageMeasurement, any Error>.AsyncIterator
            public mutating func next() async throws -> HKElectrocardiogram.VoltageMeasurement? { try await base.next() }
        }

        public func makeAsyncIterator() -> Iterator { Iterator(base: live.makeStream().makeAsyncIterator()) }
    }

    public func results(for healthStore: HKHealthStore) -> Results {
        let ecg = electrocardiogram
        return Results(live: LiveResults { continuation in
            for measurement in try await HKElectrocardiogramQuery.measurements(of: ecg, on: healthStore) {
                guard !Task.isCancelled else { return }
                continuation.yield(measurement)
            }
        })
    }
}
