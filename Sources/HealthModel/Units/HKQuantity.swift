public import Foundation

/// An amount in a unit: 72 count/min, 68.5 kg, 5.5 mmol<180.15588000005408>/L.
///
/// ```swift
/// let weight = HKQuantity(unit: .pound(), doubleValue: 150)
/// weight.doubleValue(for: .gramUnit(with: .kilo))     // 68.0388555
/// weight.is(compatibleWith: .count())                 // false
/// try weight.value(in: .count())                      // throws HKError(.errorInvalidArgument)
/// weight.description                                  // "150 lb"
/// ```
///
/// The value is stored as given, in the unit given. Quantities are equal when their units are compatible and
/// the other's value, converted to this one's unit, is the same. An `NSObject`, as Apple's,
/// immutable and `Sendable`. `NSSecureCoding`, as HealthKit's: it archives its unit and its value bit for bit, and
/// comes back in the same unit; `NSCopying` gives the quantity itself.
public final class HKQuantity: NSObject, NSSecureCoding, NSCopying, Sendable {
    /// The unit the quantity was created with.
    package let unit: HKUnit
    /// The value in ``unit``, as given.
    package let doubleValue: Double

    /// A quantity of `value` in `unit`.
    public init(unit: HKUnit, doubleValue value: Double) {
        self.unit = unit
        self.doubleValue = value
    }

    // MARK: NSSecureCoding, NSCopying

    private enum Key {
        static let unit = "unit"
        static let doubleValue = "doubleValue"
    }

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        coder.encode(unit, forKey: Key.unit)
        coder.encode(doubleValue, forKey: Key.doubleValue)
    }

    public required convenience init?(coder: NSCoder) {
        guard case let (unit, value)? = coder.decodeValid("HKQuantity", {
            (try coder.decode(HKUnit.self, forKey: Key.unit), try coder.decodeRequiredDouble(forKey: Key.doubleValue))
        }) else { return nil }
        self.init(unit: unit, doubleValue: value)
    }

    /// Quantities are immutable: a copy is the quantity itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    /// Whether the quantity can be expressed in `unit` (the dimensions are equal).
    public func `is`(compatibleWith unit: HKUnit) -> Bool { self.unit.isCompatible(with: unit) }

    /// The value expressed in `unit`. An incompatible unit stops the program with a message naming both
    /// units, as HealthKit raises; use ``value(in:)`` to recover instead.
    public func doubleValue(for unit: HKUnit) -> Double {
        do {
            return try self.unit.convert(doubleValue, to: unit)
        } catch {
            preconditionFailure((error as? HKError)?.message ?? "\(error)")
        }
    }

    /// The value expressed in `unit`, or `HKError(.errorInvalidArgument)` naming both units when they do not
    /// convert (different dimensions, or degC/degF/dBASPL inside a compound unit).
    public func value(in unit: HKUnit) throws -> Double {
        try self.unit.convert(doubleValue, to: unit)
    }

    /// Orders two quantities of the same dimension, comparing in this quantity's unit. Incompatible
    /// quantities stop the program, as HealthKit raises.
    public func compare(_ quantity: HKQuantity) -> ComparisonResult {
        let other = quantity.doubleValue(for: unit)
        if doubleValue < other { return .orderedAscending }
        if doubleValue > other { return .orderedDescending }
        return .orderedSame
    }

    /// Compatible, and equal once `rhs` is converted to `lhs`'s unit.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let rhs = object as? HKQuantity else { return false }
        let lhs = self
        guard lhs.unit.isCompatible(with: rhs.unit), let converted = try? rhs.unit.convert(rhs.doubleValue, to: lhs.unit) else {
            return false
        }
        return converted == lhs.doubleValue
    }

    /// Hashes the dimension only, so equal quantities in different units hash alike.
    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(unit.dimension)
        return hasher.finalize()
    }

    /// The value and the unit string: `72 count/min`, `0.161 %`.
    public override var description: String {
        let value = doubleValue == doubleValue.rounded() && abs(doubleValue) < 1e15
            ? String(Int64(doubleValue)) : String(doubleValue)
        return "\(value) \(unit.unitString)"
    }
}
