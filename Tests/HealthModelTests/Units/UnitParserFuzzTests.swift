import Foundation
import Testing
@testable import HealthModel

/// Feeds the unit parser random and hostile strings: it must never crash; every string either parses
/// (and then round-trips through `unitString`) or fails with an error naming the string and a position.
@Suite("Unit parser fuzzing")
struct UnitParserFuzzTests {
    /// A small deterministic generator (SplitMix64), so failures reproduce.
    struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let pieces = [
        "g", "kg", "mg", "mcg", "m", "km", "cm", "L", "mL", "dL", "l", "s", "ms", "min", "hr", "d", "J", "kJ", "cal",
        "kcal", "Cal", "K", "degC", "degF", "Pa", "mmHg", "cmAq", "atm", "inHg", "dBASPL", "count", "%", "IU", "dBHL",
        "S", "mcS", "V", "W", "Hz", "rad", "deg", "lx", "D", "pD", "appleEffortScore", "oz", "lb", "st", "in", "ft",
        "yd", "mi", "fl_oz_us", "cup_imp", "mmol<180.15588000005408>", "mol<58.44>", "/", "*", ".", "·", "^", "^-",
        "^2", "(", ")", "<", ">", "-", "1", "0", "9", " ", "mol", "da", "mc", "x", "é", "😀", "\u{0}", "\\", "\"",
    ]

    func check(_ string: String) {
        do {
            let unit = try HKUnit.parse(string)
            let again = try HKUnit.parse(unit.unitString)
            #expect(again == unit, "\(string.debugDescription) → \(unit.unitString.debugDescription) does not round-trip")
            #expect(again.unitString == unit.unitString)
        } catch let error as HKError {
            #expect(error.code == .errorInvalidArgument)
            #expect(error.message.contains("position"), "\(error.message)")
            if !string.isEmpty {
                #expect(error.message.contains(String(string.prefix(40))), "\(error.message)")
            }
        } catch {
            Issue.record("unexpected error \(error) for \(string.debugDescription)")
        }
    }

    @Test func randomStringsFromTheGrammarsAlphabet() {
        var rng = SplitMix64(state: 0x5EED)
        for _ in 0..<60_000 {
            let length = Int.random(in: 1...8, using: &rng)
            check((0..<length).map { _ in Self.pieces.randomElement(using: &rng)! }.joined())
        }
    }

    @Test func randomUnicode() {
        var rng = SplitMix64(state: 42)
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...12, using: &rng)
            var scalars = String.UnicodeScalarView()
            for _ in 0..<length {
                let value = UInt32.random(in: 0...0x1_0FFF, using: &rng)
                scalars.append(Unicode.Scalar(value) ?? "?")
            }
            check(String(scalars))
        }
    }

    @Test func mutationsOfValidStrings() {
        var rng = SplitMix64(state: 7)
        let seeds = ["mmol<180.1558800000541>/L", "mL/min·kg", "kcal/(kg*hr)", "count/min", "kg.m^-1.s^-2", "fl_oz_us", "dBASPL"]
        let alphabet = Array("()/*.·^<>-+0123456789eEmgkLsx%_ ")
        for _ in 0..<30_000 {
            var chars = Array(seeds.randomElement(using: &rng)!)
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let i = Int.random(in: 0...chars.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: chars.insert(alphabet.randomElement(using: &rng)!, at: i)
                case 1: if i < chars.count { chars.remove(at: i) }
                default: if i < chars.count { chars[i] = alphabet.randomElement(using: &rng)! }
                }
            }
            check(String(chars))
        }
    }

    @Test func hostileStrings() {
        let deep = String(repeating: "(", count: 10_000) + "m" + String(repeating: ")", count: 10_000)
        let huge = String(repeating: "kg·", count: 350_000) + "kg"  // ~1 MB
        let hostile = [
            deep, huge, String(repeating: "(", count: 100_000), "m^" + String(repeating: "9", count: 1000),
            "m^-99999999999999999999", "((m^1000)^1000)^1000", "mol<1e400>", "mol<nan>", "mol<inf>", "mol<0>",
            "mol<1e-400>", String(repeating: "/", count: 10_000), String(repeating: "·", count: 10_000), "\u{0}",
            String(repeating: "m*", count: 50_000) + "m", "%%%%", "<>", "mol<<1>>", "kmol<1>^-1000",
        ]
        for string in hostile { check(string) }
    }

    @Test func exponentsStayBounded() throws {
        #expect(try HKUnit.parse("m^1000").unitString == "m^1000")
        #expect(throws: HKError(.errorInvalidArgument)) { _ = try HKUnit.parse("(m^1000)^2") }
    }
}
