// Apple's unit factories. Each returns a unit equal to the one `HKUnit(from:)` reads from the symbol in
// its comment, e.g. `HKUnit.gramUnit(with: .kilo) == HKUnit(from: "kg")`.

extension HKUnit {
    private static func unit(_ kind: UnitAtomKind, _ prefix: HKMetricPrefix = .none) -> HKUnit {
        HKUnit(factors: [UnitFactor(atom: UnitAtom(kind, prefix: prefix), exponent: 1)])
    }

    // MARK: Mass

    /// Grams with an SI prefix: `kg`, `mg`, `mcg`.
    public class func gramUnit(with prefix: HKMetricPrefix) -> HKUnit { unit(.gram, prefix) }
    /// `g`
    public class func gram() -> HKUnit { unit(.gram) }
    /// `oz`, 28.349523125 g.
    public class func ounce() -> HKUnit { unit(.ounce) }
    /// `lb`, 453.59237 g.
    public class func pound() -> HKUnit { unit(.pound) }
    /// `st`, 6350.29318 g.
    public class func stone() -> HKUnit { unit(.stone) }

    /// Moles of a substance with the given molar mass (grams per mole), with an SI prefix: a mass unit, so
    /// `mmol<180.15588000005408>/L` converts to `mg/dL`. The molar mass is kept to the 16 significant digits
    /// `unitString` prints. A molar mass that is not a positive, finite number stops the program, as HealthKit raises.
    public class func moleUnit(with prefix: HKMetricPrefix, molarMass gramsPerMole: Double) -> HKUnit {
        guard let molarMass = UnitAtom.roundedMolarMass(gramsPerMole) else {
            preconditionFailure("moleUnit: the molar mass \(gramsPerMole) must be a positive, finite number of grams per mole")
        }
        return HKUnit(factors: [UnitFactor(atom: UnitAtom(.mole, prefix: prefix, molarMass: molarMass), exponent: 1)])
    }

    /// `mol<M>`; see ``moleUnit(with:molarMass:)``.
    public class func moleUnit(withMolarMass gramsPerMole: Double) -> HKUnit {
        moleUnit(with: .none, molarMass: gramsPerMole)
    }

    // MARK: Length

    /// Metres with an SI prefix: `km`, `cm`, `mm`.
    public class func meterUnit(with prefix: HKMetricPrefix) -> HKUnit { unit(.meter, prefix) }
    /// `m`
    public class func meter() -> HKUnit { unit(.meter) }
    /// `in`, 0.0254 m.
    public class func inch() -> HKUnit { unit(.inch) }
    /// `ft`, 0.3048 m.
    public class func foot() -> HKUnit { unit(.foot) }
    /// `yd`, 0.9144 m.
    public class func yard() -> HKUnit { unit(.yard) }
    /// `mi`, 1609.344 m.
    public class func mile() -> HKUnit { unit(.mile) }

    // MARK: Volume

    /// Litres with an SI prefix: `mL`, `dL`.
    public class func literUnit(with prefix: HKMetricPrefix) -> HKUnit { unit(.liter, prefix) }
    /// `L` (also read from `l`).
    public class func liter() -> HKUnit { unit(.liter) }
    /// `fl_oz_us`, 0.0295735295625 L.
    public class func fluidOunceUS() -> HKUnit { unit(.fluidOunceUS) }
    /// `fl_oz_imp`, 0.0284130625 L.
    public class func fluidOunceImperial() -> HKUnit { unit(.fluidOunceImperial) }
    /// `pt_us`, 0.473176473 L.
    public class func pintUS() -> HKUnit { unit(.pintUS) }
    /// `pt_imp`, 0.56826125 L.
    public class func pintImperial() -> HKUnit { unit(.pintImperial) }
    /// `cup_us`, 0.2365882365 L.
    public class func cupUS() -> HKUnit { unit(.cupUS) }
    /// `cup_imp`, 0.284130625 L.
    public class func cupImperial() -> HKUnit { unit(.cupImperial) }

    // MARK: Pressure

    /// Pascals with an SI prefix: `kPa`.
    public class func pascalUnit(with prefix: HKMetricPrefix) -> HKUnit { unit(.pascal, prefix) }
    /// `Pa`
    public class func pascal() -> HKUnit { unit(.pascal) }
    /// `mmHg`, 133.322387415 Pa.
    public class func millimeterOfMercury() -> HKUnit { unit(.millimeterOfMercury) }
    /// `cmAq`, 98.0665 Pa.
    public class func centimeterOfWater() -> HKUnit { unit(.centimeterOfWater) }
    /// `atm`, 101325 Pa.
    public class func atmosphere() -> HKUnit { unit(.atmosphere) }
    /// `dBASPL`: sound pressure level, logarithmic: Pa = 2·10⁻⁵ × 10^(dBASPL/20).
    public class func decibelAWeightedSoundPressureLevel() -> HKUnit { unit(.decibelSoundPressureLevel) }
    /// `inHg`, 3386.38816 Pa.
    public class func inchesOfMercury() -> HKUnit { unit(.inchOfMercury) }

    // MARK: Time

