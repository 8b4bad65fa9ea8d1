/// A type of sample holding a series: a workout route or a heartbeat series.
///
/// ```swift
/// let route = HKSeriesType.workoutRoute()
/// ```
public final class HKSeriesType: HKSampleType, @unchecked Sendable {
    /// The workout route type (`HKWorkoutRouteTypeIdentifier`).
    public class func workoutRoute() -> HKSeriesType { HKSeriesType(identifier: HKWorkoutRouteTypeIdentifier) }

    /// The heartbeat series type (`HKDataTypeIdentifierHeartbeatSeries`).
    public class func heartbeat() -> HKSeriesType { HKSeriesType(identifier: HKDataTypeIdentifierHeartbeatSeries) }
}
