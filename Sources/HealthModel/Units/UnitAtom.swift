import Foundation

/// One named unit of HealthKit's grammar (`g`, `mmHg`, `degF`, `mol<M>`…) with a prefix.
/// `scale` converts a value in the atom to the dimension's SI base (g, m, s, K, A, and each
/// HealthKit scale's own unit); affine and logarithmic atoms carry their rule in `conversion`.
package struct UnitAtom: Hashable, Sendable {
    package let definition: Definition
    package let prefix: HKMetricPrefix
    /// Grams per mole, for `mol<M>` atoms only.
    package let molarMass: Double?

    /// The atom as `unitString` writes it: prefix, symbol, and for moles the molar mass to 16 significant digits.
    /// Stored, because merging, formatting and equality all read it.
    package let symbol: String

    package init(_ definition: Definition, prefix: HKMetricPrefix = .none, molarMass: Double? = nil) {
        self.definition = definition
        self.prefix = prefix
        self.molarMass = molarMass
        if let molarMass {
            symbol = prefix.symbol + "mol<" + UnitAtom.format(molarMass) + ">"
        } else {
            symbol = prefix == .none ? definition.symbol : prefix.symbol + definition.symbol
        }
    }

    /// Multiplier to the SI base of the atom's dimension, prefix and molar mass included.
    package var scale: Double { definition.scale * prefix.factor * (molarMass ?? 1) }

    static func format(_ molarMass: Double) -> String { String(format: "%.16g", molarMass) }

    /// How a value in an atom becomes a value in its base unit.
    package enum Conversion: Sendable, Hashable {
        /// base = value × scale
        case linear
        /// base = value × scale + offset (degC, degF)
        case affine(offset: Double)
        /// base (g·m⁻¹·s⁻²) = 2·10⁻⁵ Pa × 10^(value/20) × 1000 (dBASPL)
        case soundPressureLevel
    }

    /// A named unit HealthKit knows.
    package struct Definition: Hashable, Sendable {
        package let symbol: String
        package let dimension: UnitDimension
        package let scale: Double
        package let prefixable: Bool
        package let conversion: Conversion

        init(_ symbol: String, _ dimension: [UnitDimension.Base: Int], _ scale: Double,
             prefixable: Bool = false, conversion: Conversion = .linear) {
            self.symbol = symbol
            self.dimension = UnitDimension(dimension)
            self.scale = scale
            self.prefixable = prefixable
            self.conversion = conversion
        }

        package static func == (l: Definition, r: Definition) -> Bool { l.symbol == r.symbol }
        package func hash(into hasher: inout Hasher) { hasher.combine(symbol) }
    }
}

extension UnitAtom.Definition {
    // SI derived units expressed in the base (g, m, s, K, A): 1 kg = 1000 g.
    static let mass: [UnitDimension.Base: Int] = [.mass: 1]
    static let length: [UnitDimension.Base: Int] = [.length: 1]
    static let volume: [UnitDimension.Base: Int] = [.length: 3]
    static let pressure: [UnitDimension.Base: Int] = [.mass: 1, .length: -1, .time: -2]
    static let energy: [UnitDimension.Base: Int] = [.mass: 1, .length: 2, .time: -2]
    static let time: [UnitDimension.Base: Int] = [.time: 1]
    static let litre = 1e-3  // m³

