import Foundation
import Testing
@testable import HealthModel

@Suite("HKUnit factories and unit math")
struct HKUnitFactoryTests {
    /// Every Apple factory with the unit string it stands for.
    static let factories: [(HKUnit, String)] = [
        (.gram(), "g"), (.ounce(), "oz"), (.pound(), "lb"), (.stone(), "st"), (.meter(), "m"), (.inch(), "in"),
        (.foot(), "ft"), (.yard(), "yd"), (.mile(), "mi"), (.liter(), "L"), (.fluidOunceUS(), "fl_oz_us"),
        (.fluidOunceImperial(), "fl_oz_imp"), (.pintUS(), "pt_us"), (.pintImperial(), "pt_imp"), (.cupUS(), "cup_us"),
        (.cupImperial(), "cup_imp"), (.pascal(), "Pa"), (.millimeterOfMercury(), "mmHg"), (.centimeterOfWater(), "cmAq"),
        (.atmosphere(), "atm"), (.decibelAWeightedSoundPressureLevel(), "dBASPL"), (.inchesOfMercury(), "inHg"),
        (.second(), "s"), (.minute(), "min"), (.hour(), "hr"), (.day(), "d"), (.joule(), "J"), (.kilocalorie(), "kcal"),
        (.smallCalorie(), "cal"), (.largeCalorie(), "Cal"), (.degreeCelsius(), "degC"), (.degreeFahrenheit(), "degF"),
        (.kelvin(), "K"), (.siemen(), "S"), (.internationalUnit(), "IU"), (.count(), "count"), (.percent(), "%"),
        (.decibelHearingLevel(), "dBHL"), (.hertz(), "Hz"), (.volt(), "V"), (.watt(), "W"), (.diopter(), "D"),
        (.prismDiopter(), "pD"), (.radianAngle(), "rad"), (.degreeAngle(), "deg"), (.lux(), "lx"),
        (.appleEffortScore(), "appleEffortScore"), (.gramUnit(with: .kilo), "kg"), (.meterUnit(with: .kilo), "km"),
        (.literUnit(with: .milli), "mL"), (.pascalUnit(with: .kilo), "kPa"), (.secondUnit(with: .milli), "ms"),
        (.jouleUnit(with: .kilo), "kJ"), (.siemenUnit(with: .micro), "mcS"), (.voltUnit(with: .micro), "mcV"),
        (.hertzUnit(with: .kilo), "kHz"), (.wattUnit(with: .kilo), "kW"), (.luxUnit(with: .kilo), "klx"),
        (.radianAngleUnit(with: .milli), "mrad"), (.moleUnit(withMolarMass: 58.44), "mol<58.44>"),
        (.moleUnit(with: .milli, molarMass: HKUnitMolarMassBloodGlucose), "mmol<180.1558800000541>"),
    ]

    @Test(arguments: factories)
    func factoryPrintsItsSymbol(unit: HKUnit, symbol: String) {
        #expect(unit.unitString == symbol)
    }

    @Test(arguments: factories)
    func factoryEqualsTheParsedSymbol(unit: HKUnit, symbol: String) throws {
        #expect(try HKUnit.parse(symbol) == unit)
    }

    /// hkunit.md §3: symbol and factor of every prefix.
    static let prefixes: [(HKMetricPrefix, String, Double)] = [
        (.none, "", 1), (.femto, "f", 1e-15), (.pico, "p", 1e-12), (.nano, "n", 1e-9), (.micro, "mc", 1e-6),
        (.milli, "m", 1e-3), (.centi, "c", 1e-2), (.deci, "d", 1e-1), (.deca, "da", 1e1), (.hecto, "h", 1e2),
        (.kilo, "k", 1e3), (.mega, "M", 1e6), (.giga, "G", 1e9), (.tera, "T", 1e12),
    ]

    @Test(arguments: prefixes)
    func prefixesSpellAndScaleAsHealthKitDocuments(prefix: HKMetricPrefix, symbol: String, factor: Double) throws {
        let unit = HKUnit.gramUnit(with: prefix)
        #expect(unit.unitString == symbol + "g")
        #expect(try HKUnit.parse(symbol + "g") == unit)
        #expect(try unit.convert(1, to: .gram()) == factor)
    }

    @Test func prefixRawValuesAreApples() {
        #expect(HKMetricPrefix.allCases.map(\.rawValue) == Array(0...13))
        #expect(HKMetricPrefix.femto.rawValue == 13)
        #expect(HKMetricPrefix.micro.symbol == "mc")
        #expect(HKMetricPrefix.deca.symbol == "da")
    }

