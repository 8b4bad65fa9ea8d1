import Foundation
import Testing
@testable import HealthModel

@Suite("Category samples")
struct HKCategorySampleTests {
    @Test func valuesOfTheTypesEnumAreAccepted() throws {
        for value in HKCategoryValueSleepAnalysis.allCases {
            let sample = try HKCategorySample.validated(type: HKCategoryType(.sleepAnalysis), value: value.rawValue, start: t0, end: t1)
            #expect(sample.value == value.rawValue)
            #expect(sample.categoryType == HKCategoryType(.sleepAnalysis))
        }
    }

    @Test func aValueOutsideTheEnumIsRejectedWithTheAllowedValues() {
        #expect {
            _ = try HKCategorySample.validated(type: HKCategoryType(.sleepAnalysis), value: 9, start: t0, end: t1)
        } throws: { error in
            guard let error = error as? HKError else { return false }
            return error.code == .errorInvalidArgument && error.message.contains("9 is not a valid value")
                && error.message.contains("0, 1, 2, 3, 4, 5")
        }
    }

    @Test func notApplicableTypesTakeOnlyZero() throws {
        _ = try HKCategorySample.validated(type: HKCategoryType(.mindfulSession), value: 0, start: t0, end: t1)
        #expect(throws: HKError(.errorInvalidArgument)) {
            _ = try HKCategorySample.validated(type: HKCategoryType(.mindfulSession), value: 1, start: t0, end: t1)
        }
    }

    @Test func severityTypesTakeTheSeverityScale() throws {
        _ = try HKCategorySample.validated(type: HKCategoryType(.headache), value: HKCategoryValueSeverity.severe.rawValue, start: t0, end: t1)
        #expect(throws: HKError(.errorInvalidArgument)) {
            _ = try HKCategorySample.validated(type: HKCategoryType(.headache), value: 5, start: t0, end: t1)
        }
    }

    @Test func endBeforeStartIsRejected() {
        #expect(throws: HKError(.errorInvalidArgument)) {
            _ = try HKCategorySample.validated(type: HKCategoryType(.sleepAnalysis), value: 0, start: t1, end: t0)
        }
    }

    @Test func appleInitializerTrapsOnAValueOutsideTheEnum() async {
        await #expect(processExitsWith: .failure) {
            _ = HKCategorySample(type: HKCategoryType(.sleepAnalysis), value: 42, start: Date(), end: Date())
        }
    }
}
