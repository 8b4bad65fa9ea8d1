public import Foundation

/// A sample holding one quantity, such as 1,200 steps or 72 beats per minute.
///
/// Apple's initializers stop the program on an invalid argument, as HealthKit raises.
/// ``validated(type:quantity:start:end:device:metadata:)`` throws instead, and returns the
/// ``HKCumulativeQuantitySample`` or ``HKDiscreteQuantitySample`` the type's aggregation style calls for:
///
/// ```swift
/// let heartRate = try HKQuantitySample.validated(
///     type: HKQuantityType(.heartRate),
///     quantity: HKQuantity(unit: HKUnit(from: "count/min"), doubleValue: 72),
///     start: now, end: now)
/// heartRate is HKDiscreteQuantitySample   // true
/// ```
///
/// `NSSecureCoding`, as HealthKit's: a sample comes back as the same class with its type, quantity (unit and exact
/// value), count, dates and object fields. A quantity in a unit the type does not allow, or a cumulative sample of a
/// discrete type (and the reverse), fails the decode.
public class HKQuantitySample: HKSample, @unchecked Sendable {
    /// The sample's quantity type.
    public let quantityType: HKQuantityType
    /// The sample's value. For a series (``count`` > 1) it is the sum (cumulative types) or the average (discrete types).
    public let quantity: HKQuantity
    /// How many quantities the sample summarises: 1, or more for a series sample.
    public let count: Int

    package init(
        type: HKQuantityType, quantity: HKQuantity, start: Date, end: Date, count: Int = 1,
        uuid: UUID = UUID(), metadata: [String: HKMetadataValue]?,
        sourceRevision: HKSourceRevision = HKObject.unsavedRevision, device: HKDevice?
    ) {
        self.quantityType = type
        self.quantity = quantity
        self.count = count
        super.init(sampleType: type, start: start, end: end, uuid: uuid, metadata: metadata, sourceRevision: sourceRevision, device: device)
    }

    /// Creates a quantity sample. An invalid argument stops the program, as HealthKit raises.
    public convenience init(type: HKQuantityType, quantity: HKQuantity, start: Date, end: Date) {
        self.init(type: type, quantity: quantity, start: start, end: end, device: nil, metadata: nil)
    }

    /// Creates a quantity sample with metadata. An invalid argument stops the program, as HealthKit raises.
    public convenience init(type: HKQuantityType, quantity: HKQuantity, start: Date, end: Date, metadata: [String: Any]?) {
        self.init(type: type, quantity: quantity, start: start, end: end, device: nil, metadata: metadata)
    }

    /// Creates a quantity sample with a device and metadata. An invalid argument stops the program, as HealthKit raises.
    public convenience init(
        type: HKQuantityType, quantity: HKQuantity, start: Date, end: Date, device: HKDevice?, metadata: [String: Any]?
    ) {
        let checked = trapOnInvalidArgument {
            try HKQuantitySample.check(type: type, quantity: quantity, start: start, end: end, metadata: metadata)
        }
        self.init(type: type, quantity: quantity, start: start, end: end, metadata: checked, device: device)
    }

    /// Creates a quantity sample, or throws `HKError(.errorInvalidArgument)` naming the problem: an end before the
    /// start, a unit that does not fit the type, a NaN or infinite value, or metadata HealthKit does not allow.
    /// The result is an ``HKCumulativeQuantitySample`` for cumulative types and an ``HKDiscreteQuantitySample`` otherwise.
    public static func validated(
        type: HKQuantityType, quantity: HKQuantity, start: Date, end: Date,
        device: HKDevice? = nil, metadata: [String: Any]? = nil
    ) throws -> HKQuantitySample {
        let checked = try check(type: type, quantity: quantity, start: start, end: end, metadata: metadata)
        return make(type: type, quantity: quantity, start: start, end: end, metadata: checked, device: device)
    }

    /// Builds the subclass the type's aggregation style calls for, from already validated values.
    package static func make(
        type: HKQuantityType, quantity: HKQuantity, start: Date, end: Date, count: Int = 1,
        uuid: UUID = UUID(), metadata: [String: HKMetadataValue]?,
        sourceRevision: HKSourceRevision = HKObject.unsavedRevision, device: HKDevice?
    ) -> HKQuantitySample {
        if type.aggregationStyle == .cumulative {
            return HKCumulativeQuantitySample(
                type: type, quantity: quantity, start: start, end: end, count: count,
                uuid: uuid, metadata: metadata, sourceRevision: sourceRevision, device: device)
        }
        return HKDiscreteQuantitySample(
            type: type, quantity: quantity, start: start, end: end, count: count,
            uuid: uuid, metadata: metadata, sourceRevision: sourceRevision, device: device)
    }

    // MARK: NSSecureCoding

    private enum Key {
        static let quantity = "quantity"
        static let count = "count"
    }

    public override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(quantity, forKey: Key.quantity)
        coder.encode(count, forKey: Key.count)
    }

    public required convenience init?(coder: NSCoder) {
        let decodedClass = Self.self
        guard let fields = coder.decodeValid("\(decodedClass)", { try CodedFields(coder: coder, of: decodedClass) }) else { return nil }
        self.init(type: fields.type, quantity: fields.quantity, start: fields.sample.start, end: fields.sample.end, count: fields.count,
                  uuid: fields.sample.object.uuid, metadata: fields.sample.object.metadata,
                  sourceRevision: fields.sample.object.sourceRevision, device: fields.sample.object.device)
    }

    /// The fields every quantity sample archives, checked against the class being decoded: cumulative samples hold a
    /// cumulative type, discrete samples any other, and the quantity is finite and in a unit the type allows.
    package struct CodedFields {
        package let sample: CodedSampleFields
        package let type: HKQuantityType
        package let quantity: HKQuantity
        package let count: Int

        package init(coder: NSCoder, of sampleClass: HKQuantitySample.Type) throws {
            sample = try CodedSampleFields(coder: coder)
            type = try CodedSampleFields.sampleType(HKQuantityType.self, from: coder)
            quantity = try coder.decode(HKQuantity.self, forKey: Key.quantity)
            count = try coder.decodeRequiredInteger(forKey: Key.count)
            guard count >= 1 else { throw ArchiveError.invalid("a quantity sample summarises \(count) values; it needs at least 1") }
            do {
                try ObjectValidation.checkQuantity(quantity, for: type)
            } catch {
                throw ArchiveError.invalid((error as? HKError)?.message ?? "\(error)")
            }
            let cumulative = type.aggregationStyle == .cumulative
            if sampleClass == HKCumulativeQuantitySample.self && !cumulative || sampleClass == HKDiscreteQuantitySample.self && cumulative {
                throw ArchiveError.invalid("\(type.identifier) is \(type.aggregationStyle); an \(sampleClass) cannot hold it")
            }
        }
    }

    package static func check(
        type: HKQuantityType, quantity: HKQuantity, start: Date, end: Date, metadata: [String: Any]?
    ) throws -> [String: HKMetadataValue]? {
        try ObjectValidation.checkInterval(start: start, end: end, of: "a \(type.identifier) sample")
        try ObjectValidation.checkQuantity(quantity, for: type)
        return try MetadataValidation.validate(metadata, sampleType: type)
    }
}
