import Foundation

/// HealthKit's molar mass of glucose, in grams per mole, for blood glucose in mmol/L.
public let HKUnitMolarMassBloodGlucose: Double = 180.15588000005408

/// A unit of measure: a simple unit (`kg`, `count`, `degF`) or a compound one (`count/min`, `mL/kg·min`).
///
/// Units are read from HealthKit's unit strings or built with Apple's factories, and compare equal
/// when they are the same unit however they were written:
///
/// ```swift
/// let bpm = HKUnit(from: "count/min")
/// bpm == HKUnit.count().unitDivided(by: .minute())   // true
/// bpm.unitString                                     // "count/min"
/// let glucose = HKUnit(from: "mg/dL")
/// let molar = try HKUnit.parse("mmol<180.15588000005408>/L")
/// ```
///
/// ``parse(_:)`` throws `HKError(.errorInvalidArgument)` on a bad string, naming it and the position;
/// Apple's ``init(from:)`` stops the program with that message instead, as HealthKit raises.
public final class HKUnit: Hashable, Sendable, CustomStringConvertible {
    /// One atom raised to a power.
    package struct Factor: Hashable, Sendable {
        package let atom: UnitAtom
        package let exponent: Int

        func raised(to power: Int) -> Factor { Factor(atom: atom, exponent: exponent * power) }

        /// Adds `factors` into `list`, combining repeated atoms and dropping those whose exponents cancel.
        static func merge(_ factors: [Factor], into list: inout [Factor]) {
            for factor in factors {
                if let i = list.firstIndex(where: { $0.atom.symbol == factor.atom.symbol }) {
                    let sum = list[i].exponent + factor.exponent
                    if sum == 0 { list.remove(at: i) } else { list[i] = Factor(atom: list[i].atom, exponent: sum) }
                } else if factor.exponent != 0 {
                    list.append(factor)
                }
            }
        }
    }

    package let factors: [Factor]
    /// The unit's canonical string: `·` for multiplication, one `/`, factors in order of first appearance.
    public let unitString: String
    package let dimension: UnitDimension
    /// Multiplier from this unit to the SI base of its dimension (linear part).
    private let scale: Double
    /// The affine or logarithmic rule of a unit that is a single such atom; `nil` for linear units.
    private let nonlinear: UnitAtom?
    /// Whether a non-linear atom (degC, degF, dBASPL) appears inside a compound, where it cannot convert.
    private let hasEmbeddedNonlinearAtom: Bool
    /// Order-independent identity used for equality.
    private let key: String

    package init(factors: [Factor]) {
        self.factors = factors
        var dimension = UnitDimension()
        var scale = 1.0
        var nonlinearAtoms = 0
        for factor in factors {
            dimension.add(factor.atom.definition.dimension, times: factor.exponent)
            scale *= Foundation.pow(factor.atom.scale, Double(factor.exponent))
            if factor.atom.definition.conversion != .linear { nonlinearAtoms += 1 }
        }
        self.dimension = dimension
        self.scale = scale
        let single = factors.count == 1 && factors[0].exponent == 1 ? factors[0].atom : nil
        self.nonlinear = single?.definition.conversion == .linear ? nil : single
        self.hasEmbeddedNonlinearAtom = nonlinearAtoms > 0 && single == nil
        self.unitString = HKUnit.format(factors)
        self.key = factors.count == 1 && factors[0].exponent == 1
            ? factors[0].atom.symbol
            : factors.map { "\($0.atom.symbol)^\($0.exponent)" }.sorted().joined(separator: "|")
    }

    /// Reads a HealthKit unit string, or throws `HKError(.errorInvalidArgument)` naming the string, the
    /// position and the problem. Never crashes, whatever the input.
    public static func parse(_ unitString: String) throws -> HKUnit {
        var parser = UnitParser(unitString)
        return HKUnit(factors: try parser.parse())
    }

    /// Reads a HealthKit unit string. An invalid string stops the program with a message naming the string
    /// and the position, as HealthKit raises; use ``parse(_:)`` to recover instead.
    public convenience init(from string: String) {
        var parser = UnitParser(string)
        let factors = trapOnInvalidArgument { try parser.parse() }
        self.init(factors: factors)
    }

    /// Whether this is the null unit: no factors, as left by dividing a unit by itself.
    public func isNull() -> Bool { factors.isEmpty }

    public var description: String { unitString }

    public static func == (lhs: HKUnit, rhs: HKUnit) -> Bool { lhs.key == rhs.key }
    public func hash(into hasher: inout Hasher) { hasher.combine(key) }

