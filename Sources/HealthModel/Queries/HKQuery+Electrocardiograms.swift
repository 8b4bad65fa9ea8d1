public import Foundation

extension HKQuery {
    /// Electrocardiograms the ECG app classified so.
    public class func predicateForElectrocardiograms(classification: HKElectrocardiogram.Classification) -> NSPredicate {
        HKFilterPredicate(filter: .electrocardiogramClassification(classification.rawValue))
    }

    /// Electrocardiograms with this symptoms status.
    public class func predicateForElectrocardiograms(symptomsStatus: HKElectrocardiogram.SymptomsStatus) -> NSPredicate {
        HKFilterPredicate(filter: .electrocardiogramSymptoms(symptomsStatus.rawValue))
    }
}
