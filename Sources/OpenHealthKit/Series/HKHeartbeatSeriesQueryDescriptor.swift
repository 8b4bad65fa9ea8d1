public import Foundation

/// The beats of a heartbeat series as an asynchronous sequence, in order.
///
/// ```swift
/// for try await beat in HKHeartbeatSeriesQueryDescriptor(series).results(for: store) {
///     intervals.append(beat.timeIntervalSinceStart)
/// }
/// ```
public struct HKHeartbeatSeriesQueryDescriptor: HKAsyncSequenceQuery, Sendable {
    public var sample: HKHeartbeatSeriesSample

    public init(_ sample: HKHeartbeatSeriesSample) {
        self.sample = sample
    }

    /// One beat: its time since the series' start, and whether beats may be missing just before it.
    public struct Heartbeat: Hashable, Sendable {
        public let timeIntervalSinceStart: TimeInterval
        public let precededByGap: Bool
    }

    public struct Results: AsyncSequence, Sendable {
        public typealias Element = Heartbeat
        let live: LiveResults<Heartbeat>

        /// Steps through the results as they come.
        public struct Iterator: AsyncIteratorProtocol {
            var base: AsyncThrowingStream<Heartbeat, any Error>.AsyncIterator
            public mutating func next() async throws -> Heartbeat? { try await base.next() }
        }

        public func makeAsyncIterator() -> Iterator { Iterator(base: live.makeStream().makeAsyncIterator()) }
    }

    public func results(for healthStore: HKHealthStore) -> Results {
        let series = sample
        return Results(live: LiveResults { continuation in
            for beat in try await HKHeartbeatSeriesQuery.beats(of: series, on: healthStore) {
                guard !Task.isCancelled else { return }
                continuation.yield(Heartbeat(timeIntervalSinceStart: beat.offset, precededByGap: beat.precededByGap))
            }
        })
    }
}
