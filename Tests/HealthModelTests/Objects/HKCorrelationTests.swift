import Foundation
import Testing
@testable import HealthModel

@Suite("Correlations")
struct HKCorrelationTests {
    func pressure(_ id: HKQuantityTypeIdentifier, _ value: Double) -> HKQuantitySample {
        HKQuantitySample(type: HKQuantityType(id), quantity: HKQuantity(unit: .millimeterOfMercury(), doubleValue: value), start: t0, end: t0)
    }

    @Test func bloodPressureHoldsOneSystolicAndOneDiastolic() throws {
        let systolic = pressure(.bloodPressureSystolic, 120)
        let diastolic = pressure(.bloodPressureDiastolic, 80)
        let reading = try HKCorrelation.validated(type: HKCorrelationType(.bloodPressure), start: t0, end: t0, objects: [systolic, diastolic])
        #expect(reading.objects.count == 2)
        #expect(reading.objects(for: HKQuantityType(.bloodPressureSystolic)) == [systolic])
        #expect(reading.correlationType == HKCorrelationType(.bloodPressure))
    }

    @Test func aTypeTheCorrelationMayNotHoldIsNamed() {
        let heartRate = HKQuantitySample(type: HKQuantityType(.heartRate), quantity: HKQuantity(unit: HKUnit(from: "count/min"), doubleValue: 60),
                                         start: t0, end: t0)
        #expect {
            _ = try HKCorrelation.validated(type: HKCorrelationType(.bloodPressure), start: t0, end: t0,
                                            objects: [pressure(.bloodPressureSystolic, 120), pressure(.bloodPressureDiastolic, 80), heartRate])
        } throws: { error in
            (error as? HKError)?.message.contains("may not hold HKQuantityTypeIdentifierHeartRate") == true
        }
    }

    @Test func bloodPressureWithoutADiastolicIsRejected() {
        #expect {
            _ = try HKCorrelation.validated(type: HKCorrelationType(.bloodPressure), start: t0, end: t0,
                                            objects: [pressure(.bloodPressureSystolic, 120)])
        } throws: { error in
            (error as? HKError)?.message.contains("exactly one HKQuantityTypeIdentifierBloodPressureDiastolic") == true
        }
    }

    @Test func foodHoldsNutrients() throws {
        let energy = HKQuantitySample(type: HKQuantityType(.dietaryEnergyConsumed), quantity: HKQuantity(unit: .kilocalorie(), doubleValue: 250),
                                      start: t0, end: t0)
        let protein = HKQuantitySample(type: HKQuantityType(.dietaryProtein), quantity: HKQuantity(unit: .gram(), doubleValue: 12),
                                       start: t0, end: t0)
        let food = try HKCorrelation.validated(type: HKCorrelationType(.food), start: t0, end: t0, objects: [energy, protein],
                                               metadata: [HKMetadataKeyFoodType: "Bagel"])
        #expect(food.metadata?[HKMetadataKeyFoodType] as? String == "Bagel")
    }

    @Test func anEmptyCorrelationIsRejected() {
        #expect(throws: HKError(.errorInvalidArgument)) {
            _ = try HKCorrelation.validated(type: HKCorrelationType(.food), start: t0, end: t0, objects: [])
        }
    }
}
