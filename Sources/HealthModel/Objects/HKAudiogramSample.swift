public import Foundation

/// A hearing test's result: sensitivities at up to 30 frequencies, in ascending order, each with its tests (an ear, air
/// conduction, masked or not, and the range it may have been clamped to). Apps save and read them under the usual
/// consent for `HKObjectType.audiogramSampleType()`; an Apple Health export's `<Audiogram>` elements import as them and
/// are written back.
///
/// ```swift
/// let point = try HKAudiogramSensitivityPoint(frequency: HKQuantity(unit: .hertz(), doubleValue: 1000), tests: [
///     try HKAudiogramSensitivityTest(sensitivity: HKQuantity(unit: .decibelHearingLevel(), doubleValue: 20),
///                                    type: .air, masked: false, side: .left, clampingRange: nil)])
/// let audiogram = HKAudiogramSample(sensitivityPoints: [point], start: start, end: end, metadata: nil)
/// ```
///
/// `NSSecureCoding`, as HealthKit's: the points, dates and object fields.
public final class HKAudiogramSample: HKSample, @unchecked Sendable {
    /// The sensitivities, by ascending frequency.
    public let sensitivityPoints: [HKAudiogramSensitivityPoint]

    package init(sensitivityPoints: [HKAudiogramSensitivityPoint], start: Date, end: Date, uuid: UUID = UUID(),
                 metadata: [String: HKMetadataValue]?, sourceRevision: HKSourceRevision = HKObject.unsavedRevision, device: HKDevice?) {
        self.sensitivityPoints = sensitivityPoints
        super.init(sampleType: HKObjectType.audiogramSampleType(), start: start, end: end, uuid: uuid, metadata: metadata,
                   sourceRevision: sourceRevision, device: device)
    }

    /// Creates an audiogram. Bad points (more than 30, frequencies not unique and ascending), an end before the start or
    /// metadata HealthKit does not allow stop the program, as HealthKit raises; ``validated(sensitivityPoints:start:end:device:metadata:)``
    /// throws instead.
    @available(*, deprecated, message: "Use init(sensitivityPoints:start:end:device:metadata:)")
    public convenience init(sensitivityPoints: [HKAudiogramSensitivityPoint], start: Date, end: Date, metadata: [String: Any]?) {
        self.init(sensitivityPoints: sensitivityPoints, start: start, end: end, device: nil, metadata: metadata)
    }

    /// Creates an audiogram measured by `device`. Bad input stops the program, as HealthKit raises.
    public convenience init(sensitivityPoints: [HKAudiogramSensitivityPoint], start: Date, end: Date, device: HKDevice?, metadata: [String: Any]?) {
        let checked = trapOnInvalidArgument { try HKAudiogramSample.check(sensitivityPoints, start: start, end: end, metadata: metadata) }
        self.init(sensitivityPoints: sensitivityPoints, start: start, end: end, metadata: checked, device: device)
    }

    /// Creates an audiogram, or throws `HKError(.errorInvalidArgument)` naming the problem.
    public static func validated(sensitivityPoints: [HKAudiogramSensitivityPoint], start: Date, end: Date, device: HKDevice? = nil,
                                 metadata: [String: Any]? = nil) throws -> HKAudiogramSample {
        let checked = try check(sensitivityPoints, start: start, end: end, metadata: metadata)
        return HKAudiogramSample(sensitivityPoints: sensitivityPoints, start: start, end: end, metadata: checked, device: device)
    }

    /// Throws unless the points are at most 30, with unique frequencies in ascending order.
    package static func checkPoints(_ points: [HKAudiogramSensitivityPoint]) throws {
        guard points.count <= 30 else { throw HKError.invalidArgument("an audiogram holds at most 30 sensitivity points, not \(points.count)") }
        for (previous, next) in zip(points, points.dropFirst()) where next.hertz <= previous.hertz {
            throw HKError.invalidArgument("an audiogram's frequencies are unique and ascending: \(next.hertz) Hz comes after \(previous.hertz) Hz")
        }
    }

    private static func check(_ points: [HKAudiogramSensitivityPoint], start: Date, end: Date, metadata: [String: Any]?) throws
        -> [String: HKMetadataValue]?
    {
        try ObjectValidation.checkInterval(start: start, end: end, of: "an audiogram")
        try checkPoints(points)
        return try MetadataValidation.validate(metadata)
    }

    // MARK: NSSecureCoding

    private static let pointsKey = "sensitivityPoints"

    public override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(HKAudiogramSensitivityPoint.json(sensitivityPoints), forKey: HKAudiogramSample.pointsKey)
    }

    public required convenience init?(coder: NSCoder) {
        guard case let (sample, points)? = coder.decodeValid("HKAudiogramSample", {
            (try CodedSampleFields(coder: coder),
             try HKAudiogramSensitivityPoint.points(json: try coder.decode(String.self, forKey: HKAudiogramSample.pointsKey)))
        }) else { return nil }
        guard (try? HKAudiogramSample.checkPoints(points)) != nil else {
            coder.reportFailure(.invalid("an audiogram's points are not unique ascending frequencies"), decoding: "HKAudiogramSample")
            return nil
        }
        self.init(sensitivityPoints: points, start: sample.start, end: sample.end, uuid: sample.object.uuid, metadata: sample.object.metadata,
                  sourceRevision: sample.object.sourceRevision, device: sample.object.device)
    }
}
