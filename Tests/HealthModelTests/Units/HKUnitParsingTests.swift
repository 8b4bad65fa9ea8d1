import Foundation
import Testing
@testable import HealthModel

@Suite("HKUnit parsing")
struct HKUnitParsingTests {
    /// Every atom of shared/reference/healthkit/units.tsv, as a unit string.
    static let atoms = [
        "g", "oz", "lb", "st", "mol<180.15588000005408>", "m", "in", "ft", "yd", "mi", "L", "l", "fl_oz_us", "fl_oz_imp",
        "pt_us", "pt_imp", "cup_us", "cup_imp", "Pa", "mmHg", "cmAq", "atm", "inHg", "dBASPL", "s", "min", "hr", "d",
        "J", "cal", "kcal", "Cal", "K", "degC", "degF", "S", "Hz", "V", "W", "rad", "deg", "D", "pD", "lx", "IU", "count",
        "%", "dBHL", "appleEffortScore",
    ]

    @Test(arguments: atoms)
    func everyAtomParsesAndRoundTrips(symbol: String) throws {
        let unit = try HKUnit.parse(symbol)
        #expect(try HKUnit.parse(unit.unitString) == unit)
        #expect(!unit.isNull())
    }

    /// Unit strings seen in real Apple Health exports (hkunit.md §6).
    static let exportStrings = [
        "count", "count/min", "count/s", "kcal", "Cal", "kJ", "km", "mi", "m", "cm", "in", "ft", "kg", "lb", "%", "ms",
        "W", "km/hr", "mi/hr", "min", "hr", "mL", "mmHg", "dBASPL", "dBHL", "Hz", "degC", "degF", "mg/dL",
        "mmol<180.1558800000541>/L", "mL/min·kg", "mL/kg·min", "kcal/hr·kg",
    ]

    @Test(arguments: exportStrings)
    func everyExportStringParsesAndRoundTrips(string: String) throws {
        let unit = try HKUnit.parse(string)
        #expect(try HKUnit.parse(unit.unitString) == unit)
    }

    @Test func canonicalFormUsesMiddleDotsAndOneSlash() throws {
        #expect(try HKUnit.parse("ml/(kg*min)").unitString == "mL/kg·min")
        #expect(try HKUnit.parse("kcal/(kg*hr)").unitString == "kcal/kg·hr")
        #expect(try HKUnit.parse("kg/m.s^2").unitString == "kg/m·s^2")
        #expect(try HKUnit.parse("kg.m^-1.s^-2") == HKUnit.parse("kg/(m.s^2)"))
        #expect(try HKUnit.parse("m*m").unitString == "m^2")
        #expect(try HKUnit.parse("s^-1").unitString == "s^-1")
        #expect(try HKUnit.parse("count/count").unitString == "()")
        #expect(try HKUnit.parse("()").isNull())
    }

    @Test func molarMassPrintsWithSixteenSignificantDigits() throws {
        let glucose = HKUnit.moleUnit(with: .milli, molarMass: HKUnitMolarMassBloodGlucose).unitDivided(by: .liter())
        #expect(glucose.unitString == "mmol<180.1558800000541>/L")
        #expect(try HKUnit.parse("mmol<180.1558800000541>/L") == glucose)
    }

    @Test func tokenisingPrefersWholeUnitNames() throws {
        #expect(try HKUnit.parse("mmHg") == .millimeterOfMercury())
        #expect(try HKUnit.parse("min") == .minute())
        #expect(try HKUnit.parse("d") == .day())
        #expect(try HKUnit.parse("dL") == .literUnit(with: .deci))
        #expect(try HKUnit.parse("mcg") == .gramUnit(with: .micro))
        #expect(try HKUnit.parse("cmAq") == .centimeterOfWater())
        #expect(try HKUnit.parse("Cal") != HKUnit.parse("cal"))
        #expect(try HKUnit.parse("dam") == .meterUnit(with: .deca))
        #expect(try HKUnit.parse("S") != HKUnit.parse("s"))
        #expect(try HKUnit.parse("kPa") == .pascalUnit(with: .kilo))
        #expect(try HKUnit.parse("fg") == .gramUnit(with: .femto))
    }

