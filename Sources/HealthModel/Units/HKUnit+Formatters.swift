public import Foundation

// Bridges between HKUnit and Foundation's formatter units (MassFormatter, LengthFormatter, EnergyFormatter),
// as HealthKit has them. The `…FormatterUnit(from:)` functions stop the program for a unit with no formatter
// equivalent, as HealthKit raises an exception.
//
//     let kg = HKUnit(from: MassFormatter.Unit.kilogram)     // "kg"
//     HKUnit.lengthFormatterUnit(from: .mile())              // .mile
//
// The mappings are written as `if` chains rather than switches so they compile without warnings both where the
// formatter enums are frozen (swift-corelibs-foundation) and where they are open (Apple's Foundation).
extension HKUnit {
    /// The unit for a mass formatter unit: `g`, `kg`, `oz`, `lb`, `st`.
    public convenience init(from massFormatterUnit: MassFormatter.Unit) {
        let unit: HKUnit
        if massFormatterUnit == .gram { unit = .gram() }
        else if massFormatterUnit == .kilogram { unit = .gramUnit(with: .kilo) }
        else if massFormatterUnit == .ounce { unit = .ounce() }
        else if massFormatterUnit == .pound { unit = .pound() }
        else if massFormatterUnit == .stone { unit = .stone() }
        else { preconditionFailure("No HKUnit for MassFormatter.Unit(rawValue: \(massFormatterUnit.rawValue))") }
        self.init(factors: unit.factors)
    }

    /// The mass formatter unit for `g`, `kg`, `oz`, `lb` or `st`; any other unit stops the program, as HealthKit raises.
    public class func massFormatterUnit(from unit: HKUnit) -> MassFormatter.Unit {
        if unit == .gram() { return .gram }
        if unit == .gramUnit(with: .kilo) { return .kilogram }
        if unit == .ounce() { return .ounce }
        if unit == .pound() { return .pound }
        if unit == .stone() { return .stone }
        preconditionFailure("\"\(unit.unitString)\" has no MassFormatter.Unit (g, kg, oz, lb and st have)")
    }

    /// The unit for a length formatter unit: `mm`, `cm`, `m`, `km`, `in`, `ft`, `yd`, `mi`.
    public convenience init(from lengthFormatterUnit: LengthFormatter.Unit) {
        let unit: HKUnit
        if lengthFormatterUnit == .millimeter { unit = .meterUnit(with: .milli) }
        else if lengthFormatterUnit == .centimeter { unit = .meterUnit(with: .centi) }
        else if lengthFormatterUnit == .meter { unit = .meter() }
        else if lengthFormatterUnit == .kilometer { unit = .meterUnit(with: .kilo) }
        else if lengthFormatterUnit == .inch { unit = .inch() }
        else if lengthFormatterUnit == .foot { unit = .foot() }
        else if lengthFormatterUnit == .yard { unit = .yard() }
        else if lengthFormatterUnit == .mile { unit = .mile() }
        else { preconditionFailure("No HKUnit for LengthFormatter.Unit(rawValue: \(lengthFormatterUnit.rawValue))") }
        self.init(factors: unit.factors)
    }

    /// The length formatter unit for `mm`, `cm`, `m`, `km`, `in`, `ft`, `yd` or `mi`; any other unit stops the
    /// program, as HealthKit raises.
    public class func lengthFormatterUnit(from unit: HKUnit) -> LengthFormatter.Unit {
        if unit == .meterUnit(with: .milli) { return .millimeter }
        if unit == .meterUnit(with: .centi) { return .centimeter }
        if unit == .meter() { return .meter }
        if unit == .meterUnit(with: .kilo) { return .kilometer }
        if unit == .inch() { return .inch }
        if unit == .foot() { return .foot }
        if unit == .yard() { return .yard }
        if unit == .mile() { return .mile }
        preconditionFailure("\"\(unit.unitString)\" has no LengthFormatter.Unit (mm, cm, m, km, in, ft, yd and mi have)")
    }

    /// The unit for an energy formatter unit: `J`, `kJ`, `cal` (the small calorie, as HealthKit's original
    /// `calorieUnit`), `kcal`.
    public convenience init(from energyFormatterUnit: EnergyFormatter.Unit) {
        let unit: HKUnit
        if energyFormatterUnit == .joule { unit = .joule() }
        else if energyFormatterUnit == .kilojoule { unit = .jouleUnit(with: .kilo) }
        else if energyFormatterUnit == .calorie { unit = .smallCalorie() }
        else if energyFormatterUnit == .kilocalorie { unit = .kilocalorie() }
        else { preconditionFailure("No HKUnit for EnergyFormatter.Unit(rawValue: \(energyFormatterUnit.rawValue))") }
        self.init(factors: unit.factors)
    }

    /// The energy formatter unit for `J`, `kJ`, `cal`, or `kcal` and `Cal` (both kilocalories); any other unit
    /// stops the program, as HealthKit raises.
    public class func energyFormatterUnit(from unit: HKUnit) -> EnergyFormatter.Unit {
        if unit == .joule() { return .joule }
        if unit == .jouleUnit(with: .kilo) { return .kilojoule }
        if unit == .smallCalorie() { return .calorie }
        if unit == .kilocalorie() || unit == .largeCalorie() { return .kilocalorie }
        preconditionFailure("\"\(unit.unitString)\" has no EnergyFormatter.Unit (J, kJ, cal, kcal and Cal have)")
    }
}
