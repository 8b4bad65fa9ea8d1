public import Foundation

/// An amount in a unit: 72 count/min, 68.5 kg, 5.5 mmol<180.15588000005408>/L.
///
/// ```swift
/// let weight = HKQuantity(unit: .pound(), doubleValue: 150)
/// weight.doubleValue(for: .gramUnit(with: .kilo))     // 68.0388555
/// weight.is(compatibleWith: .count())                 // false
/// try weight.value(in: .count())                      // throws HKError(.errorInvalidArgument)
/// ```
///
/// Quantities are equal when they have the same dimension and the same value once converted.
public final class HKQuantity: Hashable, Sendable, CustomStringConvertible {
    /// The unit the quantity was created with.
    package let unit: HKUnit
    /// The value in ``unit``, as given.
    package let doubleValue: Double

    public init(unit: HKUnit, doubleValue value: Double) {
        self.unit = unit
        self.doubleValue = value
    }

    /// Whether the quantity can be expressed in `unit`.
    public func `is`(compatibleWith unit: HKUnit) -> Bool { self.unit.isCompatible(with: unit) }

    /// The value expressed in `unit`. An incompatible unit stops the program with a message naming both
    /// units, as HealthKit raises; use ``value(in:)`` to recover instead.
    public func doubleValue(for unit: HKUnit) -> Double {
        trapOnInvalidArgument { try value(in: unit) }
    }

    /// The value expressed in `unit`, or `HKError(.errorInvalidArgument)` naming both units.
    public func value(in unit: HKUnit) throws -> Double {
        try self.unit.convert(doubleValue, to: unit)
    }

    /// Orders two quantities of the same dimension. Incompatible quantities stop the program, as HealthKit raises.
    public func compare(_ quantity: HKQuantity) -> ComparisonResult {
        let other = quantity.doubleValue(for: unit)
        if doubleValue < other { return .orderedAscending }
        if doubleValue > other { return .orderedDescending }
        return .orderedSame
    }

    public static func == (lhs: HKQuantity, rhs: HKQuantity) -> Bool {
        guard let converted = try? rhs.value(in: lhs.unit) else { return false }
        return converted == lhs.doubleValue
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(unit.dimension) }

    public var description: String {
        let value = doubleValue == doubleValue.rounded() && abs(doubleValue) < 1e15
            ? String(Int64(doubleValue)) : String(doubleValue)
        return "\(value) \(unit.unitString)"
    }
}