    /// Seconds with an SI prefix: `ms`.
    public class func secondUnit(with prefix: HKMetricPrefix) -> HKUnit { unit(.second, prefix) }
    /// `s`
    public class func second() -> HKUnit { unit(.second) }
    /// `min`, 60 s.
    public class func minute() -> HKUnit { unit(.minute) }
    /// `hr`, 3600 s.
    public class func hour() -> HKUnit { unit(.hour) }
    /// `d`, 86400 s.
    public class func day() -> HKUnit { unit(.day) }

    // MARK: Energy

    /// Joules with an SI prefix: `kJ`.
    public class func jouleUnit(with prefix: HKMetricPrefix) -> HKUnit { unit(.joule, prefix) }
    /// `J`
    public class func joule() -> HKUnit { unit(.joule) }
    /// `kcal`, 4184 J.
    public class func kilocalorie() -> HKUnit { unit(.kilocalorie) }
    /// `cal`, the small (gram) calorie, 4.184 J.
    public class func smallCalorie() -> HKUnit { unit(.smallCalorie) }
    /// `Cal`, the large (food) calorie, 4184 J. Equal in size to `kcal`, but a different unit string.
    public class func largeCalorie() -> HKUnit { unit(.largeCalorie) }
    /// HealthKit's original calorie unit (iOS 8–11). Its header declared it as `cal`, the small calorie
    /// (`// cal` beside `calorieUnit`, and `cal (calories) = 4.1840 J` in the unit list), so it returns
    /// ``smallCalorie()``.
    @available(*, deprecated, message: "Use smallCalorie or largeCalorie, depending on which you mean")
    public class func calorie() -> HKUnit { unit(.smallCalorie) }

    // MARK: Temperature

    /// `degC`: K = degC + 273.15. Converts only on its own, not inside a compound unit.
    public class func degreeCelsius() -> HKUnit { unit(.degreeCelsius) }
    /// `degF`: K = (degF + 459.67) / 1.8. Converts only on its own, not inside a compound unit.
    public class func degreeFahrenheit() -> HKUnit { unit(.degreeFahrenheit) }
    /// `K`
    public class func kelvin() -> HKUnit { unit(.kelvin) }

    // MARK: Electrical conductance and potential, power, frequency

    /// Siemens with an SI prefix: `mcS` (electrodermal activity).
    public class func siemenUnit(with prefix: HKMetricPrefix) -> HKUnit { unit(.siemens, prefix) }
    /// `S`
    public class func siemen() -> HKUnit { unit(.siemens) }
    /// Volts with an SI prefix: `mcV` (electrocardiograms).
    public class func voltUnit(with prefix: HKMetricPrefix) -> HKUnit { unit(.volt, prefix) }
    /// `V`
    public class func volt() -> HKUnit { unit(.volt) }
    /// Watts with an SI prefix: `kW`.
    public class func wattUnit(with prefix: HKMetricPrefix) -> HKUnit { unit(.watt, prefix) }
    /// `W`, 1 J/s.
    public class func watt() -> HKUnit { unit(.watt) }
    /// Hertz with an SI prefix: `kHz`.
    public class func hertzUnit(with prefix: HKMetricPrefix) -> HKUnit { unit(.hertz, prefix) }
    /// `Hz`, 1/s — so `count/s` converts to it.
    public class func hertz() -> HKUnit { unit(.hertz) }

    // MARK: Scalars and HealthKit's own scales

    /// `IU`, international units (pharmacology); converts to nothing but itself.
    public class func internationalUnit() -> HKUnit { unit(.internationalUnit) }
    /// `count`, the dimensionless scalar.
    public class func count() -> HKUnit { unit(.count) }
    /// `%`: a fraction from 0.0 to 1.0 (body fat 16.1 % is 0.161 of this unit). Its own dimension:
    /// it does not convert to `count`, as HealthKit documents.
    public class func percent() -> HKUnit { unit(.percent) }
    /// `dBHL`, decibel hearing level (audiograms).
    public class func decibelHearingLevel() -> HKUnit { unit(.decibelHearingLevel) }
    /// `D`, diopters (vision prescriptions).
    public class func diopter() -> HKUnit { unit(.diopter) }
    /// `pD`, prism diopters (vision prescriptions).
    public class func prismDiopter() -> HKUnit { unit(.prismDiopter) }
    /// Radians with an SI prefix: `mrad`.
    public class func radianAngleUnit(with prefix: HKMetricPrefix) -> HKUnit { unit(.radian, prefix) }
    /// `rad`
    public class func radianAngle() -> HKUnit { unit(.radian) }
    /// `deg`, π/180 rad.
    public class func degreeAngle() -> HKUnit { unit(.degreeAngle) }
    /// Lux with an SI prefix: `klx`.
    public class func luxUnit(with prefix: HKMetricPrefix) -> HKUnit { unit(.lux, prefix) }
    /// `lx`
    public class func lux() -> HKUnit { unit(.lux) }
    /// `appleEffortScore`, workout effort from 1 to 10.
    public class func appleEffortScore() -> HKUnit { unit(.appleEffortScore) }
}
