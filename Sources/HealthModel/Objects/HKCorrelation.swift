public import Foundation

/// A sample that groups related samples: a blood pressure reading (one systolic and one diastolic
/// sample) or a food (its nutrient samples).
///
/// ```swift
/// let reading = try HKCorrelation.validated(
///     type: HKCorrelationType(.bloodPressure), start: now, end: now,
///     objects: [systolic, diastolic])
/// reading.objects(for: HKQuantityType(.bloodPressureSystolic)).count  // 1
/// ```
///
/// `NSSecureCoding`, as HealthKit's: the correlation archives its samples with it, each as its own class.
public final class HKCorrelation: HKSample, @unchecked Sendable {
    /// The correlation's type.
    public let correlationType: HKCorrelationType
    /// The samples the correlation holds.
    public let objects: Set<HKSample>

    package init(
        type: HKCorrelationType, start: Date, end: Date, objects: Set<HKSample>,
        uuid: UUID = UUID(), metadata: [String: HKMetadataValue]?,
        sourceRevision: HKSourceRevision = HKObject.unsavedRevision, device: HKDevice?
    ) {
        self.correlationType = type
        self.objects = objects
        super.init(sampleType: type, start: start, end: end, uuid: uuid, metadata: metadata, sourceRevision: sourceRevision, device: device)
    }

    /// Creates a correlation. An invalid argument stops the program, as HealthKit raises.
    public convenience init(type: HKCorrelationType, start: Date, end: Date, objects: Set<HKSample>) {
        self.init(type: type, start: start, end: end, objects: objects, device: nil, metadata: nil)
    }

    /// Creates a correlation with metadata. An invalid argument stops the program, as HealthKit raises.
    public convenience init(type: HKCorrelationType, start: Date, end: Date, objects: Set<HKSample>, metadata: [String: Any]?) {
        self.init(type: type, start: start, end: end, objects: objects, device: nil, metadata: metadata)
    }

    /// Creates a correlation with a device and metadata. An invalid argument stops the program, as HealthKit raises.
    public convenience init(
        type: HKCorrelationType, start: Date, end: Date, objects: Set<HKSample>, device: HKDevice?, metadata: [String: Any]?
    ) {
        let checked = trapOnInvalidArgument {
            try HKCorrelation.check(type: type, start: start, end: end, objects: objects, metadata: metadata)
        }
        self.init(type: type, start: start, end: end, objects: objects, metadata: checked, device: device)
    }

    /// Creates a correlation, or throws `HKError(.errorInvalidArgument)` naming the problem: an end before the start,
    /// no samples, a sample of a type this correlation may not hold, a blood pressure reading without exactly one
    /// systolic and one diastolic sample, or metadata HealthKit does not allow.
    public static func validated(
        type: HKCorrelationType, start: Date, end: Date, objects: Set<HKSample>,
        device: HKDevice? = nil, metadata: [String: Any]? = nil
    ) throws -> HKCorrelation {
        let checked = try check(type: type, start: start, end: end, objects: objects, metadata: metadata)
        return HKCorrelation(type: type, start: start, end: end, objects: objects, metadata: checked, device: device)
    }

    // MARK: NSSecureCoding

    private static let objectsKey = "objects"

    public override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(Array(objects), forKey: HKCorrelation.objectsKey)
    }

    public required convenience init?(coder: NSCoder) {
        guard case let (sample, type, objects)? = coder.decodeValid("HKCorrelation", {
            (try CodedSampleFields(coder: coder), try CodedSampleFields.sampleType(HKCorrelationType.self, from: coder),
             try coder.decode([HKSample].self, forKey: HKCorrelation.objectsKey))
        }) else { return nil }
        self.init(type: type, start: sample.start, end: sample.end, objects: Set(objects), uuid: sample.object.uuid,
                  metadata: sample.object.metadata, sourceRevision: sample.object.sourceRevision, device: sample.object.device)
    }

    /// The samples of one type in the correlation.
    public func objects(for objectType: HKObjectType) -> Set<HKSample> {
        objects.filter { $0.sampleType == objectType }
    }

    private static func check(
        type: HKCorrelationType, start: Date, end: Date, objects: Set<HKSample>, metadata: [String: Any]?
    ) throws -> [String: HKMetadataValue]? {
        try ObjectValidation.checkInterval(start: start, end: end, of: "a \(type.identifier) correlation")
        guard !objects.isEmpty else {
            throw HKError.invalidArgument("a \(type.identifier) correlation must hold at least one sample")
        }
        let allowed = type.memberTypeIdentifiers
        for object in objects where !allowed.contains(object.sampleType.identifier) {
            throw HKError.invalidArgument(
                "a \(type.identifier) correlation may not hold \(object.sampleType.identifier) samples"
            )
        }
        if type.identifier == HKCorrelationTypeIdentifier.bloodPressure.rawValue {
            for part in [HKQuantityTypeIdentifier.bloodPressureSystolic, .bloodPressureDiastolic] {
                let n = objects.count { $0.sampleType.identifier == part.rawValue }
                guard n == 1 else {
                    throw HKError.invalidArgument(
                        "a blood pressure correlation must hold exactly one \(part.rawValue) sample, not \(n)"
                    )
                }
            }
        }
        return try MetadataValidation.validate(metadata)
    }
}
