public import Foundation

extension HKQuery {
    /// The activity summary of one day. The components name the day in their `calendar`, which must be set (as
    /// HealthKit requires): `calendar.dateComponents([.era, .year, .month, .day], from: date)` with `.calendar`
    /// assigned. Without a calendar, or without a year, month and day, running the query is
    /// `HKError(.errorInvalidArgument)`.
    public class func predicateForActivitySummary(with dateComponents: DateComponents) -> NSPredicate {
        switch Self.activityDay(dateComponents, role: "the day") {
        case .success(let day): HKFilterPredicate(filter: .activitySummaryDays(first: day, last: day))
        case .failure(let error): HKFilterPredicate(filter: .invalid(error.message))
        }
    }

    /// The activity summaries from the start day to the end day, both included; each day named as in
    /// ``predicateForActivitySummary(with:)``.
    public class func predicate(forActivitySummariesBetweenStart startDateComponents: DateComponents,
                                end endDateComponents: DateComponents) -> NSPredicate {
        switch (Self.activityDay(startDateComponents, role: "the start day"), Self.activityDay(endDateComponents, role: "the end day")) {
        case (.success(let first), .success(let last)): HKFilterPredicate(filter: .activitySummaryDays(first: first, last: last))
        case (.failure(let error), _), (_, .failure(let error)): HKFilterPredicate(filter: .invalid(error.message))
        }
    }

    private static func activityDay(_ components: DateComponents, role: String) -> Result<ActivityDay, HKError> {
        guard components.calendar != nil else {
            return .failure(.invalidArgument(
                "the date components of \(role) of an activity summary predicate must have their calendar set (got \(components))"))
        }
        guard let day = ActivityDay(components) else {
            return .failure(.invalidArgument(
                "the date components of \(role) of an activity summary predicate must name an existing day with year, month and day (got \(components))"))
        }
        return .success(day)
    }
}
