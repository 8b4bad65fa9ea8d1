public import Foundation

/// A sample holding one value of a category type's enumeration, such as a night's sleep stage.
///
/// ```swift
/// let rem = HKCategorySample(type: HKCategoryType(.sleepAnalysis),
///                            value: HKCategoryValueSleepAnalysis.asleepREM.rawValue,
///                            start: start, end: end)
/// // or, recovering from bad input:
/// let checked = try HKCategorySample.validated(type: HKCategoryType(.headache), value: 9, start: start, end: end)
/// // throws HKError(.errorInvalidArgument): "9 is not a valid value for HKCategoryTypeIdentifierHeadache; …"
/// ```
///
/// `NSSecureCoding`, as HealthKit's: the type, value, dates and object fields come back as archived.
public final class HKCategorySample: HKSample, @unchecked Sendable {
    /// The sample's category type.
    public let categoryType: HKCategoryType
    /// The raw value of the type's enumeration (e.g. `HKCategoryValueSleepAnalysis.asleepREM.rawValue`).
    public let value: Int

    package init(
        type: HKCategoryType, value: Int, start: Date, end: Date,
        uuid: UUID = UUID(), metadata: [String: HKMetadataValue]?,
        sourceRevision: HKSourceRevision = HKObject.unsavedRevision, device: HKDevice?
    ) {
        self.categoryType = type
        self.value = value
        super.init(sampleType: type, start: start, end: end, uuid: uuid, metadata: metadata, sourceRevision: sourceRevision, device: device)
    }

    /// Creates a category sample. An invalid argument stops the program, as HealthKit raises.
    public convenience init(type: HKCategoryType, value: Int, start: Date, end: Date) {
        self.init(type: type, value: value, start: start, end: end, device: nil, metadata: nil)
    }

    /// Creates a category sample with metadata. An invalid argument stops the program, as HealthKit raises.
    public convenience init(type: HKCategoryType, value: Int, start: Date, end: Date, metadata: [String: Any]?) {
        self.init(type: type, value: value, start: start, end: end, device: nil, metadata: metadata)
    }

    /// Creates a category sample with a device and metadata. An invalid argument stops the program, as HealthKit raises.
    public convenience init(type: HKCategoryType, value: Int, start: Date, end: Date, device: HKDevice?, metadata: [String: Any]?) {
        let checked = trapOnInvalidArgument {
            try HKCategorySample.check(type: type, value: value, start: start, end: end, metadata: metadata)
        }
        self.init(type: type, value: value, start: start, end: end, metadata: checked, device: device)
    }

    // MARK: NSSecureCoding

    private static let valueKey = "value"

    public override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(value, forKey: HKCategorySample.valueKey)
    }

    public required convenience init?(coder: NSCoder) {
        guard case let (sample, type, value)? = coder.decodeValid("HKCategorySample", {
            (try CodedSampleFields(coder: coder), try CodedSampleFields.sampleType(HKCategoryType.self, from: coder),
             try coder.decodeRequiredInteger(forKey: HKCategorySample.valueKey))
        }) else { return nil }
        self.init(type: type, value: value, start: sample.start, end: sample.end, uuid: sample.object.uuid, metadata: sample.object.metadata,
                  sourceRevision: sample.object.sourceRevision, device: sample.object.device)
    }

    /// Creates a category sample, or throws `HKError(.errorInvalidArgument)` naming the problem: an end before
    /// the start, a value outside the type's enumeration, or metadata HealthKit does not allow.
    public static func validated(
        type: HKCategoryType, value: Int, start: Date, end: Date, device: HKDevice? = nil, metadata: [String: Any]? = nil
    ) throws -> HKCategorySample {
        let checked = try check(type: type, value: value, start: start, end: end, metadata: metadata)
        return HKCategorySample(type: type, value: value, start: start, end: end, metadata: checked, device: device)
    }

    private static func check(
        type: HKCategoryType, value: Int, start: Date, end: Date, metadata: [String: Any]?
    ) throws -> [String: HKMetadataValue]? {
        try ObjectValidation.checkInterval(start: start, end: end, of: "a \(type.identifier) sample")
        try ObjectValidation.checkCategoryValue(value, for: type)
        return try MetadataValidation.validate(metadata)
    }
}
