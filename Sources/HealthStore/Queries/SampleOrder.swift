/// One key of a sample query's sort order. Start and end dates are columns SQL sorts by with the (type, startDate) and
/// (type, endDate) indexes; a workout's duration and totals (`HKWorkoutSortIdentifier…`) are sorted in memory.
package struct SampleOrder: Sendable, Hashable {
    package enum Key: String, Sendable {
        case startDate, endDate
        case duration, totalDistance, totalEnergyBurned, totalSwimmingStrokeCount, totalFlightsClimbed

        /// Whether SQL can sort by this key (it names a column of `sample`).
        package var isColumn: Bool { self == .startDate || self == .endDate }
    }

    package var key: Key
    package var ascending: Bool

    package init(key: Key, ascending: Bool) {
        self.key = key
        self.ascending = ascending
    }
}
