// Apple's unit factories. Each returns the same unit `HKUnit(from:)` reads from its symbol.

extension HKUnit {
    private static func unit(_ definition: UnitAtom.Definition, _ prefix: HKMetricPrefix = .none) -> HKUnit {
        HKUnit(factors: [Factor(atom: UnitAtom(definition, prefix: prefix), exponent: 1)])
    }

    // MARK: Mass
    public class func gramUnit(with prefix: HKMetricPrefix) -> HKUnit { unit(.gram, prefix) }
    public class func gram() -> HKUnit { unit(.gram) }
    public class func ounce() -> HKUnit { unit(.ounce) }
    public class func pound() -> HKUnit { unit(.pound) }
    public class func stone() -> HKUnit { unit(.stone) }
    /// Moles of a substance of the given molar mass (g/mol); a mass unit. `mmol<180.15588000005408>` for glucose.
    public class func moleUnit(with prefix: HKMetricPrefix, molarMass gramsPerMole: Double) -> HKUnit {
        HKUnit(factors: [Factor(atom: UnitAtom(.mole, prefix: prefix, molarMass: gramsPerMole), exponent: 1)])
    }
    public class func moleUnit(withMolarMass gramsPerMole: Double) -> HKUnit { moleUnit(with: .none, molarMass: gramsPerMole) }

    // MARK: Length
    public class func meterUnit(with prefix: HKMetricPrefix) -> HKUnit { unit(.meter, prefix) }
    public class func meter() -> HKUnit { unit(.meter) }
    public class func inch() -> HKUnit { unit(.inch) }
    public class func foot() -> HKUnit { unit(.foot) }
    public class func yard() -> HKUnit { unit(.yard) }
    public class func mile() -> HKUnit { unit(.mile) }

    // MARK: Volume
    public class func literUnit(with prefix: HKMetricPrefix) -> HKUnit { unit(.liter, prefix) }
    public class func liter() -> HKUnit { unit(.liter) }
    public class func fluidOunceUS() -> HKUnit { unit(.fluidOunceUS) }
    public class func fluidOunceImperial() -> HKUnit { unit(.fluidOunceImperial) }
    public class func pintUS() -> HKUnit { unit(.pintUS) }
    public class func pintImperial() -> HKUnit { unit(.pintImperial) }
    public class func cupUS() -> HKUnit { unit(.cupUS) }
    public class func cupImperial() -> HKUnit { unit(.cupImperial) }

    // MARK: Pressure
    public class func pascalUnit(with prefix: HKMetricPrefix) -> HKUnit { unit(.pascal, prefix) }
    public class func pascal() -> HKUnit { unit(.pascal) }
    public class func millimeterOfMercury() -> HKUnit { unit(.millimeterOfMercury) }
    public class func centimeterOfWater() -> HKUnit { unit(.centimeterOfWater) }
    public class func atmosphere() -> HKUnit { unit(.atmosphere) }
    public class func decibelAWeightedSoundPressureLevel() -> HKUnit { unit(.decibelSoundPressure) }
    public class func inchesOfMercury() -> HKUnit { unit(.inchOfMercury) }

    // MARK: Time
    public class func secondUnit(with prefix: HKMetricPrefix) -> HKUnit { unit(.second, prefix) }
    public class func second() -> HKUnit { unit(.second) }
    public class func minute() -> HKUnit { unit(.minute) }
    public class func hour() -> HKUnit { unit(.hour) }
    public class func day() -> HKUnit { unit(.day) }

    // MARK: Energy
    public class func jouleUnit(with prefix: HKMetricPrefix) -> HKUnit { unit(.joule, prefix) }
    public class func joule() -> HKUnit { unit(.joule) }
    public class func kilocalorie() -> HKUnit { unit(.kilocalorie) }
    /// The small calorie, 4.184 J (`cal`).
    public class func smallCalorie() -> HKUnit { unit(.smallCalorie) }
    /// The large (food) calorie, 4184 J (`Cal`).
    public class func largeCalorie() -> HKUnit { unit(.largeCalorie) }
    /// HealthKit's original calorie, which was the food calorie (4184 J); it returns ``largeCalorie()``.
    @available(*, deprecated, message: "Use smallCalorie or largeCalorie")
    public class func calorie() -> HKUnit { unit(.largeCalorie) }

    // MARK: Temperature
    public class func degreeCelsius() -> HKUnit { unit(.celsius) }
    public class func degreeFahrenheit() -> HKUnit { unit(.fahrenheit) }
    public class func kelvin() -> HKUnit { unit(.kelvin) }

    // MARK: Electrical conductance, potential, power, frequency
    public class func siemenUnit(with prefix: HKMetricPrefix) -> HKUnit { unit(.siemens, prefix) }
    public class func siemen() -> HKUnit { unit(.siemens) }
    public class func voltUnit(with prefix: HKMetricPrefix) -> HKUnit { unit(.volt, prefix) }
    public class func volt() -> HKUnit { unit(.volt) }
    public class func wattUnit(with prefix: HKMetricPrefix) -> HKUnit { unit(.watt, prefix) }
    public class func watt() -> HKUnit { unit(.watt) }
    public class func hertzUnit(with prefix: HKMetricPrefix) -> HKUnit { unit(.hertz, prefix) }
    public class func hertz() -> HKUnit { unit(.hertz) }

    // MARK: Scalars and HealthKit's own scales
    public class func internationalUnit() -> HKUnit { unit(.internationalUnit) }
    public class func count() -> HKUnit { unit(.count) }
    /// A fraction from 0.0 to 1.0 shown as a percentage: body fat 16.1 % is 0.161 of this unit.
    public class func percent() -> HKUnit { unit(.percent) }
    public class func decibelHearingLevel() -> HKUnit { unit(.decibelHearingLevel) }
    public class func diopter() -> HKUnit { unit(.diopter) }
    public class func prismDiopter() -> HKUnit { unit(.prismDiopter) }
    public class func radianAngleUnit(with prefix: HKMetricPrefix) -> HKUnit { unit(.radian, prefix) }
    public class func radianAngle() -> HKUnit { unit(.radian) }
    public class func degreeAngle() -> HKUnit { unit(.degree) }
    public class func luxUnit(with prefix: HKMetricPrefix) -> HKUnit { unit(.lux, prefix) }
    public class func lux() -> HKUnit { unit(.lux) }
    public class func appleEffortScore() -> HKUnit { unit(.appleEffortScore) }
}
