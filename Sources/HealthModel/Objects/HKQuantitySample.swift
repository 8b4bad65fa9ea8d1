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

    private static func check(
        type: HKQuantityType, quantity: HKQuantity, start: Date, end: Date, metadata: [String: Any]?
    ) throws -> [String: HKMetadataValue]? {
        try ObjectValidation.checkInterval(start: start, end: end, of: "a \(type.identifier) sample")
        try ObjectValidation.checkQuantity(quantity, for: type)
        return try MetadataValidation.validate(metadata, sampleType: type)
    }
}
