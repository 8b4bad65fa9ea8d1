import Foundation
import Testing
@testable import HealthModel

func convert(_ value: Double, _ from: String, _ to: String) throws -> Double {
    try HKUnit.parse(from).convert(value, to: HKUnit.parse(to))
}

@Suite("HKUnit conversion")
struct HKUnitConversionTests {
    /// Published exact factors, which must come out exactly (hkunit.md §4 and the exact values the brief gives).
    static let exactFactors: [(Double, String, String, Double)] = [
        (1, "mi", "m", 1609.344), (1, "lb", "kg", 0.45359237), (1, "lb", "g", 453.59237), (1, "oz", "g", 28.349523125),
        (1, "st", "g", 6350.29318), (1, "in", "m", 0.0254), (1, "ft", "m", 0.3048), (1, "yd", "m", 0.9144),
        (1, "in", "cm", 2.54), (1, "kcal", "J", 4184), (1, "Cal", "J", 4184), (1, "cal", "J", 4.184),
        (1, "Cal", "kJ", 4.184), (1, "kcal", "kJ", 4.184), (1, "mmHg", "Pa", 133.322387415),
        (1, "cmAq", "Pa", 98.0665), (1, "atm", "Pa", 101_325), (1, "atm", "kPa", 101.325),
        (1, "inHg", "Pa", 3386.38816), (1, "fl_oz_us", "L", 0.0295735295625), (1, "fl_oz_imp", "L", 0.0284130625),
        (1, "pt_us", "L", 0.473176473), (1, "pt_imp", "L", 0.56826125), (1, "cup_us", "L", 0.2365882365),
        (1, "cup_imp", "L", 0.284130625), (1, "min", "s", 60), (1, "hr", "s", 3600), (1, "d", "s", 86400),
        (1, "d", "min", 1440), (1, "kg", "g", 1000), (1, "g", "kg", 0.001), (1, "mL", "L", 0.001),
        (1, "L", "mL", 1000), (1, "km", "m", 1000), (1, "ms", "s", 0.001), (1, "kJ", "J", 1000),
        (1, "W", "J/s", 1), (1, "kW", "W", 1000), (72, "count/min", "count/s", 1.2), (1.2, "count/s", "count/min", 72),
        (1, "count/s", "Hz", 1), (1, "Hz", "s^-1", 1), (1, "mg/dL", "g/L", 0.01), (0, "degC", "K", 273.15),
        (98.6, "degF", "degC", 37), (0, "degC", "degF", 32), (-40, "degC", "degF", -40), (37, "degC", "degF", 98.6),
        (1, "K", "mK", 1000),
    ]

    @Test(arguments: exactFactors)
    func publishedFactorsAreExact(value: Double, from: String, to: String, expected: Double) throws {
        #expect(try convert(value, from, to) == expected)
    }

    /// Factors that go through an inexact step (fractions, molar masses, reciprocals), checked to 1e-12 relative.
    static let closeFactors: [(Double, String, String, Double)] = [
        (1, "fl_oz_us", "mL", 29.5735295625), (1, "cup_us", "fl_oz_us", 8), (1, "pt_imp", "fl_oz_imp", 20),
        (1, "L", "m^3", 0.001), (1, "mi", "km", 1.609344), (10, "km/hr", "m/s", 2.7777777777777777),
        (1, "kcal/hr·kg", "W/kg", 1.1622222222222222), (1, "W", "kcal/hr", 0.8604206500956023),
        (45, "mL/kg·min", "ml/(kg*min)", 45), (45, "mL/kg·min", "L/kg·hr", 2.7), (1, "mi/hr", "m/s", 0.44704),
        (32, "degF", "K", 273.15), (310.15, "K", "degF", 98.6), (300, "K", "degC", 26.85),
        (180, "deg", "rad", Double.pi), (1, "mcS", "S", 1e-6), (1, "mV", "V", 0.001), (1, "kPa", "mmHg", 7.500615758456564),
        (100, "mg/dL", "mmol<180.15588000005408>/L", 5.55074860726),
        (1, "mmol<180.15588000005408>/L", "mg/dL", 18.015588000005408),
        (1, "mmol<180.1558800000541>/L", "mg/dL", 18.01558800000541),
        (1, "mol<180.15588000005408>", "g", 180.15588000005408),
        (1, "lx", "klx", 0.001), (1, "mmHg", "kPa", 0.133322387415), (1, "W", "V^2·S", 1), (1, "V·S", "W/V", 1),
    ]

