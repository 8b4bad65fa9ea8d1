public import Foundation

/// HealthKit's molar mass of glucose, in grams per mole, for blood glucose in mmol/L.
///
/// ```swift
/// let mmolPerL = HKUnit.moleUnit(with: .milli, molarMass: HKUnitMolarMassBloodGlucose).unitDivided(by: .liter())
/// mmolPerL.unitString   // "mmol<180.1558800000541>/L"
/// ```
public let HKUnitMolarMassBloodGlucose: Double = 180.15588000005408

/// A unit of measure: a simple unit (`kg`, `count`, `degF`) or a compound one (`count/min`, `mL/kg·min`).
///
/// Units are read from HealthKit's unit strings or built with Apple's factories, and compare equal when
/// they are the same unit however they were written:
///
/// ```swift
/// let bpm = HKUnit(from: "count/min")
/// bpm == HKUnit.count().unitDivided(by: .minute())    // true
/// HKUnit(from: "ml/(kg*min)").unitString             // "mL/kg·min"
/// let glucose = try HKUnit.parse("mmol<180.15588000005408>/L")
/// ```
///
/// ``parse(_:)`` throws `HKError(.errorInvalidArgument)` on a bad string, naming it and the position;
/// Apple's `init(from:)` stops the program with that message instead, as HealthKit raises.
///
/// Conversion (through ``HKQuantity``) is one multiply and divide by precomputed factors, plus an offset for
/// degC and degF; dBASPL is logarithmic. Temperatures in degC/degF and levels in dBASPL convert only on
/// their own (`degC`, not `degC/s`): inside a compound unit they parse but do not convert.
/// An `NSObject`, as Apple's, immutable and `Sendable`. `NSSecureCoding`, as HealthKit's: a unit archives its
/// ``unitString`` and decoding parses it back with ``parse(_:)`` (a string that does not parse fails the decode, it
/// never stops the program); `NSCopying` gives the unit itself.
public final class HKUnit: NSObject, NSSecureCoding, NSCopying, Sendable {
    /// The largest exponent magnitude a unit may have, written (`m^1000`) or accumulated (`m*m*…`).
    /// It keeps every unit printable as a string that parses back; unit math that passes it stops the program.
    package static let maximumExponent = 1000

    /// The unit's factors: distinct atoms with non-zero exponents, in the order they first appeared.
    package let factors: [UnitFactor]
    /// The unit's canonical string, which ``parse(_:)`` reads back as an equal unit: numerator factors joined
    /// by `·`, then `/` and the denominator factors joined by `·` (no parentheses), factors in the order they
    /// first appeared, `L` for litres, molar masses to 16 significant digits, `()` for the null unit.
    /// A unit with only negative exponents prints them (`s^-1`).
    public let unitString: String
    /// The unit's physical dimension; units convert into each other exactly when their dimensions are equal.
    package let dimension: UnitDimension

    /// The linear factor to base is `numerator / denominator × 10^exponent10`. Keeping the parts apart
    /// makes the common conversions exact (1 count/min = 72/60 … count/s, 1 lb = 0.45359237 kg).
    private let numerator: Double
    private let denominator: Double
    private let exponent10: Int
    private let rule: Rule
    /// The sum of the factors' identities: equal units have equal identities whatever their factor order.
    private let identity: UInt64

    /// How a value in this unit reaches the base of its dimension.
    private enum Rule: Sendable {
        case linear
        /// A lone degC or degF: base kelvin = (value + offset) / divisor.
        case affine(UnitAtomKind, offset: Double, divisor: Double)
        /// A lone dBASPL: base = 2·10⁻⁵ Pa × 10^(value/20).
        case soundPressureLevel
        /// An affine or logarithmic atom inside a compound (or raised to a power): converts only to itself.
        case unconvertible
    }

