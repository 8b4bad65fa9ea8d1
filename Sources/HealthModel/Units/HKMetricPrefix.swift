/// SI prefixes for HealthKit's prefixable units (`kg`, `mL`, `mcS`), with Apple's raw values.
///
/// ```swift
/// let kilometre = HKUnit.meterUnit(with: .kilo)   // "km"
/// let microgram = HKUnit.gramUnit(with: .micro)   // "mcg"
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
    case femto = 13

    /// The symbol HealthKit's unit strings use (`mc` for micro, `da` for deca).
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

    /// The power of ten the prefix stands for.
    package var factor: Double {
        switch self {
        case .none: 1
        case .femto: 1e-15
        case .pico: 1e-12
        case .nano: 1e-9
        case .micro: 1e-6
        case .milli: 1e-3
        case .centi: 1e-2
        case .deci: 1e-1
        case .deca: 1e1
        case .hecto: 1e2
        case .kilo: 1e3
        case .mega: 1e6
        case .giga: 1e9
        case .tera: 1e12
        }
    }

    /// Prefixes by symbol, longest symbols first so `mc` and `da` win over `m` and `d`.
    package static let bySymbolLongestFirst: [(String, HKMetricPrefix)] = allCases
        .filter { $0 != .none }
        .map { ($0.symbol, $0) }
        .sorted { $0.0.count > $1.0.count }
}
