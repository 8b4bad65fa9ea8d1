public import Foundation

extension HKQuery {
    /// Electrocardiograms the ECG app classified so.
    public class func predicateForElectrocardiograms(classification: HKElectrocardiogram.Classification) -> NSPredicate {
        HKFilterPredicate(filter: .electrocardiogramClassification(classification.rawValue))
    }

    /// The samples associated with an electrocardiogram (the symptoms the person logged with it). Recordings read from
    /// an export carry their symptoms only as text, so none has associated samples yet.
    public class func predicateForObjectsAssociated(electrocardiogram: HKElectrocardiogram) -> NSPredicate {
        HKFilterPredicate(filter: .workoutAssociation(electrocardiogram.uuid))
    }

    /// Electrocardiograms with this symptoms status.
    public class func predicateForElectrocardiograms(symptomsStatus: HKElectrocardiogram.SymptomsStatus) -> NSPredicate {
        HKFilterPredicate(filter: .electrocardiogramSymptoms(symptomsStatus.rawValue))
    }
}
