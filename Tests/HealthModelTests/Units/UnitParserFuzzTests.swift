import Foundation
import Testing
@testable import HealthModel

/// Feeds the unit parser random and hostile strings: it must never crash, and every string either parses
/// (and then round-trips through `unitString`) or fails with `HKError(.errorInvalidArgument)` whose message
/// names the string (its first 100 characters when longer) and a position.
@Suite("Unit parser fuzzing")
struct UnitParserFuzzTests {
    /// Pieces of the grammar's alphabet: atoms, prefixes, operators, digits, and a few strangers.
    static let pieces = [
        "g", "kg", "mg", "mcg", "m", "km", "cm", "L", "mL", "dL", "l", "s", "ms", "min", "hr", "d", "J", "kJ", "cal",
        "kcal", "Cal", "K", "degC", "degF", "Pa", "mmHg", "cmAq", "atm", "inHg", "dBASPL", "count", "%", "IU", "dBHL",
        "S", "mcS", "V", "W", "Hz", "rad", "deg", "lx", "D", "pD", "appleEffortScore", "oz", "lb", "st", "in", "ft",
        "yd", "mi", "fl_oz_us", "cup_imp", "mmol<180.15588000005408>", "mol<58.44>", "mol<", "<", ">", "/", "*", ".",
        "·", "^", "^-", "^2", "^-1", "(", ")", "()", "-", "+", "e", "1", "0", "9", " ", "mol", "da", "mc", "x", "é",
        "😀", "\u{0}", "\\", "\"", "\u{301}", "\u{B7}\u{301}",
    ]

