public import Foundation

/// Builds a heartbeat series beat by beat, then saves it (the app must be allowed to share
/// `HKSeriesType.heartbeat()`).
///
/// ```swift
/// let builder = HKHeartbeatSeriesBuilder(healthStore: store, device: .local(), start: start)
/// for beat in beatTimes { try await builder.addHeartbeat(at: beat, precededByGap: false) }
/// let series = try await builder.finishSeries()   // its count is the number of beats; it ends at the last one
/// ```
///
/// Beats come in order: each after the one before, at zero seconds or more from the start. A beat out of order, or a
/// call after the series was finished or discarded, is `errorInvalidArgument` and says why.
open class HKHeartbeatSeriesBuilder: HKSeriesBuilder, @unchecked Sendable {
    // @unchecked: the beats and metadata live in `state`, behind `lock`.

    private let healthStore: HKHealthStore
    private let device: HKDevice?
    private let startDate: Date
    private let lock = NSLock()
    private var state = (beats: [HeartbeatSeriesBeat](), metadata: [String: HKMetadataValue](), closed: String?.none)

    public init(healthStore: HKHealthStore, device: HKDevice?, start startDate: Date) {
        self.healthStore = healthStore
        self.device = device
        self.startDate = startDate
        super.init()
    }

    /// Adds a beat `timeIntervalSinceStart` seconds after the series' start; `precededByGap` says beats may be missing
    /// just before it.
    open func addHeartbeat(at timeIntervalSinceStart: TimeInterval, precededByGap: Bool) async throws {
        try mutate { state in
            guard timeIntervalSinceStart.isFinite, timeIntervalSinceStart >= 0 else {
                throw HKError.invalidArgument("a heartbeat's time since the series' start is \(timeIntervalSinceStart) s; it must be 0 or more")
            }
            if let last = state.beats.last, timeIntervalSinceStart <= last.offset {
                throw HKError.invalidArgument(
                    "heartbeats come in order: \(timeIntervalSinceStart) s does not come after the previous beat at \(last.offset) s")
            }
            state.beats.append(HeartbeatSeriesBeat(offset: timeIntervalSinceStart, precededByGap: precededByGap))
        }
    }

    /// Completion-handler form of ``addHeartbeat(at:precededByGap:)``.
    open func addHeartbeatWithTimeInterval(sinceSeriesStartDate timeIntervalSinceStart: TimeInterval, precededByGap: Bool,
                                           completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        completeDetached(completion) { try await self.addHeartbeat(at: timeIntervalSinceStart, precededByGap: precededByGap) }
    }

    /// Adds metadata to the series (checked as a sample's is); a key added again takes the new value.
    open func addMetadata(_ metadata: [String: Any]) async throws {
        let checked = try MetadataValidation.validate(metadata) ?? [:]
        try mutate { state in state.metadata.merge(checked) { _, new in new } }
    }

    /// Completion-handler form of ``addMetadata(_:)``.
    open func addMetadata(_ metadata: [String: Any], completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        let checked: [String: HKMetadataValue]
        do { checked = try MetadataValidation.validate(metadata) ?? [:] } catch {
            return completeDetached(completion) { throw error }
        }
        completeDetached(completion) { try await self.addMetadata(checked.anyDictionary) }
    }

    /// Saves the series: from the start to the last beat, holding every beat added. It needs at least one beat.
    open func finishSeries() async throws -> HKHeartbeatSeriesSample {
        let (beats, metadata) = try mutate { state in
            guard !state.beats.isEmpty else { throw HKError.invalidArgument("a heartbeat series needs at least one beat") }
            state.closed = "finished"
            return (state.beats, state.metadata)
        }
        let series = HKHeartbeatSeriesSample(count: beats.count, start: startDate, end: startDate.addingTimeInterval(beats.last!.offset),
                                             beats: beats, metadata: metadata.isEmpty ? nil : metadata, device: device)
        do {
            try await healthStore.save(series)
        } catch {
            withLock { $0.closed = nil }  // not saved: the app may fix its permission and finish again
            throw error
        }
        return series
    }

    /// Completion-handler form of ``finishSeries()``.
    open func finishSeries(completion: @escaping @Sendable (HKHeartbeatSeriesSample?, (any Error)?) -> Void) {
        Task.detached {
            do { completion(try await self.finishSeries(), nil) } catch { completion(nil, error) }
        }
    }

    open override func discard() {
        withLock { state in
            state.beats = []
            state.metadata = [:]
            state.closed = "discarded"
        }
    }

    private func withLock<T>(_ body: (inout (beats: [HeartbeatSeriesBeat], metadata: [String: HKMetadataValue], closed: String?)) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }

    private func mutate<T>(_ body: (inout (beats: [HeartbeatSeriesBeat], metadata: [String: HKMetadataValue], closed: String?)) throws -> T)
        throws -> T
    {
        lock.lock()
        defer { lock.unlock() }
        if let closed = state.closed { throw HKError.invalidArgument("the heartbeat series builder is \(closed)") }
        var copy = state
        let result = try body(&copy)
        state = copy
        return result
    }
}
