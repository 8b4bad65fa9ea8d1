import Foundation
import Testing
@testable import HealthModel

/// Whether `message` names `position` as a whole number ("position 1" must not match "position 12").
func names(position: Int, in message: String) -> Bool {
    guard let range = message.range(of: "at position \(position)") else { return false }
    guard let next = message[range.upperBound...].first else { return true }
    return !next.isNumber
}

@Suite("HKUnit parsing")
struct HKUnitParsingTests {
    /// Every atom of Reference/healthkit/units.tsv, with the string `unitString` gives back.
    static let atoms: [(String, String)] = [
        ("g", "g"), ("oz", "oz"), ("lb", "lb"), ("st", "st"), ("mol<180.15588000005408>", "mol<180.1558800000541>"),
        ("m", "m"), ("in", "in"), ("ft", "ft"), ("yd", "yd"), ("mi", "mi"), ("L", "L"), ("l", "L"),
        ("fl_oz_us", "fl_oz_us"), ("fl_oz_imp", "fl_oz_imp"), ("pt_us", "pt_us"), ("pt_imp", "pt_imp"),
        ("cup_us", "cup_us"), ("cup_imp", "cup_imp"), ("Pa", "Pa"), ("mmHg", "mmHg"), ("cmAq", "cmAq"), ("atm", "atm"),
        ("inHg", "inHg"), ("dBASPL", "dBASPL"), ("s", "s"), ("min", "min"), ("hr", "hr"), ("d", "d"), ("J", "J"),
        ("cal", "cal"), ("kcal", "kcal"), ("Cal", "Cal"), ("K", "K"), ("degC", "degC"), ("degF", "degF"), ("S", "S"),
        ("Hz", "Hz"), ("V", "V"), ("W", "W"), ("rad", "rad"), ("deg", "deg"), ("D", "D"), ("pD", "pD"), ("lx", "lx"),
        ("IU", "IU"), ("count", "count"), ("%", "%"), ("dBHL", "dBHL"), ("appleEffortScore", "appleEffortScore"),
    ]

    @Test(arguments: atoms)
    func everyAtomParsesToItsCanonicalSymbol(string: String, canonical: String) throws {
        let unit = try HKUnit.parse(string)
        #expect(unit.unitString == canonical)
        #expect(!unit.isNull())
    }

    @Test(arguments: atoms.map(\.0))
    func everyAtomRoundTrips(string: String) throws {
        let unit = try HKUnit.parse(string)
        #expect(try HKUnit.parse(unit.unitString) == unit)
    }

    /// Unit strings seen in real Apple Health exports (hkunit.md §6); each is already canonical.
    static let exportStrings = [
        "count", "count/min", "count/s", "kcal", "Cal", "kJ", "km", "mi", "m", "cm", "in", "ft", "kg", "lb", "%", "ms",
        "W", "km/hr", "mi/hr", "min", "hr", "mL", "mmHg", "dBASPL", "dBHL", "Hz", "degC", "degF", "mg/dL",
        "mmol<180.1558800000541>/L", "mL/min·kg", "mL/kg·min", "kcal/hr·kg",
    ]

    @Test(arguments: exportStrings)
    func everyExportStringParsesAndPrintsTheSame(string: String) throws {
        let unit = try HKUnit.parse(string)
        #expect(unit.unitString == string)
        #expect(try HKUnit.parse(unit.unitString) == unit)
    }

    /// Written form → canonical `unitString`.
    static let canonicalForms: [(String, String)] = [
        ("ml/(kg*min)", "mL/kg·min"),
        ("kcal/(kg*hr)", "kcal/kg·hr"),
        ("kg/m.s^2", "kg/m·s^2"),
        ("kg.m^-1.s^-2", "kg/m·s^2"),
        ("kg*m^2/s^2", "kg·m^2/s^2"),
        ("m*m", "m^2"),
        ("m.m.m", "m^3"),
        ("s^-1", "s^-1"),
        ("m^-1*s^-2", "m^-1·s^-2"),
        ("count*min^-1", "count/min"),
        ("count/count", "()"),
        ("()", "()"),
        ("()^3", "()"),
        ("m^0", "()"),
        ("(m/s)^2", "m^2/s^2"),
        ("m/s*m", "s^-1"),
        ("(kg)", "kg"),
        ("((((kg))))", "kg"),
        ("mmol<180.15588000005408>/l", "mmol<180.1558800000541>/L"),
        ("m^+2", "m^2"),
        ("m^02", "m^2"),
        ("mol<2.5e1>", "mol<25>"),
    ]

