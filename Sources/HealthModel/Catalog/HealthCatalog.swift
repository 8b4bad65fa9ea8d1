/// The catalog of HealthKit's data types, generated from the reference tables in
/// `shared/reference/healthkit` (see `Scripts/generate_catalog.py`). Object types and validation read
/// it; the tables themselves are in `Generated/HealthCatalog+Tables.swift`.
package enum HealthCatalog {
    package static func quantityType(_ identifier: String) -> QuantityTypeInfo? { quantityTypesByIdentifier[identifier] }
    package static func categoryType(_ identifier: String) -> CategoryTypeInfo? { categoryTypesByIdentifier[identifier] }
    package static func otherType(_ identifier: String) -> OtherTypeInfo? { otherTypesByIdentifier[identifier] }

    /// Identifiers of the sample types a correlation may hold: blood pressure holds its systolic and
    /// diastolic samples, food holds nutrition samples.
    package static func correlationMemberTypes(_ correlationIdentifier: String) -> Set<String>? {
        switch correlationIdentifier {
        case HKCorrelationTypeIdentifier.bloodPressure.rawValue:
            [HKQuantityTypeIdentifier.bloodPressureSystolic.rawValue, HKQuantityTypeIdentifier.bloodPressureDiastolic.rawValue]
        case HKCorrelationTypeIdentifier.food.rawValue:
            foodMemberTypes
        default:
            nil
        }
    }

    /// The header's wording of the value type each metadata key holds, by raw key.
    package static let metadataKeyValueTypes: [String: String] = Dictionary(
        metadataKeys.map { ($0.value, $0.valueType) }, uniquingKeysWith: { first, _ in first })

    private static let quantityTypesByIdentifier = Dictionary(uniqueKeysWithValues: quantityTypes.map { ($0.identifier, $0) })
    /// The deprecated `audioExposureEvent` shares its raw string with `environmentalAudioExposureEvent`,
    /// which comes first in the table and is the one a raw string resolves to.
    private static let categoryTypesByIdentifier = Dictionary(
        categoryTypes.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
    private static let otherTypesByIdentifier = Dictionary(uniqueKeysWithValues: otherTypes.map { ($0.identifier, $0) })
}

/// One row of the quantity-type table.
package struct QuantityTypeInfo: Sendable {
    package let identifier: String
    package let swiftName: String
    package let group: String
    /// The unit HealthKit's header gives; `count` where the table's unit is empty (UV exposure).
    package let canonicalUnitString: String
    package let aggregationStyle: HKQuantityAggregationStyle
    package let iosSince: String
    package let isDeprecated: Bool
}

/// One row of the category-type table.
package struct CategoryTypeInfo: Sendable {
    package let identifier: String
    package let swiftName: String
    package let group: String
    /// The value enum's name; `nil` where no source states it (hypertension event).
    package let valueEnumName: String?
    /// The raw values of the value enum; `nil` when the enum is unknown, and then any value is accepted.
    package let allowedValues: Set<Int>?
    package let iosSince: String
    package let isDeprecated: Bool
}

/// One row of the table of other types: characteristic, correlation, document, scored assessment, clinical, other.
package struct OtherTypeInfo: Sendable {
    package let kind: String
    package let identifier: String
    package let swiftName: String
    package let group: String
    package let iosSince: String
    package let isDeprecated: Bool
}
