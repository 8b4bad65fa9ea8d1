import Foundation

/// One named unit of HealthKit's grammar, without prefix: `g`, `mmHg`, `degF`, `mol`…
///
/// Each kind knows its symbol, dimension and factor to the base of its dimension. The base is coherent in
/// **grams**, metres, seconds, kelvins and amperes (so 1 J = 1000 g·m²/s², 1 Pa = 1000 g/(m·s²)), and each
/// HealthKit scale is its own base (`lx`, `rad`, `%`, `IU`, `dBHL`, `appleEffortScore`, `D`, `pD`; `count` is 1).
/// A factor is `mantissa × 10^exponent10`, so SI prefixes and the kilo in kilogram change only the
/// exponent and convert exactly: the published factors below (1 lb = 453.59237 g, 1 mmHg = 133.322387415 Pa…)
/// come out unrounded.
///
/// ```swift
/// UnitAtomKind.pound.symbol      // "lb"
/// UnitAtomKind(symbol: "l")      // .liter — "l" is also a litre
/// ```
package enum UnitAtomKind: UInt8, CaseIterable, Sendable {
    case gram, mole, ounce, pound, stone
    case meter, inch, foot, yard, mile
    case liter, fluidOunceUS, fluidOunceImperial, pintUS, pintImperial, cupUS, cupImperial
    case pascal, millimeterOfMercury, centimeterOfWater, atmosphere, inchOfMercury, decibelSoundPressureLevel
    case second, minute, hour, day
    case joule, smallCalorie, kilocalorie, largeCalorie
    case kelvin, degreeCelsius, degreeFahrenheit
    case siemens, volt, watt, hertz
    case radian, degreeAngle, lux
    case count, percent, internationalUnit, decibelHearingLevel, appleEffortScore, diopter, prismDiopter

    /// How a value in an atom becomes a value in its base unit.
    package enum Conversion: Sendable, Equatable {
        /// base = value × factor
        case linear
        /// base = (value + offset) / divisor — degC (273.15, 1) and degF (459.67, 1.8), in kelvins.
        case affine(offset: Double, divisor: Double)
        /// base pressure = 2·10⁻⁵ Pa × 10^(value/20) — dBASPL, a logarithmic (decibel) scale.
        case soundPressureLevel
    }

    /// The symbol `unitString` writes (a litre is written `L`).
    package var symbol: String {
        switch self {
        case .gram: "g"
        case .mole: "mol"
        case .ounce: "oz"
        case .pound: "lb"
        case .stone: "st"
        case .meter: "m"
        case .inch: "in"
        case .foot: "ft"
        case .yard: "yd"
        case .mile: "mi"
        case .liter: "L"
        case .fluidOunceUS: "fl_oz_us"
        case .fluidOunceImperial: "fl_oz_imp"
        case .pintUS: "pt_us"
        case .pintImperial: "pt_imp"
        case .cupUS: "cup_us"
        case .cupImperial: "cup_imp"
        case .pascal: "Pa"
        case .millimeterOfMercury: "mmHg"
        case .centimeterOfWater: "cmAq"
        case .atmosphere: "atm"
        case .inchOfMercury: "inHg"
        case .decibelSoundPressureLevel: "dBASPL"
        case .second: "s"
        case .minute: "min"
        case .hour: "hr"
        case .day: "d"
        case .joule: "J"
        case .smallCalorie: "cal"
        case .kilocalorie: "kcal"
        case .largeCalorie: "Cal"
        case .kelvin: "K"
        case .degreeCelsius: "degC"
        case .degreeFahrenheit: "degF"
        case .siemens: "S"
        case .volt: "V"
        case .watt: "W"
        case .hertz: "Hz"
        case .radian: "rad"
        case .degreeAngle: "deg"
        case .lux: "lx"
        case .count: "count"
        case .percent: "%"
        case .internationalUnit: "IU"
        case .decibelHearingLevel: "dBHL"
        case .appleEffortScore: "appleEffortScore"
        case .diopter: "D"
        case .prismDiopter: "pD"
        }
    }

    /// Whether the atom takes an SI prefix (HealthKit's SI units: g, mol, m, L, Pa, s, J, K, S, Hz, V, W, rad, lx).
    package var isPrefixable: Bool {
        switch self {
        case .gram, .mole, .meter, .liter, .pascal, .second, .joule, .kelvin, .siemens, .hertz, .volt, .watt,
             .radian, .lux:
            true
        default:
            false
        }
    }

    package var dimension: UnitDimension {
        switch self {
        case .gram, .mole, .ounce, .pound, .stone:
            UnitDimension([.mass: 1])
        case .meter, .inch, .foot, .yard, .mile:
            UnitDimension([.length: 1])
        case .liter, .fluidOunceUS, .fluidOunceImperial, .pintUS, .pintImperial, .cupUS, .cupImperial:
            UnitDimension([.length: 3])
        case .pascal, .millimeterOfMercury, .centimeterOfWater, .atmosphere, .inchOfMercury, .decibelSoundPressureLevel:
            UnitDimension([.mass: 1, .length: -1, .time: -2])
        case .second, .minute, .hour, .day:
            UnitDimension([.time: 1])
        case .joule, .smallCalorie, .kilocalorie, .largeCalorie:
            UnitDimension([.mass: 1, .length: 2, .time: -2])
        case .kelvin, .degreeCelsius, .degreeFahrenheit:
            UnitDimension([.temperature: 1])
        case .siemens:  // S = A²·s³/(kg·m²)
            UnitDimension([.mass: -1, .length: -2, .time: 3, .current: 2])
        case .volt:  // V = kg·m²/(A·s³)
            UnitDimension([.mass: 1, .length: 2, .time: -3, .current: -1])
        case .watt:  // W = J/s
            UnitDimension([.mass: 1, .length: 2, .time: -3])
        case .hertz:
            UnitDimension([.time: -1])
        case .radian, .degreeAngle:
            UnitDimension([.angle: 1])
        case .lux:
            UnitDimension([.illuminance: 1])
        case .count:
            UnitDimension()
        case .percent:
            UnitDimension([.percent: 1])
        case .internationalUnit:
            UnitDimension([.internationalUnit: 1])
        case .decibelHearingLevel:
            UnitDimension([.hearingLevel: 1])
        case .appleEffortScore:
            UnitDimension([.effortScore: 1])
        case .diopter:
            UnitDimension([.diopter: 1])
        case .prismDiopter:
            UnitDimension([.prismDiopter: 1])
        }
    }

    /// The factor to the dimension's base is `mantissa × 10^exponent10` (see the type's documentation).
    /// Mantissas are the published exact values; the power of ten carries SI scaling and grams-per-kilogram.
    package var mantissa: Double {
        switch self {
        case .ounce: 28.349523125  // g
        case .pound: 453.59237  // g
        case .stone: 6350.29318  // g
        case .inch: 0.0254  // m
        case .foot: 0.3048  // m
        case .yard: 0.9144  // m
        case .mile: 1609.344  // m
        case .fluidOunceUS: 0.0295735295625  // L
        case .fluidOunceImperial: 0.0284130625  // L
        case .pintUS: 0.473176473  // L
        case .pintImperial: 0.56826125  // L
        case .cupUS: 0.2365882365  // L
        case .cupImperial: 0.284130625  // L
        case .millimeterOfMercury: 133.322387415  // Pa
        case .centimeterOfWater: 98.0665  // Pa
        case .atmosphere: 101_325  // Pa
        case .inchOfMercury: 3386.38816  // Pa
        case .minute: 60  // s
        case .hour: 3600  // s
        case .day: 86400  // s
        case .smallCalorie: 4.184  // J
        case .kilocalorie, .largeCalorie: 4184  // J
        case .degreeAngle: Double.pi / 180  // rad
        default: 1
        }
    }

    /// See ``mantissa``: 3 for the units defined through kg (Pa, J, W, V and their multiples), -3 for litres
    /// (1 L = 10⁻³ m³) and siemens (1 S = 10⁻³ A²·s³·g⁻¹·m⁻²).
    package var exponent10: Int {
        switch self {
        case .pascal, .millimeterOfMercury, .centimeterOfWater, .atmosphere, .inchOfMercury: 3
        case .joule, .smallCalorie, .kilocalorie, .largeCalorie, .watt, .volt: 3
        case .liter, .fluidOunceUS, .fluidOunceImperial, .pintUS, .pintImperial, .cupUS, .cupImperial: -3
        case .siemens: -3
        default: 0
        }
    }

    package var conversion: Conversion {
        switch self {
        case .degreeCelsius: .affine(offset: 273.15, divisor: 1)
        case .degreeFahrenheit: .affine(offset: 459.67, divisor: 1.8)
        case .decibelSoundPressureLevel: .soundPressureLevel
        default: .linear
        }
    }

    /// The kind a unit string spells with `symbol` exactly (no prefix), if any. `l` is also a litre.
    package init?(symbol: String) {
        guard let kind = UnitAtomKind.bySymbol[symbol] else { return nil }
        self = kind
    }

    private static let bySymbol: [String: UnitAtomKind] = {
        var table = [String: UnitAtomKind](minimumCapacity: allCases.count + 1)
        for kind in allCases where kind != .mole { table[kind.symbol] = kind }
        table["l"] = .liter
        return table
    }()
}