    @Test(arguments: closeFactors)
    func inexactFactorsAreClose(value: Double, from: String, to: String, expected: Double) throws {
        let result = try convert(value, from, to)
        #expect(abs(result - expected) <= 1e-12 * max(1, abs(expected)), "\(value) \(from) → \(result) \(to), expected \(expected)")
    }

    @Test func temperatureConversionsAreAffine() throws {
        #expect(try convert(0, "degC", "K") == 273.15)
        #expect(try convert(98.6, "degF", "degC") == 37)
        #expect(try convert(212, "degF", "degC") == 100)
        #expect(try convert(100, "degC", "degF") == 212)
    }

    @Test func bloodGlucoseMgPerDLAndMmolPerLDifferByTheMolarMassOverTen() throws {
        let mgPerDL = HKUnit(from: "mg/dL")
        let mmolPerL = HKUnit.moleUnit(with: .milli, molarMass: HKUnitMolarMassBloodGlucose).unitDivided(by: .liter())
        #expect(mgPerDL.isCompatible(with: mmolPerL))
        #expect(abs(try mgPerDL.convert(100, to: mmolPerL) - 5.5507) < 1e-4)
        #expect(abs(try mmolPerL.convert(1, to: mgPerDL) - 18.015588000005408) < 1e-12)
    }

    @Test func soundPressureLevelIsLogarithmic() throws {
        #expect(abs(try convert(0, "dBASPL", "Pa") - 2e-5) < 1e-20)
        #expect(abs(try convert(94, "dBASPL", "Pa") - 1.0023744672545445) < 1e-12)
        #expect(abs(try convert(20e-6, "Pa", "dBASPL")) < 1e-9)
        #expect(abs(try convert(1, "Pa", "dBASPL") - 93.97940008672037) < 1e-9)
        #expect(abs(try convert(try convert(70, "dBASPL", "kPa"), "kPa", "dBASPL") - 70) < 1e-9)
    }

    @Test func percentAndCountAreBothScalarsButDoNotConvert() {
        #expect(!HKUnit.percent().isCompatible(with: .count()))
        #expect(throws: HKError(.errorInvalidArgument)) { _ = try convert(0.5, "%", "count") }
    }

    @Test func percentConvertsOnlyToItself() throws {
        #expect(try convert(0.161, "%", "%") == 0.161)
    }

    @Test func countPerTimeIsCompatibleWithHertz() {
        #expect(HKUnit(from: "count/s").isCompatible(with: .hertz()))
        #expect(HKUnit(from: "count/min").isCompatible(with: .hertzUnit(with: .kilo)))
    }

