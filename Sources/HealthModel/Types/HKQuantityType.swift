public import Foundation

/// A type of sample holding a numeric quantity, such as step count or heart rate.
///
/// Each quantity type knows its aggregation style and the dimension its units must have:
///
/// ```swift
/// let heartRate = HKQuantityType(.heartRate)
/// heartRate.aggregationStyle                        // .discreteTemporallyWeighted
/// heartRate.is(compatibleWith: HKUnit(from: "count/min"))  // true
/// heartRate.is(compatibleWith: .gram())             // false
/// ```
public final class HKQuantityType: HKSampleType, @unchecked Sendable {
    package let info: QuantityTypeInfo
    /// The unit HealthKit documents for this type (e.g. `count/s` for heart rate); its dimension is the type's.
    package let canonicalUnit: HKUnit

    package init(info: QuantityTypeInfo) {
        self.info = info
        self.canonicalUnit = HKQuantityType.canonicalUnits[info.identifier] ?? .count()
        super.init(identifier: info.identifier)
    }

    /// Creates the quantity type for an identifier. An identifier that is not in the catalog is a
    /// programming error, as in HealthKit; use ``HKObjectType/quantityType(forIdentifier:)`` to get `nil` instead.
    public convenience init(_ identifier: HKQuantityTypeIdentifier) {
        guard let info = HealthCatalog.quantityType(identifier.rawValue) else {
            preconditionFailure("Unknown quantity type identifier \"\(identifier.rawValue)\"")
        }
        self.init(info: info)
    }

    /// Decodes the type archived by ``HKObjectType/encode(with:)``; the identifier must be a quantity type's.
    public required convenience init?(coder: NSCoder) {
        guard let info = coder.decodeValid("HKQuantityType", {
            let identifier = try HKObjectType.decodeIdentifier(from: coder, of: HKQuantityType.self)
            guard let info = HealthCatalog.quantityType(identifier) else { throw ArchiveError.invalid("\"\(identifier)\" is not a quantity type") }
            return info
        }) else { return nil }
        self.init(info: info)
    }

    /// How samples of this type combine in statistics.
    public var aggregationStyle: HKQuantityAggregationStyle { info.aggregationStyle }

    /// Whether `unit` has the dimension this type's quantities must have.
    public func `is`(compatibleWith unit: HKUnit) -> Bool {
        unit.isCompatible(with: canonicalUnit)
    }

    /// Canonical units parsed once from the catalog; they are constants, so this is not mutable state.
    private static let canonicalUnits: [String: HKUnit] = {
        var units: [String: HKUnit] = [:]
        for info in HealthCatalog.quantityTypes {
            guard let unit = try? HKUnit.parse(info.canonicalUnitString) else {
                preconditionFailure("Catalog unit \"\(info.canonicalUnitString)\" of \(info.identifier) does not parse")
            }
            units[info.identifier] = unit
        }
        return units
    }()
}
