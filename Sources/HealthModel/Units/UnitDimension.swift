/// The physical dimension of a unit, as exponents of base dimensions. Units convert into each other
/// exactly when their dimensions are equal.
///
/// SI dimensions (mass, length, time, temperature, electric current, luminous intensity) combine freely,
/// so `count/s` fits `Hz` and `kcal` fits `kg·m²/s²`. HealthKit's own scales — angle, percent,
/// international units, hearing level, effort score, diopters — are separate dimensions that convert
/// only within themselves: `%` and `count` are both scalars, yet never convert (as HealthKit documents).
package struct UnitDimension: Hashable, Sendable, CustomStringConvertible {
    package enum Base: Int, CaseIterable, Sendable {
        case mass, length, time, temperature, current, luminous
        case angle, percent, internationalUnit, hearingLevel, effortScore, diopter, prismDiopter

        var name: String {
            switch self {
            case .mass: "mass"
            case .length: "length"
            case .time: "time"
            case .temperature: "temperature"
            case .current: "current"
            case .luminous: "luminous intensity"
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

    private(set) var exponents: [Int]

    package static let dimensionless = UnitDimension()

    package init() {
        exponents = Array(repeating: 0, count: Base.allCases.count)
    }

    package init(_ parts: [Base: Int]) {
        self.init()
        for (base, exponent) in parts { exponents[base.rawValue] = exponent }
    }

    package var isDimensionless: Bool { exponents.allSatisfy { $0 == 0 } }

    /// This dimension raised to `power` and multiplied into `self`.
    package mutating func add(_ other: UnitDimension, times power: Int) {
        for i in exponents.indices { exponents[i] += other.exponents[i] * power }
    }

    package var description: String {
        let parts = Base.allCases.compactMap { base -> String? in
            let e = exponents[base.rawValue]
            return e == 0 ? nil : (e == 1 ? base.name : "\(base.name)^\(e)")
        }
        return parts.isEmpty ? "dimensionless" : parts.joined(separator: "·")
    }
}
