import Foundation
import HealthModel
import SwiftASN1

/// What a device signs for one sample, in OpenHealthKit's layout: the content a `HKMetadataKeyDigitalSignature` carries
/// (CMS SignedData with the content attached, RFC 5652), so that a verified signature also shows that the sample's values
/// are the ones the device measured. Apple's documentation asks for "the data items to be signed (timestamp, value,
/// etc.) using ASN.1 encoding with DER" without a public layout; this is ours:
///
/// ```
/// SignedSample ::= SEQUENCE {
///     version    INTEGER,          -- 1
///     type       UTF8String,       -- the sample type's identifier
///     startDate  GeneralizedTime,  -- UTC, with fractional seconds
///     endDate    GeneralizedTime,
///     value      UTF8String,       -- the quantity in `unit` as a decimal number, or a category sample's integer value
///     unit       UTF8String        -- the unit (HKUnit.unitString); empty for a category sample
/// }
/// ```
///
/// A signature over content in another layout still verifies (who signed, and that nothing was altered), but its values
/// cannot be compared with the sample's: `SampleSignatureVerification.Status.contentNotUnderstood`.
package struct SignedSampleContent: Equatable, Sendable {
    package var type: String
    package var startDate: Date
    package var endDate: Date
    package var value: String
    package var unit: String

    package init(type: String, startDate: Date, endDate: Date, value: String, unit: String) {
        self.type = type
        self.startDate = startDate
        self.endDate = endDate
        self.value = value
        self.unit = unit
    }

    /// The content of `sample`, its quantity in `unit` (a category sample: its value, and no unit).
    package init?(sample: HKSample, unit: HKUnit? = nil) {
        switch sample {
        case let quantity as HKQuantitySample:
            guard let unit, quantity.quantity.is(compatibleWith: unit) else { return nil }
            self.init(type: sample.sampleType.identifier, startDate: sample.startDate, endDate: sample.endDate,
                      value: "\(quantity.quantity.doubleValue(for: unit))", unit: unit.unitString)
        case let category as HKCategorySample:
            self.init(type: sample.sampleType.identifier, startDate: sample.startDate, endDate: sample.endDate, value: "\(category.value)", unit: "")
        default:
            return nil
        }
    }

    /// Whether `sample` holds these values: its type, its dates (to the millisecond), and its value in this unit (to one
    /// part in a billion).
    package func matches(_ sample: HKSample) -> Bool {
        guard sample.sampleType.identifier == type, abs(sample.startDate.timeIntervalSince(startDate)) < 0.001,
              abs(sample.endDate.timeIntervalSince(endDate)) < 0.001 else { return false }
        switch sample {
        case let quantity as HKQuantitySample:
            guard !unit.isEmpty, let signed = Double(value), let unit = try? HKUnit(from: unit), quantity.quantity.is(compatibleWith: unit) else {
                return false
            }
            let held = quantity.quantity.doubleValue(for: unit)
            return abs(held - signed) <= 1e-9 * max(1, abs(signed))
        case let category as HKCategorySample:
            return unit.isEmpty && Int(value) == category.value
        default:
            return false
        }
    }

    // MARK: DER

    package func serialized() throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(1)
            try coder.serialize(ASN1UTF8String(type))
            try coder.serialize(Self.time(startDate))
            try coder.serialize(Self.time(endDate))
            try coder.serialize(ASN1UTF8String(value))
            try coder.serialize(ASN1UTF8String(unit))
        }
        return serializer.serializedBytes
    }

    /// The content in `bytes`, or nil when they are not this layout.
    package init?(derEncoded bytes: ArraySlice<UInt8>) {
        guard let parsed = try? DER.sequence(DER.parse(bytes), identifier: .sequence, { nodes -> SignedSampleContent in
            guard try Int(derEncoded: &nodes) == 1 else { throw ASN1Error.invalidASN1Object(reason: "unknown version") }
            let type = try String(ASN1UTF8String(derEncoded: &nodes))
            let start = try Self.date(GeneralizedTime(derEncoded: &nodes))
            let end = try Self.date(GeneralizedTime(derEncoded: &nodes))
            let value = try String(ASN1UTF8String(derEncoded: &nodes))
            let unit = try String(ASN1UTF8String(derEncoded: &nodes))
            return SignedSampleContent(type: type, startDate: start, endDate: end, value: value, unit: unit)
        }) else { return nil }
        self = parsed
    }

    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    private static func time(_ date: Date) throws -> GeneralizedTime {
        let whole = date.timeIntervalSince1970.rounded(.down)
        let parts = utc.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: whole))
        return try GeneralizedTime(year: parts.year!, month: parts.month!, day: parts.day!, hours: parts.hour!, minutes: parts.minute!,
                                   seconds: parts.second!, fractionalSeconds: date.timeIntervalSince1970 - whole)
    }

    private static func date(_ time: GeneralizedTime) throws -> Date {
        let components = DateComponents(year: time.year, month: time.month, day: time.day, hour: time.hours, minute: time.minutes,
                                        second: time.seconds)
        guard let date = utc.date(from: components) else { throw ASN1Error.invalidASN1Object(reason: "not a date") }
        return date.addingTimeInterval(time.fractionalSeconds)
    }
}
