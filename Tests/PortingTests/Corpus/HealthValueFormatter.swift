// Porting corpus: the unit helpers apps keep beside their HealthKit code: conversions through HKQuantity and HKUnit
// (unit strings, metric prefixes, compound units, blood glucose by molar mass), the person's preferred units from
// HKHealthStore.preferredUnits(for:), and display strings through Foundation's MassFormatter, LengthFormatter and
// EnergyFormatter with HKUnit's formatter-unit bridges. Written for this suite; only the import is OpenHealthKit's.
#if canImport(HealthKit)
import HealthKit
#else
import OpenHealthKit
#endif

struct HealthValueFormatter {
    static let beatsPerMinute = HKUnit.count().unitDivided(by: .minute())
    static let milligramsPerDeciliter = HKUnit(from: "mg/dL")
    static let millimolesPerLiter = HKUnit.moleUnit(with: .milli, molarMass: HKUnitMolarMassBloodGlucose).unitDivided(by: .liter())

    // MARK: - Conversions

    static func pounds(fromKilograms kilograms: Double) -> Double {
        HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: kilograms).doubleValue(for: .pound())
    }

    static func miles(fromKilometers kilometers: Double) -> Double {
        HKQuantity(unit: .meterUnit(with: .kilo), doubleValue: kilometers).doubleValue(for: .mile())
    }

    static func fahrenheit(fromCelsius celsius: Double) -> Double {
        HKQuantity(unit: .degreeCelsius(), doubleValue: celsius).doubleValue(for: .degreeFahrenheit())
    }

    static func kilojoules(fromKilocalories kilocalories: Double) -> Double {
        HKQuantity(unit: .kilocalorie(), doubleValue: kilocalories).doubleValue(for: .jouleUnit(with: .kilo))
    }

    static func milligramsPerDeciliter(fromMillimolesPerLiter value: Double) -> Double {
        HKQuantity(unit: millimolesPerLiter, doubleValue: value).doubleValue(for: milligramsPerDeciliter)
    }

    /// A running pace in minutes per mile from seconds per kilometre.
    static func minutesPerMile(fromSecondsPerKilometer seconds: Double) -> Double {
        let pace = HKQuantity(unit: HKUnit.second().unitDivided(by: .meterUnit(with: .kilo)), doubleValue: seconds)
        return pace.doubleValue(for: HKUnit.minute().unitDivided(by: .mile()))
    }

    /// Parses a unit string as HealthKit writes it, or nil when it is not one (HKUnit(from:) raises on garbage, so
    /// check the few the app accepts first).
    static func unit(named name: String) -> HKUnit? {
        let accepted = ["kg", "lb", "st", "g", "m", "cm", "ft", "in", "mi", "km", "kcal", "kJ", "degC", "degF", "count/min", "mg/dL", "%"]
        return accepted.contains(name) ? HKUnit(from: name) : nil
    }

    // MARK: - The person's units

    let healthStore: HKHealthStore
    private(set) var preferredUnits: [HKQuantityType: HKUnit] = [:]

    init(healthStore: HKHealthStore) {
        self.healthStore = healthStore
    }

    /// Loads the person's preferred units for the types the app shows (the app must have asked for access first).
    mutating func loadPreferredUnits(for types: Set<HKQuantityType>) async throws {
        preferredUnits = try await healthStore.preferredUnits(for: types)
    }

    func unit(for type: HKQuantityType, fallback: HKUnit) -> HKUnit {
        preferredUnits[type] ?? fallback
    }

    /// A body mass in the person's unit, e.g. "154.3 lb".
    func bodyMassString(_ quantity: HKQuantity) -> String {
        let unit = unit(for: HKQuantityType(.bodyMass), fallback: .gramUnit(with: .kilo))
        let formatter = MassFormatter()
        formatter.unitStyle = .medium
        formatter.numberFormatter.maximumFractionDigits = 1
        formatter.isForPersonMassUse = true
        return formatter.string(fromValue: quantity.doubleValue(for: unit), unit: HKUnit.massFormatterUnit(from: unit))
    }

    /// A walking or running distance in the person's unit, e.g. "3.11 mi".
    func distanceString(_ quantity: HKQuantity) -> String {
        let unit = unit(for: HKQuantityType(.distanceWalkingRunning), fallback: .meterUnit(with: .kilo))
        let formatter = LengthFormatter()
        formatter.unitStyle = .medium
        formatter.numberFormatter.maximumFractionDigits = 2
        return formatter.string(fromValue: quantity.doubleValue(for: unit), unit: HKUnit.lengthFormatterUnit(from: unit))
    }

    /// Food energy in the person's unit, e.g. "2,000 kcal".
    func energyString(_ quantity: HKQuantity) -> String {
        let unit = unit(for: HKQuantityType(.dietaryEnergyConsumed), fallback: .kilocalorie())
        let formatter = EnergyFormatter()
        formatter.unitStyle = .medium
        formatter.isForFoodEnergyUse = true
        formatter.numberFormatter.maximumFractionDigits = 0
        return formatter.string(fromValue: quantity.doubleValue(for: unit), unit: HKUnit.energyFormatterUnit(from: unit))
    }
}