    static let gram = Self("g", mass, 1, prefixable: true)
    static let mole = Self("mol", mass, 1, prefixable: true)  // × molar mass (g/mol)
    static let ounce = Self("oz", mass, 28.349523125)
    static let pound = Self("lb", mass, 453.59237)
    static let stone = Self("st", mass, 6350.29318)
    static let meter = Self("m", length, 1, prefixable: true)
    static let inch = Self("in", length, 0.0254)
    static let foot = Self("ft", length, 0.3048)
    static let yard = Self("yd", length, 0.9144)
    static let mile = Self("mi", length, 1609.344)
    static let liter = Self("L", volume, litre, prefixable: true)
    static let fluidOunceUS = Self("fl_oz_us", volume, 0.0295735295625 * litre)
    static let fluidOunceImperial = Self("fl_oz_imp", volume, 0.0284130625 * litre)
    static let pintUS = Self("pt_us", volume, 0.473176473 * litre)
    static let pintImperial = Self("pt_imp", volume, 0.56826125 * litre)
    static let cupUS = Self("cup_us", volume, 0.2365882365 * litre)
    static let cupImperial = Self("cup_imp", volume, 0.284130625 * litre)
    static let pascal = Self("Pa", pressure, 1000, prefixable: true)
    static let millimeterOfMercury = Self("mmHg", pressure, 133.322387415 * 1000)
    static let centimeterOfWater = Self("cmAq", pressure, 98.0665 * 1000)
    static let atmosphere = Self("atm", pressure, 101_325 * 1000)
    static let inchOfMercury = Self("inHg", pressure, 3386.38816 * 1000)
    static let decibelSoundPressure = Self("dBASPL", pressure, 1, conversion: .soundPressureLevel)
    static let second = Self("s", time, 1, prefixable: true)
    static let minute = Self("min", time, 60)
    static let hour = Self("hr", time, 3600)
    static let day = Self("d", time, 86400)
    static let joule = Self("J", energy, 1000, prefixable: true)
    static let smallCalorie = Self("cal", energy, 4.184 * 1000)
    static let kilocalorie = Self("kcal", energy, 4184 * 1000)
    static let largeCalorie = Self("Cal", energy, 4184 * 1000)
    static let kelvin = Self("K", [.temperature: 1], 1, prefixable: true)
    static let celsius = Self("degC", [.temperature: 1], 1, conversion: .affine(offset: 273.15))
    static let fahrenheit = Self("degF", [.temperature: 1], 5.0 / 9.0, conversion: .affine(offset: 459.67))
    // S = A²·s³/(kg·m²), V = kg·m²/(A·s³), W = J/s
    static let siemens = Self("S", [.current: 2, .time: 3, .mass: -1, .length: -2], 1e-3, prefixable: true)
    static let volt = Self("V", [.mass: 1, .length: 2, .current: -1, .time: -3], 1000, prefixable: true)
    static let watt = Self("W", [.mass: 1, .length: 2, .time: -3], 1000, prefixable: true)
    static let hertz = Self("Hz", [.time: -1], 1, prefixable: true)
    static let radian = Self("rad", [.angle: 1], 1, prefixable: true)
    static let degree = Self("deg", [.angle: 1], Double.pi / 180)
    static let lux = Self("lx", [.luminous: 1, .length: -2], 1, prefixable: true)
    static let count = Self("count", [:], 1)
    static let percent = Self("%", [.percent: 1], 1)
    static let internationalUnit = Self("IU", [.internationalUnit: 1], 1)
    static let decibelHearingLevel = Self("dBHL", [.hearingLevel: 1], 1)
    static let appleEffortScore = Self("appleEffortScore", [.effortScore: 1], 1)
    static let diopter = Self("D", [.diopter: 1], 1)
    static let prismDiopter = Self("pD", [.prismDiopter: 1], 1)

    /// Every named unit, by the symbol a unit string may use (`l` is also a litre).
    static let bySymbol: [String: UnitAtom.Definition] = {
        let all: [Self] = [
            gram, ounce, pound, stone, meter, inch, foot, yard, mile, liter, fluidOunceUS, fluidOunceImperial,
            pintUS, pintImperial, cupUS, cupImperial, pascal, millimeterOfMercury, centimeterOfWater, atmosphere,
            inchOfMercury, decibelSoundPressure, second, minute, hour, day, joule, smallCalorie, kilocalorie,
            largeCalorie, kelvin, celsius, fahrenheit, siemens, volt, watt, hertz, radian, degree, lux, count,
            percent, internationalUnit, decibelHearingLevel, appleEffortScore, diopter, prismDiopter,
        ]
        var table = Dictionary(uniqueKeysWithValues: all.map { ($0.symbol, $0) })
        table["l"] = liter
        return table
    }()
}
