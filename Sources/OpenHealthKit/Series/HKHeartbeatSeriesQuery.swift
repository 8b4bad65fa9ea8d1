public import Foundation
import HealthStore
import Synchronization

/// Reads the beats of a heartbeat series, one call of the handler per beat, in order; `done` is true with the last.
///
/// ```swift
/// let query = HKHeartbeatSeriesQuery(heartbeatSeries: series) { _, timeSinceStart, precededByGap, done, error in
///     beats.append(timeSinceStart)
///     if done { plot(beats) }
/// }
/// store.execute(query)
/// ```
///
/// A series the app may not read (no read permission for `HKSeriesType.heartbeat()` and not its own) is reported
/// exactly like one that is not in the store: `errorNoData`, so an app cannot tell the two apart.
open class HKHeartbeatSeriesQuery: HKQuery, @unchecked Sendable {
    // @unchecked: set-once properties; the running task is behind a Mutex.

    public typealias DataHandler = @Sendable (HKHeartbeatSeriesQuery, TimeInterval, Bool, Bool, (any Error)?) -> Void

    private let series: HKHeartbeatSeriesSample
    private let handler: DataHandler
    private let task = Mutex<Task<Void, Never>?>(nil)

    public init(heartbeatSeries: HKHeartbeatSeriesSample, dataHandler: @escaping DataHandler) {
        series = heartbeatSeries
        handler = dataHandler
        super.init(objectType: HKSeriesType.heartbeat(), predicate: HKQuery.predicateForObject(with: heartbeatSeries.uuid))
    }

    /// The series' beats, when the reader of `store` may see the series.
    static func beats(of series: HKHeartbeatSeriesSample, on store: HKHealthStore) async throws -> [HeartbeatSeriesBeat] {
        try await store.backend().heartbeats(of: series.uuid)
    }
}

extension HKHeartbeatSeriesQuery: ExecutableQuery {
    func start(on store: HKHealthStore) {
        let series = self.series
        let started = Task.detached { [self] in
            do {
                let beats = try await Self.beats(of: series, on: store)
                guard !beats.isEmpty else {
                    guard !Task.isCancelled else { return }
                    return handler(self, 0, false, true, nil)
                }
                for (index, beat) in beats.enumerated() {
                    guard !Task.isCancelled else { return }
                    handler(self, beat.offset, beat.precededByGap, index == beats.count - 1, nil)
                }
            } catch {
                guard !Task.isCancelled else { return }
                handler(self, 0, false, true, error)
            }
        }
        task.withLock { $0 = started }
    }

    func stop() {
        task.withLock { $0?.cancel() }
    }
}
