public import Foundation

/// The abstract base of samples that hold a series of data points, read with a series query. It archives its
/// ``count`` (`NSSecureCoding`); only its concrete subclasses decode.
public class HKSeriesSample: HKSample, @unchecked Sendable {
    /// How many data points the series holds.
    public let count: Int

    package init(type: HKSeriesType, count: Int, start: Date, end: Date, uuid: UUID, metadata: [String: HKMetadataValue]?,
                 sourceRevision: HKSourceRevision, device: HKDevice?) {
        self.count = count
        super.init(sampleType: type, start: start, end: end, uuid: uuid, metadata: metadata, sourceRevision: sourceRevision, device: device)
    }

    // MARK: NSSecureCoding

    private static let countKey = "count"

    public override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(count, forKey: HKSeriesSample.countKey)
    }

    /// `HKSeriesSample` is abstract: decoding it fails.
    public required convenience init?(coder: NSCoder) {
        coder.reportFailure(.invalid("\(Self.self) is abstract; only concrete series sample classes decode"), decoding: "\(Self.self)")
        return nil
    }

    /// The archived count, which may not be negative.
    package static func decodeCount(from coder: NSCoder) throws -> Int {
        let count = try coder.decodeRequiredInteger(forKey: countKey)
        guard count >= 0 else { throw ArchiveError.invalid("a series holds \(count) values") }
        return count
    }
}

/// The route of a workout: a series of locations, read with `HKWorkoutRouteQuery` (or its descriptor) and associated
/// with its workout (`HKQuery.predicateForObjects(from: workout)` finds it).
///
/// ```swift
/// let routes = HKSampleQuery(sampleType: HKSeriesType.workoutRoute(), predicate: .predicateForObjects(from: workout),
///                            limit: HKObjectQueryNoLimit, sortDescriptors: nil) { _, samples, _ in … }
/// ```
///
/// `NSSecureCoding`, as HealthKit's: its count, dates and object fields (the locations stay in the store).
public final class HKWorkoutRoute: HKSeriesSample, @unchecked Sendable {
    package init(count: Int, start: Date, end: Date, uuid: UUID = UUID(), metadata: [String: HKMetadataValue]?,
                 sourceRevision: HKSourceRevision = HKObject.unsavedRevision, device: HKDevice?) {
        super.init(type: HKSeriesType.workoutRoute(), count: count, start: start, end: end, uuid: uuid, metadata: metadata,
                   sourceRevision: sourceRevision, device: device)
    }

    public required convenience init?(coder: NSCoder) {
        guard case let (sample, count)? = coder.decodeValid("HKWorkoutRoute", {
            (try CodedSampleFields(coder: coder), try HKSeriesSample.decodeCount(from: coder))
        }) else { return nil }
        self.init(count: count, start: sample.start, end: sample.end, uuid: sample.object.uuid, metadata: sample.object.metadata,
                  sourceRevision: sample.object.sourceRevision, device: sample.object.device)
    }
}
