import Foundation
import Testing
@testable import HealthModel

let t0 = Date(timeIntervalSince1970: 1_700_000_000)
let t1 = t0.addingTimeInterval(600)

@Suite("Quantity samples")
struct HKQuantitySampleTests {
    @Test func validatedPicksTheSubclassByAggregationStyle() throws {
        let steps = try HKQuantitySample.validated(
            type: HKQuantityType(.stepCount), quantity: HKQuantity(unit: .count(), doubleValue: 1200), start: t0, end: t1)
        let cumulative = try #require(steps as? HKCumulativeQuantitySample)
        #expect(cumulative.sumQuantity.doubleValue(for: .count()) == 1200)
        #expect(steps.count == 1)

        let hr = try HKQuantitySample.validated(
            type: HKQuantityType(.heartRate), quantity: HKQuantity(unit: HKUnit(from: "count/min"), doubleValue: 72), start: t0, end: t0)
        let discrete = try #require(hr as? HKDiscreteQuantitySample)
        #expect(discrete.minimumQuantity.doubleValue(for: HKUnit(from: "count/min")) == 72)
        #expect(discrete.maximumQuantity == discrete.averageQuantity)
        #expect(discrete.mostRecentQuantityDateInterval == DateInterval(start: t0, end: t0))
    }

    @Test func appleInitializerKeepsEveryField() throws {
        let device = HKDevice(name: "Watch", manufacturer: "Acme", model: "W1", hardwareVersion: nil, firmwareVersion: nil,
                              softwareVersion: "1", localIdentifier: nil, udiDeviceIdentifier: nil)
        let sample = HKQuantitySample(type: HKQuantityType(.bodyMass), quantity: HKQuantity(unit: .pound(), doubleValue: 150),
                                      start: t0, end: t1, device: device, metadata: [HKMetadataKeyWasUserEntered: true])
        #expect(sample.quantityType == HKQuantityType(.bodyMass))
        #expect(sample.sampleType == HKQuantityType(.bodyMass))
        #expect(sample.startDate == t0 && sample.endDate == t1)
        #expect(sample.device == device)
        #expect(sample.metadata?[HKMetadataKeyWasUserEntered] as? Bool == true)
        #expect(abs(sample.quantity.doubleValue(for: .gramUnit(with: .kilo)) - 68.0388555) < 1e-9)
        #expect(!sample.hasUndeterminedDuration)
    }

    @Test func endBeforeStartIsAnInvalidArgument() {
        #expect {
            _ = try HKQuantitySample.validated(type: HKQuantityType(.stepCount), quantity: HKQuantity(unit: .count(), doubleValue: 1),
                                               start: t1, end: t0)
        } throws: { error in
            (error as? HKError)?.code == .errorInvalidArgument && (error as? HKError)?.message.contains("before it starts") == true
        }
    }

    @Test func aUnitThatDoesNotFitTheTypeIsNamedInTheError() {
        #expect {
            _ = try HKQuantitySample.validated(type: HKQuantityType(.heartRate), quantity: HKQuantity(unit: .gram(), doubleValue: 5),
                                               start: t0, end: t0)
        } throws: { error in
            guard let error = error as? HKError else { return false }
            return error.code == .errorInvalidArgument && error.message.contains("\"g\"")
                && error.message.contains("HKQuantityTypeIdentifierHeartRate") && error.message.contains("count/s")
        }
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteValuesAreRejected(value: Double) {
        #expect(throws: HKError(.errorInvalidArgument)) {
            _ = try HKQuantitySample.validated(type: HKQuantityType(.stepCount), quantity: HKQuantity(unit: .count(), doubleValue: value),
                                               start: t0, end: t1)
        }
    }

    @Test func nonFiniteDatesAreRejected() {
        #expect(throws: HKError(.errorInvalidArgument)) {
            _ = try HKQuantitySample.validated(type: HKQuantityType(.stepCount), quantity: HKQuantity(unit: .count(), doubleValue: 1),
                                               start: Date(timeIntervalSinceReferenceDate: .nan), end: t1)
        }
    }

    @Test func undeterminedDurationIsAnEndInTheDistantFuture() throws {
        let sample = try HKCategorySample.validated(type: HKCategoryType(.pregnancy), value: HKCategoryValue.notApplicable.rawValue,
                                                    start: t0, end: .distantFuture)
        #expect(sample.hasUndeterminedDuration)
    }

    @Test func samplesAreEqualByUUID() throws {
        let q = HKQuantity(unit: .count(), doubleValue: 1)
        let a = HKQuantitySample(type: HKQuantityType(.stepCount), quantity: q, start: t0, end: t1)
        let b = HKQuantitySample(type: HKQuantityType(.stepCount), quantity: q, start: t0, end: t1)
        #expect(a != b)
        #expect(Set<HKSample>([a, a, b]).count == 2)
    }

    @Test func appleInitializerTrapsOnAnIncompatibleUnit() async {
        await #expect(processExitsWith: .failure) {
            _ = HKQuantitySample(type: HKQuantityType(.heartRate), quantity: HKQuantity(unit: .gram(), doubleValue: 1),
                                 start: Date(), end: Date())
        }
    }

    /// Found by the command-line fuzz: a sample dated in the year -2.5e16 was stored, and every later export crashed
    /// converting its date. Dates must fall within the years 1 to 9999, which an export can write.
    @Test func datesOutsideTheYearsOneToNineThousandNineHundredNinetyNineAreRefused() throws {
        let count = HKQuantity(unit: .count(), doubleValue: 1)
        let firstInstant = Date(timeIntervalSince1970: -62_135_596_800), lastInstant = Date(timeIntervalSince1970: 253_402_300_799)
        _ = try HKQuantitySample.validated(type: HKQuantityType(.stepCount), quantity: count, start: firstInstant, end: lastInstant)
        for (start, end) in [(firstInstant.addingTimeInterval(-1), t0), (t0, lastInstant.addingTimeInterval(1)),
                             (Date(timeIntervalSince1970: -8e23), t0)] {
            #expect(throws: HKError.self) {
                _ = try HKQuantitySample.validated(type: HKQuantityType(.stepCount), quantity: count, start: start, end: end)
            }
        }
    }
}