    @Test func unitsAreEqualHoweverTheyAreWritten() throws {
        #expect(HKUnit(from: "kg") == .gramUnit(with: .kilo))
        #expect(HKUnit(from: "count/min") == HKUnit.count().unitDivided(by: .minute()))
        #expect(HKUnit(from: "min^-1*count") == HKUnit(from: "count/min"))
        #expect(HKUnit(from: "l") == HKUnit(from: "L"))
        #expect(Set([HKUnit(from: "mL/kg·min"), HKUnit(from: "ml/(kg*min)")]).count == 1)
    }

    /// Strings HealthKit does not accept, with the position the error must name.
    static let invalid: [(String, Int)] = [
        ("ml/kg/min", 6), ("", 1), ("kgg", 1), ("m^", 3), ("m^x", 3), ("(kg", 4), ("kg)", 3), ("k g", 1),
        ("mol", 1), ("mol<>", 5), ("mol<-5>", 5), ("mol<abc>", 5), ("mol<1", 6), ("kcal/hr-kg", 8), ("m^99999", 3),
        ("/s", 1), ("m//s", 3), ("xmol<1>", 1), ("m·", 3),
    ]

    @Test(arguments: invalid)
    func invalidStringsNameTheStringAndPosition(string: String, position: Int) {
        #expect {
            _ = try HKUnit.parse(string)
        } throws: { error in
            guard let error = error as? HKError, error.code == .errorInvalidArgument else { return false }
            return error.message.contains("\"\(string)\"") && error.message.contains("at position \(position):")
        }
    }

    @Test func appleInitializerTrapsOnABadString() async {
        await #expect(processExitsWith: .failure) {
            _ = HKUnit(from: "furlongs/fortnight")
        }
    }

    @Test func factoriesMatchTheirSymbols() {
        let pairs: [(HKUnit, String)] = [
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
            (.appleEffortScore(), "appleEffortScore"), (.meterUnit(with: .kilo), "km"), (.literUnit(with: .milli), "mL"),
            (.secondUnit(with: .milli), "ms"), (.jouleUnit(with: .kilo), "kJ"), (.siemenUnit(with: .micro), "mcS"),
            (.voltUnit(with: .micro), "mcV"), (.hertzUnit(with: .kilo), "kHz"), (.wattUnit(with: .kilo), "kW"),
            (.luxUnit(with: .kilo), "klx"), (.radianAngleUnit(with: .milli), "mrad"), (.pascalUnit(with: .kilo), "kPa"),
            (.moleUnit(withMolarMass: 58.44), "mol<58.44>"),
        ]
        for (unit, symbol) in pairs {
            #expect(unit.unitString == symbol)
            #expect(HKUnit(from: symbol) == unit, "\(symbol)")
        }
    }

    @Test func unitArithmetic() {
        let meter = HKUnit.meter()
        #expect(meter.unitMultiplied(by: meter).unitString == "m^2")
        #expect(meter.unitRaised(toPower: 3) == HKUnit(from: "m^3"))
        #expect(meter.unitRaised(toPower: 0).isNull())
        #expect(HKUnit.second().reciprocal().unitString == "s^-1")
        #expect(HKUnit.second().reciprocal().reciprocal() == .second())
        #expect(HKUnit.count().unitDivided(by: .count()).isNull())
        #expect(HKUnit.literUnit(with: .milli).unitDivided(by: HKUnit.gramUnit(with: .kilo).unitMultiplied(by: .minute())).unitString
                == "mL/kg·min")
        #expect(!HKUnit.count().isNull())
    }

    @Test func formatterUnitsBridge() {
        #expect(HKUnit(from: MassFormatter.Unit.kilogram) == .gramUnit(with: .kilo))
        #expect(HKUnit.massFormatterUnit(from: .pound()) == .pound)
        #expect(HKUnit(from: LengthFormatter.Unit.mile) == .mile())
        #expect(HKUnit.lengthFormatterUnit(from: .meterUnit(with: .centi)) == .centimeter)
        #expect(HKUnit(from: EnergyFormatter.Unit.kilojoule) == .jouleUnit(with: .kilo))
        #expect(HKUnit.energyFormatterUnit(from: .kilocalorie()) == .kilocalorie)
    }
}