    /// A unit of `factors`, which must have distinct atoms, non-zero exponents within ``maximumExponent``.
    package init(factors: [UnitFactor]) {
        self.factors = factors
        var dimension = UnitDimension()
        var numerator = 1.0, denominator = 1.0
        var exponent10 = 0
        var identity: UInt64 = 0
        var hasNonlinearAtom = false
        for factor in factors {
            let atom = factor.atom
            dimension.add(atom.kind.dimension, times: factor.exponent)
            exponent10 &+= atom.exponent10 &* factor.exponent
            let mantissa = atom.mantissa
            if mantissa != 1 {
                let magnitude = factor.exponent.magnitude
                let power = magnitude == 1 ? mantissa : Foundation.pow(mantissa, Double(magnitude))
                if factor.exponent > 0 { numerator *= power } else { denominator *= power }
            }
            identity &+= factor.identity
            if atom.kind.conversion != .linear { hasNonlinearAtom = true }
        }
        self.dimension = dimension
        self.numerator = numerator
        self.denominator = denominator
        self.exponent10 = exponent10
        self.identity = identity
        if !hasNonlinearAtom {
            rule = .linear
        } else if factors.count == 1, factors[0].exponent == 1, factors[0].atom.prefix == .none {
            switch factors[0].atom.kind.conversion {
            case .affine(let offset, let divisor): rule = .affine(factors[0].atom.kind, offset: offset, divisor: divisor)
            case .soundPressureLevel: rule = .soundPressureLevel
            case .linear: rule = .linear
            }
        } else {
            rule = .unconvertible
        }
        unitString = HKUnit.format(factors)
    }

    /// Reads a HealthKit unit string, or throws `HKError(.errorInvalidArgument)` naming the string, the
    /// problem and its 1-based character position, such as
    /// `Invalid unit string "kg/m/s": a second "/" at position 5; HealthKit allows one "/"`.
    /// Never crashes, whatever the input; the work is linear in the string's length.
    ///
    /// ```swift
    /// let vo2max = try HKUnit.parse("ml/(kg*min)")   // "mL/kg·min"
    /// ```
    public static func parse(_ unitString: String) throws -> HKUnit {
        HKUnit(factors: try UnitParser.parse(unitString))
    }

    /// Reads a HealthKit unit string. An invalid string stops the program with the message ``parse(_:)``
    /// would throw, as HealthKit raises `NSInvalidArgumentException`; use ``parse(_:)`` to recover instead.
    public convenience init(from string: String) {
        let factors: [UnitFactor]
        do {
            factors = try UnitParser.parse(string)
        } catch {
            preconditionFailure((error as? HKError)?.message ?? "\(error)")
        }
        self.init(factors: factors)
    }

    /// Whether this is the null unit: no factors, as left by dividing a unit by itself. It prints as `()`.
    public func isNull() -> Bool { factors.isEmpty }

    public override var description: String { unitString }