    // MARK: - Unit math

    /// This unit times another: `kg.unitMultiplied(by: .meter())` is `kg·m`.
    public func unitMultiplied(by unit: HKUnit) -> HKUnit {
        var list = factors
        Factor.merge(unit.factors, into: &list)
        return HKUnit(factors: list)
    }

    /// This unit divided by another: `.count().unitDivided(by: .minute())` is `count/min`.
    public func unitDivided(by unit: HKUnit) -> HKUnit {
        var list = factors
        Factor.merge(unit.factors.map { $0.raised(to: -1) }, into: &list)
        return HKUnit(factors: list)
    }

    /// This unit raised to an integer power: `.meter().unitRaised(toPower: 2)` is `m^2`.
    public func unitRaised(toPower power: Int) -> HKUnit {
        guard power != 0 else { return HKUnit(factors: []) }
        return HKUnit(factors: factors.map { $0.raised(to: power) })
    }

    /// One over this unit: `.second().reciprocal()` is `s^-1`.
    public func reciprocal() -> HKUnit { unitRaised(toPower: -1) }

    // MARK: - Conversion

    /// Whether values in this unit convert to `other` (same dimension).
    package func isCompatible(with other: HKUnit) -> Bool { dimension == other.dimension }

    /// `value` in this unit expressed in `other`, or `HKError(.errorInvalidArgument)` naming both units.
    package func convert(_ value: Double, to other: HKUnit) throws -> Double {
        if self == other { return value }
        guard isCompatible(with: other) else {
            throw HKError.invalidArgument(
                "cannot convert \"\(unitString)\" (\(dimension)) to \"\(other.unitString)\" (\(other.dimension))"
            )
        }
        if nonlinear == nil, other.nonlinear == nil, !hasEmbeddedNonlinearAtom, !other.hasEmbeddedNonlinearAtom {
            return value * scale / other.scale
        }
        if let from = nonlinear, let to = other.nonlinear,
           case .affine = from.definition.conversion, case .affine = to.definition.conversion,
           from.prefix == .none, to.prefix == .none {
            // Celsius ↔ Fahrenheit directly, so 0 degC is exactly 32 degF.
            if from.definition == .celsius, to.definition == .fahrenheit { return value * 9 / 5 + 32 }
            if from.definition == .fahrenheit, to.definition == .celsius { return (value - 32) * 5 / 9 }
        }
        return try other.fromBase(toBase(value))
    }

    /// `value` in this unit expressed in the SI base of its dimension (g, m, s, K…), for storing
    /// quantities in canonical units.
    package func toBase(_ value: Double) throws -> Double {
        if hasEmbeddedNonlinearAtom { throw nonlinearCompound() }
        guard let atom = nonlinear else { return value * scale }
        switch atom.definition.conversion {
        case .linear:
            return value * scale
        case .affine(let offset):
            return (value + offset) * scale
        case .soundPressureLevel:
            return 2e-5 * Foundation.pow(10, value / 20) * 1000
        }
    }

    /// The inverse of ``toBase(_:)``.
    package func fromBase(_ base: Double) throws -> Double {
        if hasEmbeddedNonlinearAtom { throw nonlinearCompound() }
        guard let atom = nonlinear else { return base / scale }
        switch atom.definition.conversion {
        case .linear:
            return base / scale
        case .affine(let offset):
            return base / scale - offset
        case .soundPressureLevel:
            return 20 * Foundation.log10(base / 1000 / 2e-5)
        }
    }

    private func nonlinearCompound() -> HKError {
        HKError.invalidArgument(
            "\"\(unitString)\" combines a temperature or decibel unit with others; such a unit cannot be converted"
        )
    }

    // MARK: - Formatting

    private static func format(_ factors: [Factor]) -> String {
        func term(_ factor: Factor, _ exponent: Int) -> String {
            exponent == 1 ? factor.atom.symbol : "\(factor.atom.symbol)^\(exponent)"
        }
        let numerator = factors.filter { $0.exponent > 0 }
        let denominator = factors.filter { $0.exponent < 0 }
        if factors.isEmpty { return "()" }
        if numerator.isEmpty { return denominator.map { term($0, $0.exponent) }.joined(separator: "·") }
        let top = numerator.map { term($0, $0.exponent) }.joined(separator: "·")
        if denominator.isEmpty { return top }
        return top + "/" + denominator.map { term($0, -$0.exponent) }.joined(separator: "·")
    }
}
