public import Foundation

extension NSSortDescriptor {
    /// HealthKit code writes `NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: false)`, but
    /// Foundation on Linux has no key-value coding. This initializer keeps that code compiling: the HealthKit sort
    /// identifiers (and "startDate"/"endDate"), and for workouts the `HKWorkoutSortIdentifier…` keys, become key paths
    /// a query can read; any other key makes the query that uses it fail with `errorInvalidArgument`.
    public convenience init(key: String, ascending: Bool) {
        switch key {
        case HKSampleSortIdentifierStartDate, "startDate": self.init(keyPath: \HKSample.startDate, ascending: ascending)
        case HKSampleSortIdentifierEndDate, "endDate": self.init(keyPath: \HKSample.endDate, ascending: ascending)
        case HKWorkoutSortIdentifierDuration, "duration": self.init(keyPath: \HKWorkout.duration, ascending: ascending)
        case HKWorkoutSortIdentifierTotalDistance: self.init(keyPath: \HKWorkout.totalDistanceSortKey, ascending: ascending)
        case HKWorkoutSortIdentifierTotalEnergyBurned: self.init(keyPath: \HKWorkout.totalEnergyBurnedSortKey, ascending: ascending)
        case HKWorkoutSortIdentifierTotalSwimmingStrokeCount:
            self.init(keyPath: \HKWorkout.totalSwimmingStrokeCountSortKey, ascending: ascending)
        case HKWorkoutSortIdentifierTotalFlightsClimbed: self.init(keyPath: \HKWorkout.totalFlightsClimbedSortKey, ascending: ascending)
        default: self.init(keyPath: \HKSample.unsupportedSortKey, ascending: ascending)
        }
    }
}

extension HKSample {
    /// Stands for a sort key OpenHealthKit cannot sort by (see `NSSortDescriptor(key:ascending:)`).
    package var unsupportedSortKey: Int { 0 }
}

extension HKWorkout {
    // Key paths standing for the HKWorkoutSortIdentifierTotal… keys in sort descriptors (a query sorts by the totals
    // themselves; these values are never read).
    package var totalDistanceSortKey: Int { 0 }
    package var totalEnergyBurnedSortKey: Int { 0 }
    package var totalSwimmingStrokeCountSortKey: Int { 0 }
    package var totalFlightsClimbedSortKey: Int { 0 }
}
