import Foundation
import Testing
@testable import HealthModel

@Suite("HKQuantity")
struct HKQuantityTests {
    @Test func keepsTheValueAndUnitAsGiven() {
        let weight = HKQuantity(unit: .pound(), doubleValue: 150)
        #expect(weight.doubleValue == 150)
        #expect(weight.unit == .pound())
    }

    @Test func doubleValueConverts() {
        let weight = HKQuantity(unit: .pound(), doubleValue: 150)
        #expect(abs(weight.doubleValue(for: .gramUnit(with: .kilo)) - 68.0388555) < 1e-12)
    }

    @Test func doubleValueConvertsTemperature() {
        #expect(HKQuantity(unit: .degreeFahrenheit(), doubleValue: 98.6).doubleValue(for: .degreeCelsius()) == 37)
    }

    @Test func isCompatibleWith() {
        let weight = HKQuantity(unit: .pound(), doubleValue: 150)
        #expect(weight.is(compatibleWith: .stone()))
        #expect(!weight.is(compatibleWith: .count()))
    }

    @Test func valueInThrowsNamingBothUnits() {
        #expect {
            _ = try HKQuantity(unit: .count(), doubleValue: 1).value(in: .gram())
        } throws: { error in
            guard let error = error as? HKError, error.code == .errorInvalidArgument else { return false }
            return error.message.contains("\"count\"") && error.message.contains("\"g\"")
        }
    }

    @Test func valueInConverts() throws {
        #expect(try HKQuantity(unit: HKUnit(from: "count/min"), doubleValue: 72).value(in: HKUnit(from: "count/s")) == 1.2)
    }

    @Test func doubleValueTrapsOnIncompatibleUnitsAsHealthKitRaises() async {
        await #expect(processExitsWith: .failure) {
            _ = HKQuantity(unit: .count(), doubleValue: 1).doubleValue(for: .gram())
        }
    }

    @Test func compareOrdersAcrossUnits() {
        let mile = HKQuantity(unit: .mile(), doubleValue: 1)
        let kilometre = HKQuantity(unit: .meterUnit(with: .kilo), doubleValue: 1)
        #expect(mile.compare(kilometre) == .orderedDescending)
        #expect(kilometre.compare(mile) == .orderedAscending)
        #expect(mile.compare(HKQuantity(unit: .meter(), doubleValue: 1609.344)) == .orderedSame)
    }

    @Test func compareTrapsOnIncompatibleQuantities() async {
        await #expect(processExitsWith: .failure) {
            _ = HKQuantity(unit: .percent(), doubleValue: 1).compare(HKQuantity(unit: .count(), doubleValue: 1))
        }
    }

    @Test func equalityIsByValueAcrossUnits() {
        #expect(HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: 1) == HKQuantity(unit: .gram(), doubleValue: 1000))
        #expect(HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: 1) != HKQuantity(unit: .gram(), doubleValue: 999))
        #expect(HKQuantity(unit: .gram(), doubleValue: 1) != HKQuantity(unit: .count(), doubleValue: 1))
        #expect(HKQuantity(unit: .percent(), doubleValue: 1) != HKQuantity(unit: .count(), doubleValue: 1))
    }

    @Test func equalQuantitiesHashAlike() {
        let set: Set = [HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: 1), HKQuantity(unit: .gram(), doubleValue: 1000)]
        #expect(set.count == 1)
    }

    @Test(arguments: [
        (72.0, "count/min", "72 count/min"), (0.161, "%", "0.161 %"), (68.5, "kg", "68.5 kg"), (-3, "degC", "-3 degC"),
        (5.5, "mmol<180.15588000005408>/L", "5.5 mmol<180.1558800000541>/L"),
    ])
    func description(value: Double, unit: String, expected: String) {
        #expect(HKQuantity(unit: HKUnit(from: unit), doubleValue: value).description == expected)
    }
}
