public import Foundation

// Bridges between HKUnit and Foundation's formatter units, as HealthKit has them.
extension HKUnit {
    /// The unit for a mass formatter unit.
    public convenience init(from massFormatterUnit: MassFormatter.Unit) {
        let unit: HKUnit = switch massFormatterUnit {
        case .gram: .gram()
        case .kilogram: .gramUnit(with: .kilo)
        case .ounce: .ounce()
        case .pound: .pound()
        case .stone: .stone()
        @unknown default: .gram()
        }
        self.init(factors: unit.factors)
    }

    /// The mass formatter unit for `unit`; a unit with none stops the program, as HealthKit raises.
    public class func massFormatterUnit(from unit: HKUnit) -> MassFormatter.Unit {
        switch unit {
        case .gram(): return .gram
        case .gramUnit(with: .kilo): return .kilogram
        case .ounce(): return .ounce
        case .pound(): return .pound
        case .stone(): return .stone
        default: preconditionFailure("\"\(unit.unitString)\" has no MassFormatter.Unit")
        }
    }

    /// The unit for a length formatter unit.
    public convenience init(from lengthFormatterUnit: LengthFormatter.Unit) {
        let unit: HKUnit = switch lengthFormatterUnit {
        case .millimeter: .meterUnit(with: .milli)
        case .centimeter: .meterUnit(with: .centi)
        case .meter: .meter()
        case .kilometer: .meterUnit(with: .kilo)
        case .inch: .inch()
        case .foot: .foot()
        case .yard: .yard()
        case .mile: .mile()
        @unknown default: .meter()
        }
        self.init(factors: unit.factors)
    }

    /// The length formatter unit for `unit`; a unit with none stops the program, as HealthKit raises.
    public class func lengthFormatterUnit(from unit: HKUnit) -> LengthFormatter.Unit {
        switch unit {
        case .meterUnit(with: .milli): return .millimeter
        case .meterUnit(with: .centi): return .centimeter
        case .meter(): return .meter
        case .meterUnit(with: .kilo): return .kilometer
        case .inch(): return .inch
        case .foot(): return .foot
        case .yard(): return .yard
        case .mile(): return .mile
        default: preconditionFailure("\"\(unit.unitString)\" has no LengthFormatter.Unit")
        }
    }

    /// The unit for an energy formatter unit (`calorie` is the food calorie, as in HealthKit).
    public convenience init(from energyFormatterUnit: EnergyFormatter.Unit) {
        let unit: HKUnit = switch energyFormatterUnit {
        case .joule: .joule()
        case .kilojoule: .jouleUnit(with: .kilo)
        case .calorie: .largeCalorie()
        case .kilocalorie: .kilocalorie()
        @unknown default: .joule()
        }
        self.init(factors: unit.factors)
    }

    /// The energy formatter unit for `unit`; a unit with none stops the program, as HealthKit raises.
    public class func energyFormatterUnit(from unit: HKUnit) -> EnergyFormatter.Unit {
        switch unit {
        case .joule(): return .joule
        case .jouleUnit(with: .kilo): return .kilojoule
        case .largeCalorie(): return .calorie
        case .kilocalorie(): return .kilocalorie
        default: preconditionFailure("\"\(unit.unitString)\" has no EnergyFormatter.Unit")
        }
    }
}
