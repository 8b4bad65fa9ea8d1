import Foundation
import Testing
@testable import HealthModel

@Suite("HKUnit conversion")
struct HKUnitConversionTests {
    func convert(_ value: Double, _ from: String, _ to: String) throws -> Double {
        try HKQuantity(unit: HKUnit.parse(from), doubleValue: value).value(in: HKUnit.parse(to))
    }

    @Test func publishedFactorsAreExact() throws {
        #expect(try convert(1, "mi", "m") == 1609.344)
        #expect(try convert(1, "lb", "kg") == 0.45359237)
        #expect(try convert(1, "kcal", "J") == 4184)
        #expect(try convert(1, "Cal", "kJ") == 4.184)
        #expect(try convert(1, "cal", "J") == 4.184)
        #expect(try convert(1, "mmHg", "Pa") == 133.322387415)
        #expect(try convert(1, "oz", "g") == 28.349523125)
        #expect(try convert(1, "st", "g") == 6350.29318)
        #expect(try convert(1, "in", "cm") == 2.54)
        #expect(try convert(1, "yd", "ft") == 3)
        #expect(try convert(1, "atm", "kPa") == 101.325)
        #expect(try convert(1, "hr", "s") == 3600)
        #expect(try convert(1, "d", "min") == 1440)
        #expect(abs(try convert(1, "fl_oz_us", "mL") - 29.5735295625) < 1e-12)
        #expect(abs(try convert(1, "cup_us", "fl_oz_us") - 8) < 1e-12)
        #expect(abs(try convert(1, "pt_imp", "fl_oz_imp") - 20) < 1e-12)
        #expect(abs(try convert(1, "inHg", "Pa") - 3386.38816) < 1e-9)
        #expect(abs(try convert(1, "cmAq", "Pa") - 98.0665) < 1e-12)
        #expect(abs(try convert(1, "L", "m^3") - 0.001) < 1e-18)
    }

    @Test func temperaturesAreAffine() throws {
        #expect(try convert(98.6, "degF", "degC") == 37)
        #expect(try convert(0, "degC", "degF") == 32)
        #expect(try convert(-40, "degC", "degF") == -40)
        #expect(try convert(0, "degC", "K") == 273.15)
        #expect(abs(try convert(32, "degF", "K") - 273.15) < 1e-12)
        #expect(abs(try convert(310.15, "K", "degF") - 98.6) < 1e-12)
    }

    @Test func bloodGlucoseConvertsBetweenMassAndMolarConcentration() throws {
        let mmolPerL = "mmol<180.15588000005408>/L"
        #expect(abs(try convert(100, "mg/dL", mmolPerL) - 5.550748607) < 1e-9)
        #expect(abs(try convert(1, mmolPerL, "mg/dL") - 18.015588000005408) < 1e-12)
        #expect(abs(try convert(1, "mmol<180.1558800000541>/L", "mg/dL") - 18.01558800000541) < 1e-12)
    }

    @Test func ratesConvertAcrossTimeUnits() throws {
        #expect(try convert(72, "count/min", "count/s") == 1.2)
        #expect(try convert(1, "count/s", "Hz") == 1)
        #expect(abs(try convert(10, "km/hr", "m/s") - 2.7777777777777777) < 1e-12)
        #expect(abs(try convert(45, "mL/kg·min", "ml/(kg*min)") - 45) < 1e-12)
        #expect(abs(try convert(1, "kcal/hr·kg", "W/kg") - 1.1622222222222222) < 1e-12)
        #expect(abs(try convert(1, "W", "kcal/hr") - 0.8604206500956023) < 1e-12)
    }

    @Test func soundPressureLevelIsLogarithmic() throws {
        #expect(abs(try convert(94, "dBASPL", "Pa") - 1.0023744672545445) < 1e-12)
        #expect(abs(try convert(20e-6, "Pa", "dBASPL")) < 1e-9)
        #expect(abs(try convert(try convert(70, "dBASPL", "Pa"), "Pa", "dBASPL") - 70) < 1e-9)
    }

    @Test func percentAndCountAreBothScalarsButDoNotConvert() throws {
        #expect(!HKUnit.percent().isCompatible(with: .count()))
        #expect(throws: HKError(.errorInvalidArgument)) { _ = try convert(0.5, "%", "count") }
    }

    @Test func incompatibleUnitsNameBoth() {
        #expect {
            _ = try convert(5, "kg", "count/min")
        } throws: { error in
            guard let error = error as? HKError else { return false }
            return error.code == .errorInvalidArgument && error.message.contains("\"kg\"") && error.message.contains("\"count/min\"")
        }
        #expect(throws: HKError(.errorInvalidArgument)) { _ = try convert(1, "IU", "g") }
        #expect(throws: HKError(.errorInvalidArgument)) { _ = try convert(1, "rad", "count") }
        #expect(throws: HKError(.errorInvalidArgument)) { _ = try convert(1, "D", "m^-1") }
    }

    @Test func angles() throws {
        #expect(abs(try convert(180, "deg", "rad") - Double.pi) < 1e-15)
    }

    @Test func temperatureInsideACompoundDoesNotConvert() throws {
        #expect(try convert(3, "degC/s", "degC/s") == 3)
        #expect(throws: HKError(.errorInvalidArgument)) { _ = try convert(3, "degC/s", "K/s") }
    }
}

@Suite("HKQuantity")
struct HKQuantityTests {
    @Test func doubleValueConverts() {
        let weight = HKQuantity(unit: .pound(), doubleValue: 150)
        #expect(abs(weight.doubleValue(for: .gramUnit(with: .kilo)) - 68.0388555) < 1e-12)
        #expect(weight.is(compatibleWith: .stone()))
        #expect(!weight.is(compatibleWith: .count()))
        #expect(weight.description == "150 lb")
    }

    @Test func compareOrdersAcrossUnits() {
        let a = HKQuantity(unit: .mile(), doubleValue: 1)
        let b = HKQuantity(unit: .meterUnit(with: .kilo), doubleValue: 1)
        #expect(a.compare(b) == .orderedDescending)
        #expect(b.compare(a) == .orderedAscending)
        #expect(a.compare(HKQuantity(unit: .meter(), doubleValue: 1609.344)) == .orderedSame)
    }

    @Test func equalityIsByValueAcrossUnits() {
        #expect(HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: 1) == HKQuantity(unit: .gram(), doubleValue: 1000))
        #expect(HKQuantity(unit: .gram(), doubleValue: 1) != HKQuantity(unit: .count(), doubleValue: 1))
        #expect(Set([HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: 1), HKQuantity(unit: .gram(), doubleValue: 1000)]).count == 1)
    }

    @Test func valueInThrowsOnIncompatibleUnits() {
        #expect(throws: HKError(.errorInvalidArgument)) {
            _ = try HKQuantity(unit: .count(), doubleValue: 1).value(in: .gram())
        }
    }

    @Test func doubleValueTrapsOnIncompatibleUnitsAsHealthKitRaises() async {
        await #expect(processExitsWith: .failure) {
            _ = HKQuantity(unit: .count(), doubleValue: 1).doubleValue(for: .gram())
        }
    }
}
