/// How statistics merge overlapping sources of a cumulative type (OpenHealthKit's addition; HealthKit has one fixed
/// behaviour and documents none of it). Set it on `HKHealthStore.Configuration.statisticsMergeMode`.
public enum HKStatisticsMergeMode: String, Sendable, CaseIterable {
    /// Health Connect's published sweep: every stretch of time takes the highest-priority source that has data
    /// there, to the exact second. The default, tested against Health Connect's own test vectors.
    case exact
    /// What HealthKit's daemon is observed to do: time is cut at sample starts and ends floored to a 15-minute grid
    /// (exactly at interval borders), and in each cut only the top source present counts — so a lower source's
    /// data in the same 15 minutes is dropped even where the top source has none. Experimental: it follows
    /// observed behaviour (reference/statistics-semantics.md §2) and is not yet checked against real exports.
    case appleGrid900
}
