/// The physical dimension of a unit: the exponent of each base dimension. Two units convert into each
/// other exactly when their dimensions are equal.
///
/// The SI dimensions (mass, length, time, temperature, electric current) combine freely, so `count/s`
/// fits `Hz`, `kcal` fits `kg·m^2/s^2`, and blood glucose in `mmol<180.15588000005408>/L` fits `mg/dL`
/// (a mole of known molar mass is a mass). Illuminance (`lx`) and HealthKit's own scales — angle, percent,
/// international units, hearing level, effort score, diopters, prism diopters — are separate base dimensions
/// that convert only within themselves: `%` and `count` are both scalars, yet never convert, as HealthKit documents.
///
/// ```swift
/// HKUnit(from: "mg/dL").dimension.description    // "mass·length^-3"
/// HKUnit(from: "count").dimension.isDimensionless // true
/// ```
package struct UnitDimension: Hashable, Sendable, CustomStringConvertible {
    /// A base dimension, with the atom that is its base unit.
    package enum Base: Int, CaseIterable, Sendable {
        case mass, length, time, temperature, current, illuminance
        case angle, percent, internationalUnit, hearingLevel, effortScore, diopter, prismDiopter

        package var name: String {
            switch self {
            case .mass: "mass"
            case .length: "length"
            case .time: "time"
            case .temperature: "temperature"
            case .current: "current"
            case .illuminance: "illuminance"
            case .angle: "angle"
            case .percent: "percent"
            case .internationalUnit: "IU"
            case .hearingLevel: "hearing level"
            case .effortScore: "effort score"
            case .diopter: "optical power"
            case .prismDiopter: "prismatic power"
            }
        }
    }

    // One stored exponent per base dimension: plain Int32 fields, so a dimension is a small value with no
    // allocation and no over-aligned (SIMD) storage. Arithmetic wraps instead of trapping; parsed exponents are
    // bounded, so real units never come near the limits.
    private var mass: Int32 = 0
    private var length: Int32 = 0
    private var time: Int32 = 0
    private var temperature: Int32 = 0
    private var current: Int32 = 0
    private var illuminance: Int32 = 0
    private var angle: Int32 = 0
    private var percent: Int32 = 0
    private var internationalUnit: Int32 = 0
    private var hearingLevel: Int32 = 0
    private var effortScore: Int32 = 0
    private var diopter: Int32 = 0
    private var prismDiopter: Int32 = 0

    /// The dimension of `count`: no base dimension at all.
    package static let dimensionless = UnitDimension()

    package init() {}

    package init(_ parts: KeyValuePairs<Base, Int32>) {
        for (base, exponent) in parts { self[base] = exponent }
    }

    /// The exponent of one base dimension.
    package subscript(base: Base) -> Int32 {
        get {
            switch base {
            case .mass: mass
            case .length: length
            case .time: time
            case .temperature: temperature
            case .current: current
            case .illuminance: illuminance
            case .angle: angle
            case .percent: percent
            case .internationalUnit: internationalUnit
            case .hearingLevel: hearingLevel
            case .effortScore: effortScore
            case .diopter: diopter
            case .prismDiopter: prismDiopter
            }
        }
        set {
            switch base {
            case .mass: mass = newValue
            case .length: length = newValue
            case .time: time = newValue
            case .temperature: temperature = newValue
            case .current: current = newValue
            case .illuminance: illuminance = newValue
            case .angle: angle = newValue
            case .percent: percent = newValue
            case .internationalUnit: internationalUnit = newValue
            case .hearingLevel: hearingLevel = newValue
            case .effortScore: effortScore = newValue
            case .diopter: diopter = newValue
            case .prismDiopter: prismDiopter = newValue
            }
        }
    }

    package var isDimensionless: Bool { self == .dimensionless }

    /// Adds `other` raised to `power` into this dimension.
    package mutating func add(_ other: UnitDimension, times power: Int) {
        let power = Int32(truncatingIfNeeded: power)
        mass &+= other.mass &* power
        length &+= other.length &* power
        time &+= other.time &* power
        temperature &+= other.temperature &* power
        current &+= other.current &* power
        illuminance &+= other.illuminance &* power
        angle &+= other.angle &* power
        percent &+= other.percent &* power
        internationalUnit &+= other.internationalUnit &* power
        hearingLevel &+= other.hearingLevel &* power
        effortScore &+= other.effortScore &* power
        diopter &+= other.diopter &* power
        prismDiopter &+= other.prismDiopter &* power
    }

    /// Base dimensions with their exponents joined by `·`, such as `mass·length^-3`; `dimensionless` for none.
    package var description: String {
        var parts: [String] = []
        for base in Base.allCases {
            let exponent = self[base]
            if exponent == 1 {
                parts.append(base.name)
            } else if exponent != 0 {
                parts.append("\(base.name)^\(exponent)")
            }
        }
        return parts.isEmpty ? "dimensionless" : parts.joined(separator: "·")
    }
}
