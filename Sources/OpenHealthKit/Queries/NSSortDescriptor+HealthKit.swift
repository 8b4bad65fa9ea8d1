public import Foundation

extension NSSortDescriptor {
    /// HealthKit code writes `NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: false)`, but
    /// Foundation on Linux has no key-value coding. This initializer keeps that code compiling: the HealthKit sort
    /// identifiers (and "startDate"/"endDate") become key paths a query can read; any other key makes the
    /// query that uses it fail with `errorInvalidArgument`.
    public convenience init(key: String, ascending: Bool) {
        switch key {
        case HKSampleSortIdentifierStartDate, "startDate": self.init(keyPath: \HKSample.startDate, ascending: ascending)
        case HKSampleSortIdentifierEndDate, "endDate": self.init(keyPath: \HKSample.endDate, ascending: ascending)
        default: self.init(keyPath: \HKSample.unsupportedSortKey, ascending: ascending)
        }
    }
}

extension HKSample {
    /// Stands for a sort key OpenHealthKit cannot sort by (see `NSSortDescriptor(key:ascending:)`).
    package var unsupportedSortKey: Int { 0 }
}