    @Test(arguments: canonicalForms)
    func canonicalForm(written: String, canonical: String) throws {
        let unit = try HKUnit.parse(written)
        #expect(unit.unitString == canonical)
        #expect(try HKUnit.parse(canonical) == unit)
    }

    @Test func theNullUnitPrintsAsEmptyParenthesesAndParsesBack() throws {
        let null = try HKUnit.parse("count/count")
        #expect(null.isNull())
        #expect(null.unitString == "()")
        #expect(try HKUnit.parse("()") == null)
    }

    @Test func multiplicationOperatorsAreInterchangeable() throws {
        let dot = try HKUnit.parse("kg.m"), star = try HKUnit.parse("kg*m"), middle = try HKUnit.parse("kg·m")
        #expect(dot == star)
        #expect(star == middle)
        #expect(middle.unitString == "kg·m")
    }

    /// hkunit.md §1: whole names win over prefix + unit, and case matters.
    static let tokenising: [(String, HKUnit)] = [
        ("mmHg", .millimeterOfMercury()), ("min", .minute()), ("mi", .mile()), ("d", .day()),
        ("dL", .literUnit(with: .deci)), ("mcg", .gramUnit(with: .micro)), ("cmAq", .centimeterOfWater()),
        ("Cal", .largeCalorie()), ("cal", .smallCalorie()), ("kcal", .kilocalorie()), ("dam", .meterUnit(with: .deca)),
        ("S", .siemen()), ("s", .second()), ("kPa", .pascalUnit(with: .kilo)), ("Pa", .pascal()),
        ("pPa", .pascalUnit(with: .pico)), ("fg", .gramUnit(with: .femto)), ("Mm", .meterUnit(with: .mega)),
        ("mm", .meterUnit(with: .milli)), ("ms", .secondUnit(with: .milli)), ("mS", .siemenUnit(with: .milli)),
        ("deg", .degreeAngle()), ("D", .diopter()), ("pD", .prismDiopter()), ("mcS", .siemenUnit(with: .micro)),
        ("daL", .literUnit(with: .deca)), ("ml", .literUnit(with: .milli)), ("mK", HKUnit(factors: [UnitFactor(atom: UnitAtom(.kelvin, prefix: .milli), exponent: 1)])),
        ("mmol<1>", .moleUnit(with: .milli, molarMass: 1)), ("mcmol<2>", .moleUnit(with: .micro, molarMass: 2)),
    ]

    @Test(arguments: tokenising)
    func tokenisingPrefersWholeUnitNames(string: String, expected: HKUnit) throws {
        #expect(try HKUnit.parse(string) == expected)
    }

    @Test func calorieSpellingsAreDistinctUnits() throws {
        #expect(try HKUnit.parse("Cal") != HKUnit.parse("cal"))
        #expect(try HKUnit.parse("Cal") != HKUnit.parse("kcal"))
    }

    @Test func caseMatters() throws {
        #expect(try HKUnit.parse("S") != HKUnit.parse("s"))
        #expect(try HKUnit.parse("Mm") != HKUnit.parse("mm"))
    }

    @Test func unitsAreEqualHoweverTheyAreWritten() throws {
        #expect(HKUnit(from: "kg") == .gramUnit(with: .kilo))
        #expect(HKUnit(from: "count/min") == HKUnit.count().unitDivided(by: .minute()))
        #expect(HKUnit(from: "min^-1*count") == HKUnit(from: "count/min"))
        #expect(HKUnit(from: "l") == HKUnit(from: "L"))
        #expect(HKUnit(from: "mL/kg·min") == HKUnit(from: "ml/(kg*min)"))
        #expect(HKUnit(from: "mL/min·kg") == HKUnit(from: "mL/kg·min"))
    }

