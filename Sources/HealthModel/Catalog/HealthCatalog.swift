/// The catalog of HealthKit's data types, generated from the reference tables in
/// `Reference/healthkit` by `Scripts/generate_catalog.py`.
///
/// The tables themselves (``quantityTypes``, ``categoryTypes``, ``otherTypes``, ``metadataKeys``…) are in
/// `Generated/HealthCatalog+Tables.swift`; this file adds the lookups. Identifiers are raw strings
/// (`"HKQuantityTypeIdentifierStepCount"`), as stored and exported.
package enum HealthCatalog {
    /// The quantity type with this raw identifier.
    package static func quantityType(_ identifier: String) -> QuantityTypeInfo? {
        quantityTypesByIdentifier[identifier]
    }

    /// The category type with this raw identifier.
    ///
    /// The deprecated `audioExposureEvent` and `environmentalAudioExposureEvent` share the raw string
    /// `HKCategoryTypeIdentifierAudioExposureEvent`; it resolves to the live `environmentalAudioExposureEvent`.
    package static func categoryType(_ identifier: String) -> CategoryTypeInfo? {
        categoryTypesByIdentifier[identifier]
    }

    /// The characteristic, correlation, document, scored-assessment, clinical or other type with this raw identifier.
    package static func otherType(_ identifier: String) -> OtherTypeInfo? {
        otherTypesByIdentifier[identifier]
    }

    /// The raw identifiers of the quantity types a correlation of this type may hold, or `nil` for an identifier
    /// that is not a correlation type: blood pressure holds its systolic and diastolic samples, food holds
    /// every dietary (Nutrition-group) quantity type.
    package static func correlationMemberTypes(_ correlationIdentifier: String) -> Set<String>? {
        correlationMembers[correlationIdentifier]
    }

    private static let quantityTypesByIdentifier: [String: QuantityTypeInfo] = Dictionary(
        uniqueKeysWithValues: quantityTypes.map { ($0.identifier, $0) })

    /// Live rows win over deprecated rows that share their raw string.
    private static let categoryTypesByIdentifier: [String: CategoryTypeInfo] = Dictionary(
        categoryTypes.map { ($0.identifier, $0) },
        uniquingKeysWith: { first, second in first.isDeprecated && !second.isDeprecated ? second : first })

    private static let otherTypesByIdentifier: [String: OtherTypeInfo] = Dictionary(
        uniqueKeysWithValues: otherTypes.map { ($0.identifier, $0) })
}

/// One row of quantity-types.tsv.
package struct QuantityTypeInfo: Sendable {
    /// The raw identifier, e.g. `HKQuantityTypeIdentifierStepCount`.
    package let identifier: String
    /// Apple's Swift name of the identifier, e.g. `stepCount`.
    package let swiftName: String
    /// The header's section, e.g. `Fitness`.
    package let group: String
    /// The unit HealthKit's header gives (an `HKUnit` unit string); `count` where the table has none (UV exposure).
    package let canonicalUnitString: String
    package let aggregationStyle: HKQuantityAggregationStyle
    /// The iOS version that introduced the type, e.g. `8.0`.
    package let iosSince: String
    package let isDeprecated: Bool
}

/// One row of category-types.tsv.
package struct CategoryTypeInfo: Sendable {
    /// The raw identifier, e.g. `HKCategoryTypeIdentifierSleepAnalysis`.
    package let identifier: String
    /// Apple's Swift name of the identifier, e.g. `sleepAnalysis`.
    package let swiftName: String
    /// The header's section, e.g. `Sleep`.
    package let group: String
    /// The value enum's name, e.g. `HKCategoryValueSleepAnalysis`; `nil` where no source states it
    /// (`hypertensionEvent`).
    package let valueEnumName: String?
    /// The raw values a sample may hold: the value enum's live cases, plus deprecated cases that share a live
    /// case's raw value (all of a wholly deprecated enum's values). `nil` when the enum is unknown: any value.
    package let allowedValues: Set<Int>?
    /// The iOS version that introduced the type, e.g. `8.0`.
    package let iosSince: String
    package let isDeprecated: Bool
}

/// One row of other-types.tsv.
package struct OtherTypeInfo: Sendable {
    /// `characteristic`, `correlation`, `document`, `scored-assessment`, `clinical` or `other`.
    package let kind: String
    /// The raw identifier, e.g. `HKCorrelationTypeIdentifierBloodPressure` or `HKDataTypeStateOfMind`.
    package let identifier: String
    /// Apple's Swift name: the struct member (`bloodPressure`) or, for `other`, the global constant's name.
    package let swiftName: String
    /// The header's section; empty for clinical and medication types.
    package let group: String
    /// The iOS version that introduced the type, e.g. `8.0`.
    package let iosSince: String
    package let isDeprecated: Bool
}
