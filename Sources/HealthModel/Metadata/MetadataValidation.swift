/// Validated object metadata: turns Apple's `[String: Any]` into ``HKMetadataValue``s and enforces
/// HealthKit's rules, each failure an `HKError(.errorInvalidArgument)` naming the key:
/// - keys are non-empty strings; values are String, Date, number, Bool or HKQuantity, numbers finite;
/// - a key from HealthKit's table holds the kind of value the table gives (a String for
///   `HKMetadataKeyTimeZone`, a Bool/number for `HKMetadataKeyWasUserEntered`, a length for `HKMetadataKeyLapLength`…);
/// - `HKMetadataKeySyncIdentifier` comes with `HKMetadataKeySyncVersion`, as HealthKit requires.
package enum MetadataValidation {
    /// Validates `metadata`. `sampleType` lets `HKMetadataKeySessionEstimate` check its unit against the sample's type.
    package static func validate(
        _ metadata: [String: Any]?, sampleType: HKQuantityType? = nil
    ) throws -> [String: HKMetadataValue]? {
        guard let metadata else { return nil }
        var values: [String: HKMetadataValue] = [:]
        values.reserveCapacity(metadata.count)
        for (key, raw) in metadata {
            guard !key.isEmpty else { throw HKError.invalidArgument("a metadata key is empty") }
            let value = try HKMetadataValue(any: raw, key: key)
            try checkKnownKey(key, value: value, sampleType: sampleType)
            values[key] = value
        }
        if values[HKMetadataKeySyncIdentifier] != nil {
            guard let version = values[HKMetadataKeySyncVersion] else {
                throw HKError.invalidArgument(
                    "metadata has \(HKMetadataKeySyncIdentifier) without \(HKMetadataKeySyncVersion); a sync identifier needs a version"
                )
            }
            guard case .integer = version else {
                throw HKError.invalidArgument("metadata key \"\(HKMetadataKeySyncVersion)\" must be an integer version")
            }
        }
        return values
    }

    private static func checkKnownKey(_ key: String, value: HKMetadataValue, sampleType: HKQuantityType?) throws {
        guard let expected = HealthCatalog.metadataValueKind(forKey: key) else { return }
        switch (expected, value) {
        case (.string, .string), (.date, .date), (.any, _): return
        case (.number, .integer), (.number, .double), (.number, .bool): return
        case (.quantity(let unitString), .quantity(let quantity)):
            let reference: HKUnit?
            if let unitString {
                reference = try? HKUnit.parse(unitString)
            } else {
                reference = sampleType?.canonicalUnit
            }
            if let reference, !quantity.is(compatibleWith: reference) {
                throw HKError.invalidArgument(
                    "metadata key \"\(key)\" holds \(quantity.unit.unitString), which is not compatible with \(reference.unitString)"
                )
            }
        default:
            throw HKError.invalidArgument("metadata key \"\(key)\" must hold \(expected), not \(value.kindName)")
        }
    }
}

/// The kind of value a HealthKit metadata key holds, from the reference table's "value type" column.
package enum MetadataValueKind: Sendable, Equatable, CustomStringConvertible {
    case string
    case number
    case date
    /// A quantity whose unit must be compatible with the given unit string; `nil` = the sample's own type.
    case quantity(String?)
    /// The table gives no type; any allowed value is accepted.
    case any

    package var description: String {
        switch self {
        case .string: "a String"
        case .number: "a number or Bool"
        case .date: "a Date"
        case .quantity(let unit?): "an HKQuantity compatible with \(unit)"
        case .quantity(nil): "an HKQuantity compatible with the sample's type"
        case .any: "a value"
        }
    }
}

extension HKMetadataValue {
    var kindName: String {
        switch self {
        case .string: "a String"
        case .date: "a Date"
        case .integer, .double: "a number"
        case .bool: "a Bool"
        case .quantity: "an HKQuantity"
        }
    }
}

extension Dictionary where Key == String, Value == HKMetadataValue {
    /// The metadata in Apple's `[String: Any]` shape.
    package var anyDictionary: [String: Any] { mapValues(\.anyValue) }
}
