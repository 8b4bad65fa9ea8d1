/// The SI prefixes HealthKit's prefixable units take (`kg`, `mL`, `mcS`), with Apple's raw values.
///
/// ```swift
/// let kilometre = HKUnit.meterUnit(with: .kilo)   // "km"
/// let microgram = HKUnit.gramUnit(with: .micro)   // "mcg" — micro is "mc" in unit strings
/// HKMetricPrefix(rawValue: 13)                    // .femto
/// ```
public enum HKMetricPrefix: Int, Sendable, CaseIterable {
    case none = 0
    case pico = 1
    case nano = 2
    case micro = 3
    case milli = 4
    case centi = 5
    case deci = 6
    case deca = 7
    case hecto = 8
    case kilo = 9
    case mega = 10
    case giga = 11
    case tera = 12
    /// Available since iOS 13, hence the raw value after `tera`.
    case femto = 13

    /// The symbol unit strings use: `mc` for micro, `da` for deca, empty for none.
    package var symbol: String {
        switch self {
        case .none: ""
        case .femto: "f"
        case .pico: "p"
        case .nano: "n"
        case .micro: "mc"
        case .milli: "m"
        case .centi: "c"
        case .deci: "d"
        case .deca: "da"
        case .hecto: "h"
        case .kilo: "k"
        case .mega: "M"
        case .giga: "G"
        case .tera: "T"
        }
    }

    /// The power of ten the prefix stands for: 3 for kilo, -6 for micro.
    package var exponent10: Int {
        switch self {
        case .none: 0
        case .femto: -15
        case .pico: -12
        case .nano: -9
        case .micro: -6
        case .milli: -3
        case .centi: -2
        case .deci: -1
        case .deca: 1
        case .hecto: 2
        case .kilo: 3
        case .mega: 6
        case .giga: 9
        case .tera: 12
        }
    }

    /// The factor the prefix multiplies by: 1000 for kilo, 0.000001 for micro.
    package var factor: Double { PowerOfTen.scale(1, by: exponent10) }

    /// The one-character prefix a unit string spells with `byte` (ASCII), if any. `mc` and `da` are the
    /// two-character prefixes; the parser tries them first.
    package init?(singleCharacter byte: UInt8) {
        switch byte {
        case UInt8(ascii: "f"): self = .femto
        case UInt8(ascii: "p"): self = .pico
        case UInt8(ascii: "n"): self = .nano
        case UInt8(ascii: "m"): self = .milli
        case UInt8(ascii: "c"): self = .centi
        case UInt8(ascii: "d"): self = .deci
        case UInt8(ascii: "h"): self = .hecto
        case UInt8(ascii: "k"): self = .kilo
        case UInt8(ascii: "M"): self = .mega
        case UInt8(ascii: "G"): self = .giga
        case UInt8(ascii: "T"): self = .tera
        default: return nil
        }
    }
}