    /// Parses `string` and checks the outcome; returns whether it parsed.
    @discardableResult
    func check(_ string: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        do {
            let unit = try HKUnit.parse(string)
            let again = try HKUnit.parse(unit.unitString)
            #expect(again == unit, "\(string.debugDescription) → \(unit.unitString.debugDescription) does not round-trip",
                    sourceLocation: sourceLocation)
            #expect(again.unitString == unit.unitString, sourceLocation: sourceLocation)
            return true
        } catch let error as HKError {
            #expect(error.code == .errorInvalidArgument, sourceLocation: sourceLocation)
            #expect(error.message.contains("position"), "\(error.message)", sourceLocation: sourceLocation)
            #expect(error.message.contains("\"\(string.prefix(100))"), "\(error.message.prefix(300))",
                    sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected error \(error) for \(string.debugDescription)", sourceLocation: sourceLocation)
        }
        return false
    }

    @Test func randomStringsFromTheGrammarsAlphabet() {
        var rng = SplitMix64(state: 0x5EED)
        var parsed = 0
        for _ in 0..<60_000 {
            let length = Int.random(in: 1...8, using: &rng)
            if check((0..<length).map { _ in Self.pieces.randomElement(using: &rng)! }.joined()) { parsed += 1 }
        }
        // Both outcomes are exercised.
        #expect(parsed > 1_000)
        #expect(parsed < 59_000)
    }

    @Test func randomUnicode() {
        var rng = SplitMix64(state: 42)
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...12, using: &rng)
            var scalars = String.UnicodeScalarView()
            for _ in 0..<length {
                let value = UInt32.random(in: 0...0x10_FFFF, using: &rng)
                scalars.append(Unicode.Scalar(value) ?? "?")
            }
            check(String(scalars))
        }
    }

    @Test func mutationsOfValidStrings() {
        var rng = SplitMix64(state: 7)
        let seeds = [
            "mmol<180.1558800000541>/L", "mL/min·kg", "kcal/(kg*hr)", "count/min", "kg.m^-1.s^-2", "fl_oz_us", "dBASPL",
            "ml/(kg*min)", "(m/s)^2", "mcS", "appleEffortScore",
        ]
        let alphabet = Array("()/*.·^<>-+0123456789eEmgkLsx%_ é")
        var parsed = 0
        for _ in 0..<30_000 {
            var characters = Array(seeds.randomElement(using: &rng)!)
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let i = Int.random(in: 0...characters.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: characters.insert(alphabet.randomElement(using: &rng)!, at: i)
                case 1: if i < characters.count { characters.remove(at: i) }
                default: if i < characters.count { characters[i] = alphabet.randomElement(using: &rng)! }
                }
            }
            if check(String(characters)) { parsed += 1 }
        }
        #expect(parsed > 1_000)
        #expect(parsed < 29_000)
    }

    /// Units built with the factories and unit math always print strings that parse back to them.
    @Test func unitsBuiltByUnitMathRoundTrip() throws {
        var rng = SplitMix64(state: 99)
        let atoms: [HKUnit] = [
            .gram(), .gramUnit(with: .kilo), .meter(), .second(), .minute(), .count(), .percent(), .liter(),
            .literUnit(with: .milli), .kilocalorie(), .degreeCelsius(), .moleUnit(with: .milli, molarMass: HKUnitMolarMassBloodGlucose),
            .moleUnit(withMolarMass: 1e-300), .moleUnit(withMolarMass: 1e300), .siemenUnit(with: .micro), .appleEffortScore(),
        ]
        for _ in 0..<5_000 {
            var unit = atoms.randomElement(using: &rng)!
            for _ in 0..<Int.random(in: 0...5, using: &rng) {
                let other = atoms.randomElement(using: &rng)!
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: unit = unit.unitMultiplied(by: other)
                case 1: unit = unit.unitDivided(by: other)
                case 2: unit = unit.unitRaised(toPower: Int.random(in: -3...3, using: &rng))
                default: unit = unit.reciprocal()
                }
            }
            #expect(try HKUnit.parse(unit.unitString) == unit, "\(unit.unitString)")
        }
    }

    @Test func hostileStrings() {
        let hostile = [
            String(repeating: "(", count: 10_000) + "m" + String(repeating: ")", count: 10_000),
            String(repeating: "(", count: 100_000),
            String(repeating: ")", count: 100_000),
            String(repeating: "kg·kg^-1·", count: 110_000) + "kg",  // ~1 MB, valid: the exponents cancel
            String(repeating: "kg·", count: 350_000) + "kg",  // ~1 MB, kg^350001 is past the exponent limit
            String(repeating: "kg·", count: 350_000) + "?",  // ~1 MB, invalid at the very end
            String(repeating: "é", count: 500_000),
            "m^" + String(repeating: "9", count: 100_000),
            "m^-99999999999999999999", "m^99999999999999999999", "((m^1000)^1000)^1000", "m^-9223372036854775808",
            "mol<1e400>", "mol<nan>", "mol<inf>", "mol<0>", "mol<-0>", "mol<1e-400>", "mol<4.9e-324>", "mol<1.7976931348623157e308>",
            "mol<" + String(repeating: "1", count: 10_000) + ">", "mol<1" + String(repeating: "<", count: 1000),
            String(repeating: "/", count: 10_000), String(repeating: "·", count: 10_000), "\u{0}", "%%%%", "<>",
            "mol<<1>>", "kmol<1>^-1000", String(repeating: "m*", count: 50_000) + "m", String(repeating: "m^-1·", count: 999) + "m",
            "\u{B7}", "\u{C2}", "·m", "m··m", "m\u{0301}", "🏃‍♀️/min",
        ]
        let outcomes = hostile.map { check($0) }
        // Nesting past the limit (32) is rejected; the 1 MB string whose exponents cancel parses.
        #expect(outcomes[0] == false)
        #expect(outcomes[3] == true)
    }

    @Test func manyDistinctAtomsParseInLinearTime() throws {
        let atoms = (1...50_000).map { "mol<\($0)>" }
        let clock = ContinuousClock()
        var unit: HKUnit?
        let elapsed = clock.measure { unit = try? HKUnit.parse(atoms.joined(separator: "·")) }
        #expect(unit?.factors.count == 50_000)
        #expect(elapsed < .seconds(20), "\(elapsed)")
        let reversed = try HKUnit.parse(atoms.reversed().joined(separator: "·"))
        #expect(reversed == unit)
    }
}
