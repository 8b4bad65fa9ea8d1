import Foundation
import HealthModel
import OpenHealthKit
import Testing

/// The names the person reads for types: on the terminal's consent prompts and `health summary`, and in the web Health
/// app (both use `TerminalPresenter.displayName`).
@Suite("Type names people read")
struct TypeDisplayNameTests {
    @Test func everyTypeInTheCatalogHasANameWithoutTheIdentifiersScaffolding() {
        let identifiers = HealthCatalog.quantityTypes.map(\.identifier) + HealthCatalog.categoryTypes.map(\.identifier)
            + HealthCatalog.otherTypes.map(\.identifier)
        #expect(identifiers.count > 200)
        let bad = identifiers.filter { identifier in
            let name = TerminalPresenter.displayName(identifier)
            return name.hasPrefix("HK") || name.contains("Identifier") || name.hasPrefix("Data Type") || name.contains("  ")
                || name.isEmpty
        }
        #expect(bad.map { "\($0) → \(TerminalPresenter.displayName($0))" } == [])
    }

    @Test func wordsSplitAtCapitalsAcronymsAndAfterDigitsButNotBeforeThem() {
        #expect(TerminalPresenter.displayName(HKQuantityTypeIdentifier.stepCount.rawValue) == "Step Count")
        #expect(TerminalPresenter.displayName(HKQuantityTypeIdentifier.uvExposure.rawValue) == "UV Exposure")
        #expect(TerminalPresenter.displayName(HKQuantityTypeIdentifier.vo2Max.rawValue) == "VO2 Max")
        #expect(TerminalPresenter.displayName(HKQuantityTypeIdentifier.dietaryVitaminB6.rawValue) == "Dietary Vitamin B6")
        #expect(TerminalPresenter.displayName(HKQuantityTypeIdentifier.heartRateVariabilitySDNN.rawValue) == "Heart Rate Variability SDNN")
        #expect(TerminalPresenter.displayName(HKMedicationDoseEventTypeIdentifierMedicationDoseEvent) == "Medication Doses")
        #expect(TerminalPresenter.displayName(HKScoredAssessmentTypeIdentifier.GAD7.rawValue) == "GAD-7 Assessment")
        #expect(TerminalPresenter.displayName(HKDataTypeIdentifierStateOfMind) == "State of Mind")
        #expect(TerminalPresenter.displayName(HKWorkoutTypeIdentifier) == "Workouts")
    }
}