    @Test func incompatibleUnitsNameBothUnits() {
        #expect {
            _ = try convert(5, "kg", "count/min")
        } throws: { error in
            guard let error = error as? HKError else { return false }
            return error.code == .errorInvalidArgument && error.message.contains("\"kg\"") && error.message.contains("\"count/min\"")
        }
    }

    static let incompatible: [(String, String)] = [
        ("IU", "g"), ("rad", "count"), ("deg", "count"), ("D", "m^-1"), ("pD", "D"), ("dBHL", "dBASPL"),
        ("appleEffortScore", "count"), ("lx", "count"), ("K", "s"), ("S", "V"), ("mg/dL", "mg"), ("%", "count"),
    ]

    @Test(arguments: incompatible)
    func separateScalesDoNotConvert(from: String, to: String) {
        #expect(!HKUnit(from: from).isCompatible(with: HKUnit(from: to)))
        #expect(throws: HKError(.errorInvalidArgument)) { _ = try convert(1, from, to) }
    }

    @Test func affineAndLogarithmicUnitsInsideACompoundDoNotConvert() throws {
        #expect(try convert(3, "degC/s", "degC/s") == 3)
        #expect(HKUnit(from: "degC/s").isCompatible(with: HKUnit(from: "K/s")))
        #expect(throws: HKError(.errorInvalidArgument)) { _ = try convert(3, "degC/s", "K/s") }
        #expect(throws: HKError(.errorInvalidArgument)) { _ = try convert(3, "K/s", "degF/s") }
        #expect(throws: HKError(.errorInvalidArgument)) { _ = try convert(3, "dBASPL^2", "Pa^2") }
        #expect(throws: HKError(.errorInvalidArgument)) { _ = try HKUnit(from: "degC·m").convertToBase(1) }
    }

    // MARK: Dimensions and base units

    static let dimensions: [(String, String)] = [
        ("kg", "mass"), ("mmol<180.15588000005408>", "mass"), ("mg/dL", "mass·length^-3"), ("count", "dimensionless"),
        ("count/min", "time^-1"), ("Hz", "time^-1"), ("kcal", "mass·length^2·time^-2"), ("mmHg", "mass·length^-1·time^-2"),
        ("S", "mass^-1·length^-2·time^3·current^2"), ("V", "mass·length^2·time^-3·current^-1"), ("lx", "illuminance"),
        ("%", "percent"), ("deg", "angle"), ("degF", "temperature"), ("appleEffortScore", "effort score"),
    ]

    @Test(arguments: dimensions)
    func dimension(unit: String, description: String) {
        #expect(HKUnit(from: unit).dimension.description == description)
    }

    /// The unit each unit's base values are in.
    static let baseUnits: [(String, String)] = [
        ("kg", "g"), ("lb", "g"), ("mmol<180.15588000005408>", "g"), ("mi", "m"), ("mL", "m^3"), ("mg/dL", "g/m^3"),
        ("kcal", "g·m^2/s^2"), ("W", "g·m^2/s^3"), ("mmHg", "g/m·s^2"), ("dBASPL", "g/m·s^2"), ("count/min", "s^-1"),
        ("Hz", "s^-1"), ("min", "s"), ("degF", "K"), ("degC", "K"), ("count", "count"), ("()", "count"), ("%", "%"),
        ("IU", "IU"), ("lx", "lx"), ("deg", "rad"), ("D", "D"), ("pD", "pD"), ("dBHL", "dBHL"),
        ("appleEffortScore", "appleEffortScore"), ("mcS", "s^3·W^2/g·m^2·V^2"), ("mcV", "g·m^2·V/s^3·W"),
        ("mL/kg·min", "m^3/g·s"),
    ]

    @Test(arguments: baseUnits)
    func baseUnit(unit: String, base: String) throws {
        let unit = HKUnit(from: unit)
        #expect(unit.baseUnit.unitString == base)
        #expect(unit.baseUnit.dimension == unit.dimension)
        #expect(try HKUnit.parse(base) == unit.baseUnit)
    }

    @Test(arguments: baseUnits.map(\.0))
    func convertToBaseAgreesWithConvertingToTheBaseUnit(unit: String) throws {
        let unit = HKUnit(from: unit)
        let direct = try unit.convertToBase(1.5)
        #expect(abs(try unit.convert(1.5, to: unit.baseUnit) - direct) <= 1e-12 * abs(direct))
        #expect(abs(try unit.convertFromBase(direct) - 1.5) <= 1e-12)
        #expect(try unit.baseUnit.convertToBase(2.5) == 2.5)
    }

    @Test func convertToBaseGivesCanonicalValues() throws {
        #expect(try HKUnit.pound().convertToBase(1) == 453.59237)
        #expect(try HKUnit.kilocalorie().convertToBase(1) == 4_184_000)  // g·m²/s²: 1 J = 1000 of them
        #expect(try HKUnit.degreeCelsius().convertToBase(0) == 273.15)
        #expect(try HKUnit(from: "count/min").convertToBase(72) == 1.2)
    }
}