    @Test func equalUnitsHashAlike() {
        #expect(Set([HKUnit(from: "mL/kg·min"), HKUnit(from: "ml/(kg*min)"), HKUnit(from: "kg^-1.min^-1.mL")]).count == 1)
        #expect(Set([HKUnit(from: "kg"), HKUnit(from: "g")]).count == 2)
    }

    @Test func molarMassesAreComparedAtTheSixteenDigitsPrinted() throws {
        #expect(try HKUnit.parse("mmol<180.15588000005408>") == HKUnit.parse("mmol<180.1558800000541>"))
        #expect(try HKUnit.parse("mmol<180.1558800000541>") != HKUnit.parse("mmol<180.1558800000542>"))
    }

    @Test func molarMassPrintsWithSixteenSignificantDigits() {
        let glucose = HKUnit.moleUnit(with: .milli, molarMass: HKUnitMolarMassBloodGlucose).unitDivided(by: .liter())
        #expect(glucose.unitString == "mmol<180.1558800000541>/L")
        #expect(HKUnit(from: "mmol<180.1558800000541>/L") == glucose)
    }

    @Test func exponentsUpToTheLimitParse() throws {
        #expect(try HKUnit.parse("m^1000").unitString == "m^1000")
        #expect(try HKUnit.parse("m^-1000").unitString == "m^-1000")
        #expect(throws: HKError(.errorInvalidArgument)) { _ = try HKUnit.parse("(m^1000)^2") }
    }

    /// Strings HealthKit does not accept, with the 1-based character position the message must name.
    static let invalid: [(String, Int)] = [
        ("ml/kg/min", 6), ("kg/m/s", 5), ("", 1), ("kgg", 1), ("m^", 2), ("m^x", 2), ("(kg", 1), ("kg)", 3),
        ("kg m", 3), ("mol", 1), ("mol<>", 5), ("mol<-5>", 5), ("mol<0>", 5), ("mol<abc>", 5), ("mol<1", 4),
        ("kcal/hr-kg", 8), ("m^99999", 3), ("m^99999999999999999999", 3), ("/s", 1), ("m//s", 3), ("xmol<1>", 1),
        ("m·", 3), ("m.", 3), ("kmin", 1), ("furlong", 1), ("(m/s)/kg", 6), ("kg<5>", 3), ("m^2^3", 4),
        ("(m))", 4), ("m(s)", 2), ("é", 1), ("mé", 2), ("m·m/s/m", 6), ("mol<1e400>", 5), ("mol<1e-400>", 5),
        ("KG", 1), ("h", 1), ("da", 1),
    ]

    @Test(arguments: invalid)
    func invalidStringsNameTheStringAndPosition(string: String, position: Int) {
        #expect {
            _ = try HKUnit.parse(string)
        } throws: { error in
            guard let error = error as? HKError, error.code == .errorInvalidArgument else { return false }
            return error.message.hasPrefix("Invalid unit string \"\(string)\": ") && names(position: position, in: error.message)
        }
    }

    @Test func secondSlashMessage() {
        #expect {
            _ = try HKUnit.parse("kg/m/s")
        } throws: { error in
            (error as? HKError)?.message == #"Invalid unit string "kg/m/s": a second "/" at position 5; HealthKit allows one "/""#
        }
    }

    @Test func unprefixableUnitsSaySo() {
        #expect {
            _ = try HKUnit.parse("kmin")
        } throws: { error in
            (error as? HKError)?.message.contains("\"min\" takes no SI prefix") == true
        }
    }

    @Test func aHugeStringIsShownByItsBeginningAndLength() {
        let huge = String(repeating: "kg·", count: 1000) + "?"
        #expect {
            _ = try HKUnit.parse(huge)
        } throws: { error in
            guard let message = (error as? HKError)?.message else { return false }
            return message.contains("\"\(huge.prefix(100))…\" (3001 characters)") && names(position: 3001, in: message)
                && message.count < 400
        }
    }

    @Test func appleInitializerTrapsOnABadString() async {
        await #expect(processExitsWith: .failure) {
            _ = HKUnit(from: "furlongs/fortnight")
        }
    }
}
