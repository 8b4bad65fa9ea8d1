public import Foundation

/// A series of heartbeats: the time of each beat since the sample's start, and whether a gap (beats possibly missing)
/// comes before it. Apple Watch records one with each heart-rate variability reading. Build one with
/// `HKHeartbeatSeriesBuilder`; read its beats with `HKHeartbeatSeriesQuery` or `HKHeartbeatSeriesQueryDescriptor`.
///
/// ```swift
/// for try await beat in HKHeartbeatSeriesQueryDescriptor(series).results(for: store) {
///     print(beat.timeIntervalSinceStart, beat.precededByGap)
/// }
/// ```
///
/// `NSSecureCoding`, as HealthKit's: its count, dates and object fields (the beats stay in the store).
public final class HKHeartbeatSeriesSample: HKSeriesSample, @unchecked Sendable {
    /// The beats, when the sample was built in this process (by a builder or an import) and not yet saved; a sample
    /// read from the store leaves them there, for the series query.
    package let beats: [HeartbeatSeriesBeat]?

    package init(count: Int, start: Date, end: Date, beats: [HeartbeatSeriesBeat]? = nil, uuid: UUID = UUID(),
                 metadata: [String: HKMetadataValue]?, sourceRevision: HKSourceRevision = HKObject.unsavedRevision, device: HKDevice?) {
        self.beats = beats
        super.init(type: HKSeriesType.heartbeat(), count: count, start: start, end: end, uuid: uuid, metadata: metadata,
                   sourceRevision: sourceRevision, device: device)
    }

    public required convenience init?(coder: NSCoder) {
        guard case let (sample, count)? = coder.decodeValid("HKHeartbeatSeriesSample", {
            (try CodedSampleFields(coder: coder), try HKSeriesSample.decodeCount(from: coder))
        }) else { return nil }
        self.init(count: count, start: sample.start, end: sample.end, uuid: sample.object.uuid, metadata: sample.object.metadata,
                  sourceRevision: sample.object.sourceRevision, device: sample.object.device)
    }
}

/// One beat of a heartbeat series, as stored.
package struct HeartbeatSeriesBeat: Sendable, Hashable {
    /// Seconds from the series' start to the beat.
    package var offset: TimeInterval
    /// Whether beats may be missing just before this one.
    package var precededByGap: Bool

    package init(offset: TimeInterval, precededByGap: Bool) {
        self.offset = offset
        self.precededByGap = precededByGap
    }
}