/// A named unit with its SI prefix, and for moles the molar mass: `kg`, `mcS`, `mmol<180.1558800000541>`.
///
/// Molar masses are kept at the 16 significant digits `unitString` prints, so a unit and the unit read back
/// from its string are identical, and `mmol<180.15588000005408>` equals `mmol<180.1558800000541>`.
package struct UnitAtom: Hashable, Sendable {
    package let kind: UnitAtomKind
    package let prefix: HKMetricPrefix
    /// Grams per mole for `mol` atoms (positive, finite, rounded to 16 significant digits); 0 for every other atom.
    package let molarMass: Double

    /// An atom. `molarMass` must already be valid and rounded (see ``roundedMolarMass(_:)``) for moles.
    package init(_ kind: UnitAtomKind, prefix: HKMetricPrefix = .none, molarMass: Double = 0) {
        self.kind = kind
        self.prefix = prefix
        self.molarMass = kind == .mole ? molarMass : 0
    }

    /// The atom as `unitString` writes it.
    package var symbol: String {
        var text = prefix.symbol + kind.symbol
        if kind == .mole {
            text += "<" + UnitAtom.format(molarMass) + ">"
        }
        return text
    }

    /// The mantissa of the atom's factor to base (prefix excluded; molar mass included).
    package var mantissa: Double { kind == .mole ? molarMass : kind.mantissa }
    /// The power of ten of the atom's factor to base, prefix included.
    package var exponent10: Int { kind.exponent10 + prefix.exponent10 }

    /// `molarMass` rounded to the 16 significant digits `unitString` prints, or `nil` unless it is a
    /// positive, finite number of grams per mole.
    package static func roundedMolarMass(_ molarMass: Double) -> Double? {
        guard molarMass.isFinite, molarMass > 0 else { return nil }
        guard let rounded = Double(format(molarMass)), rounded.isFinite, rounded > 0 else { return nil }
        return rounded
    }

    /// `%.16g`, as HealthKit prints molar masses (`180.15588000005408` → `180.1558800000541`).
    package static func format(_ value: Double) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 40) { buffer in
            let written = withVaList([value]) { vsnprintf(buffer.baseAddress!, 40, "%.16g", $0) }
            let bytes = UnsafeRawBufferPointer(start: buffer.baseAddress!, count: max(0, min(Int(written), 39)))
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