    /// Units are equal when they have the same factors (atom, prefix, molar mass to 16 digits, exponent),
    /// in any order: `kg` equals ``gramUnit(with:)`` `.kilo`, and `count/min` equals `min^-1·count`.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let rhs = object as? HKUnit else { return false }
        let lhs = self
        if lhs === rhs { return true }
        guard lhs.identity == rhs.identity, lhs.factors.count == rhs.factors.count else { return false }
        if lhs.factors.count <= 16 {
            return lhs.factors.allSatisfy { rhs.factors.contains($0) }
        }
        return lhs.factors.sorted(by: UnitFactor.precedes) == rhs.factors.sorted(by: UnitFactor.precedes)
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(identity)
        return hasher.finalize()
    }

    // MARK: - NSSecureCoding, NSCopying

    private static let unitStringKey = "unitString"

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        coder.encode(unitString, forKey: HKUnit.unitStringKey)
    }

    public required convenience init?(coder: NSCoder) {
        guard let factors = coder.decodeValid("HKUnit", {
            let text = try coder.decode(String.self, forKey: HKUnit.unitStringKey)
            do {
                return try UnitParser.parse(text)
            } catch {
                throw ArchiveError.invalid((error as? HKError)?.message ?? "\(error)")
            }
        }) else { return nil }
        self.init(factors: factors)
    }

    /// Units are immutable: a copy is the unit itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    // MARK: - Unit math

    /// This unit times another: `HKUnit.gramUnit(with: .kilo).unitMultiplied(by: .meter())` is `kg·m`.
    public func unitMultiplied(by unit: HKUnit) -> HKUnit {
        combined(with: unit, power: 1, operation: "unitMultiplied(by:)")
    }

    /// This unit divided by another: `HKUnit.count().unitDivided(by: .minute())` is `count/min`.
    public func unitDivided(by unit: HKUnit) -> HKUnit {
        combined(with: unit, power: -1, operation: "unitDivided(by:)")
    }

    /// This unit raised to an integer power: `HKUnit.meter().unitRaised(toPower: 2)` is `m^2`; power 0 gives
    /// the null unit. An exponent past ±``maximumExponent`` stops the program, as HealthKit raises.
    public func unitRaised(toPower power: Int) -> HKUnit {
        guard power != 0 else { return HKUnit(factors: []) }
        let raised = factors.map { factor -> UnitFactor in
            let (exponent, overflow) = factor.exponent.multipliedReportingOverflow(by: power)
            if overflow || exponent.magnitude > HKUnit.maximumExponent {
                preconditionFailure(
                    "unitRaised(toPower: \(power)) on \"\(unitString)\" raises \"\(factor.atom.symbol)\" past ±\(HKUnit.maximumExponent)"
                )
            }
            return UnitFactor(atom: factor.atom, exponent: exponent)
        }
        return HKUnit(factors: raised)
    }

    /// One over this unit: `HKUnit.second().reciprocal()` is `s^-1`.
    public func reciprocal() -> HKUnit { unitRaised(toPower: -1) }

    private func combined(with unit: HKUnit, power: Int, operation: String) -> HKUnit {
        var list = UnitFactorList(factors)
        for factor in unit.factors {
            let exponent = list.add(factor.atom, factor.exponent * power)
            if exponent.magnitude > HKUnit.maximumExponent {
                preconditionFailure(
                    "\(operation) of \"\(unitString)\" and \"\(unit.unitString)\" raises \"\(factor.atom.symbol)\" past ±\(HKUnit.maximumExponent)"
                )
            }
        }
        return HKUnit(factors: list.result)
    }

    // MARK: - Conversion

    /// Whether values in this unit convert to `other`: their dimensions are equal.
    package func isCompatible(with other: HKUnit) -> Bool { dimension == other.dimension }

    /// `value` in this unit expressed in `other`. Throws `HKError(.errorInvalidArgument)` naming both units
    /// when their dimensions differ, or when either holds degC, degF or dBASPL inside a compound.
    package func convert(_ value: Double, to other: HKUnit) throws -> Double {
        if self == other { return value }
        guard dimension == other.dimension else {
            throw HKError.invalidArgument(
                "Cannot convert from \"\(unitString)\" (\(dimension)) to \"\(other.unitString)\" (\(other.dimension)): the dimensions differ"
            )
        }
        switch (rule, other.rule) {
        case (.linear, .linear):
            return PowerOfTen.scale(
                value * (numerator * other.denominator) / (denominator * other.numerator), by: exponent10 - other.exponent10
            )
        case (.affine(.degreeFahrenheit, _, _), .affine(.degreeCelsius, _, _)):
            return (value - 32) * 5 / 9  // directly, so 98.6 degF is exactly 37 degC
        case (.affine(.degreeCelsius, _, _), .affine(.degreeFahrenheit, _, _)):
            return value * 9 / 5 + 32
        default:
            return try other.convertFromBase(convertToBase(value))
        }
    }

    /// The unit in which ``convertToBase(_:)`` expresses values: the coherent base of the dimension, built
    /// from `g`, `m`, `s`, `K` (electric current as `W·V^-1`, one ampere), `lx`, and HealthKit's own scales
    /// (`rad`, `%`, `IU`, `dBHL`, `appleEffortScore`, `D`, `pD`); `count` for dimensionless units. So mass is
    /// in g, length in m, volume in `m^3`, concentration in `g/m^3`, energy in `g·m^2/s^2` (1 J = 1000 of
    /// them), pressure and dBASPL in `g/m·s^2`, heart rate in `s^-1`, temperatures in K.
    package var baseUnit: HKUnit {
        var factors: [UnitFactor] = []
        func add(_ kind: UnitAtomKind, _ exponent: Int32) {
            if exponent != 0 { factors.append(UnitFactor(atom: UnitAtom(kind), exponent: Int(exponent))) }
        }
        add(.gram, dimension[.mass])
        add(.meter, dimension[.length])
        add(.second, dimension[.time])
        add(.kelvin, dimension[.temperature])
        add(.watt, dimension[.current])
        add(.volt, 0 &- dimension[.current])
        add(.lux, dimension[.illuminance])
        add(.radian, dimension[.angle])
        add(.percent, dimension[.percent])
        add(.internationalUnit, dimension[.internationalUnit])
        add(.decibelHearingLevel, dimension[.hearingLevel])
        add(.appleEffortScore, dimension[.effortScore])
        add(.diopter, dimension[.diopter])
        add(.prismDiopter, dimension[.prismDiopter])
        return factors.isEmpty ? .count() : HKUnit(factors: factors)
    }

    /// `value` in this unit expressed in ``baseUnit``, for storing quantities canonically.
    /// Throws `HKError(.errorInvalidArgument)` for a unit with degC, degF or dBASPL inside a compound.
    package func convertToBase(_ value: Double) throws -> Double {
        switch rule {
        case .linear:
            return PowerOfTen.scale(value * numerator / denominator, by: exponent10)
        case .affine(_, let offset, let divisor):
            return (value + offset) / divisor
        case .soundPressureLevel:
            return 0.02 * Foundation.pow(10, value / 20)  // 2·10⁻⁵ Pa is 0.02 g/(m·s²)
        case .unconvertible:
            throw unconvertible()
        }
    }

    /// The inverse of ``convertToBase(_:)``: `base` in ``baseUnit`` expressed in this unit.
    package func convertFromBase(_ base: Double) throws -> Double {
        switch rule {
        case .linear:
            return PowerOfTen.scale(base * denominator / numerator, by: -exponent10)
        case .affine(_, let offset, let divisor):
            return base * divisor - offset
        case .soundPressureLevel:
            return 20 * Foundation.log10(base / 0.02)
        case .unconvertible:
            throw unconvertible()
        }
    }

    /// Same as ``convertToBase(_:)``; the name the store's first version calls.
    package func toBase(_ value: Double) throws -> Double { try convertToBase(value) }

    /// Same as ``convertFromBase(_:)``.
    package func fromBase(_ base: Double) throws -> Double { try convertFromBase(base) }

    private func unconvertible() -> HKError {
        HKError.invalidArgument(
            "Cannot convert \"\(unitString)\": degC, degF and dBASPL convert only on their own, not inside a compound unit or raised to a power"
        )
    }

    // MARK: - Formatting

    private static func format(_ factors: [UnitFactor]) -> String {
        if factors.isEmpty { return "()" }
        var text = ""
        var hasNumerator = false
        for factor in factors where factor.exponent > 0 {
            if hasNumerator { text += "·" }
            append(factor.atom, factor.exponent, to: &text)
            hasNumerator = true
        }
        var first = true
        for factor in factors where factor.exponent < 0 {
            if first {
                if hasNumerator { text += "/" }
                first = false
            } else {
                text += "·"
            }
            append(factor.atom, hasNumerator ? -factor.exponent : factor.exponent, to: &text)
        }
        return text
    }

    private static func append(_ atom: UnitAtom, _ exponent: Int, to text: inout String) {
        text += atom.symbol
        if exponent != 1 {
            text += "^"
            text += String(exponent)
        }
    }
}