    @Test func moleFactoryRoundsTheMolarMassAsPrinted() {
        #expect(HKUnit.moleUnit(with: .milli, molarMass: 180.15588000005408) == HKUnit.moleUnit(with: .milli, molarMass: 180.1558800000541))
    }

    @Test func moleFactoryTrapsOnAZeroMolarMass() async {
        await #expect(processExitsWith: .failure) {
            _ = HKUnit.moleUnit(withMolarMass: 0)
        }
    }

    @Test func moleFactoryTrapsOnANaNMolarMass() async {
        await #expect(processExitsWith: .failure) {
            _ = HKUnit.moleUnit(with: .milli, molarMass: .nan)
        }
    }

    @available(*, deprecated)
    @Test func deprecatedCalorieIsTheSmallCalorieAsItsHeaderDeclared() {
        #expect(HKUnit.calorie() == .smallCalorie())
        #expect(HKUnit.calorie().unitString == "cal")
    }

    // MARK: Unit math

    @Test func multiplyingCombinesRepeatedAtoms() {
        #expect(HKUnit.meter().unitMultiplied(by: .meter()).unitString == "m^2")
    }

    @Test func multiplyingKeepsFirstAppearanceOrder() {
        #expect(HKUnit.gramUnit(with: .kilo).unitMultiplied(by: .meter()).unitString == "kg·m")
        #expect(HKUnit.meter().unitMultiplied(by: .gramUnit(with: .kilo)).unitString == "m·kg")
    }

    @Test func dividingBuildsARate() {
        #expect(HKUnit.count().unitDivided(by: .minute()) == HKUnit(from: "count/min"))
        #expect(HKUnit.literUnit(with: .milli).unitDivided(by: HKUnit.gramUnit(with: .kilo).unitMultiplied(by: .minute())).unitString
            == "mL/kg·min")
    }

    @Test func dividingAUnitByItselfGivesTheNullUnit() {
        let null = HKUnit.count().unitDivided(by: .count())
        #expect(null.isNull())
        #expect(null.unitString == "()")
        #expect(!HKUnit.count().isNull())
    }

    @Test func raisingToAPower() {
        #expect(HKUnit.meter().unitRaised(toPower: 3) == HKUnit(from: "m^3"))
        #expect(HKUnit(from: "m/s").unitRaised(toPower: 2).unitString == "m^2/s^2")
        #expect(HKUnit.meter().unitRaised(toPower: 0).isNull())
    }

    @Test func reciprocal() {
        #expect(HKUnit.second().reciprocal().unitString == "s^-1")
        #expect(HKUnit.second().reciprocal().reciprocal() == .second())
        #expect(HKUnit(from: "count/min").reciprocal().unitString == "min/count")
    }

    @Test func unitMathPastTheExponentLimitTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = HKUnit.meter().unitRaised(toPower: Int.max)
        }
    }

    // MARK: Formatter units

    @Test func massFormatterUnitsBridge() {
        #expect(HKUnit(from: MassFormatter.Unit.kilogram) == .gramUnit(with: .kilo))
        #expect(HKUnit(from: MassFormatter.Unit.stone) == .stone())
        #expect(HKUnit.massFormatterUnit(from: .pound()) == .pound)
        #expect(HKUnit.massFormatterUnit(from: HKUnit(from: "g")) == .gram)
    }

    @Test func lengthFormatterUnitsBridge() {
        #expect(HKUnit(from: LengthFormatter.Unit.mile) == .mile())
        #expect(HKUnit(from: LengthFormatter.Unit.millimeter) == HKUnit(from: "mm"))
        #expect(HKUnit.lengthFormatterUnit(from: .meterUnit(with: .centi)) == .centimeter)
        #expect(HKUnit.lengthFormatterUnit(from: .yard()) == .yard)
    }

    @Test func energyFormatterUnitsBridge() {
        #expect(HKUnit(from: EnergyFormatter.Unit.kilojoule) == .jouleUnit(with: .kilo))
        #expect(HKUnit(from: EnergyFormatter.Unit.calorie) == .smallCalorie())
        #expect(HKUnit.energyFormatterUnit(from: .kilocalorie()) == .kilocalorie)
        #expect(HKUnit.energyFormatterUnit(from: .largeCalorie()) == .kilocalorie)
    }

    @Test func formatterUnitOfAnUnmatchedUnitTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = HKUnit.massFormatterUnit(from: .meter())
        }
    }
}
