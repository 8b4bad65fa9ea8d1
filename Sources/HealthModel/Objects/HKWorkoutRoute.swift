public import Foundation

/// The abstract base of samples that hold a series of data points, read with a series query.
public class HKSeriesSample: HKSample, @unchecked Sendable {
    /// How many data points the series holds.
    public let count: Int

    package init(type: HKSeriesType, count: Int, start: Date, end: Date, uuid: UUID, metadata: [String: HKMetadataValue]?,
                 sourceRevision: HKSourceRevision, device: HKDevice?) {
        self.count = count
        super.init(sampleType: type, start: start, end: end, uuid: uuid, metadata: metadata, sourceRevision: sourceRevision, device: device)
    }
}

/// The route of a workout: a series of locations, read with `HKWorkoutRouteQuery` (or its descriptor) and associated
/// with its workout (`HKQuery.predicateForObjects(from: workout)` finds it).
///
/// ```swift
/// let routes = HKSampleQuery(sampleType: HKSeriesType.workoutRoute(), predicate: .predicateForObjects(from: workout),
///                            limit: HKObjectQueryNoLimit, sortDescriptors: nil) { _, samples, _ in … }
/// ```
public final class HKWorkoutRoute: HKSeriesSample, @unchecked Sendable {
    package init(count: Int, start: Date, end: Date, uuid: UUID = UUID(), metadata: [String: HKMetadataValue]?,
                 sourceRevision: HKSourceRevision = HKObject.unsavedRevision, device: HKDevice?) {
        super.init(type: HKSeriesType.workoutRoute(), count: count, start: start, end: end, uuid: uuid, metadata: metadata,
                   sourceRevision: sourceRevision, device: device)
    }
}
