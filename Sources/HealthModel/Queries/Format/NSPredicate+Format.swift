public import Foundation

extension NSPredicate {
    /// A predicate from a format string over HealthKit's key paths, as HealthKit code writes it:
    ///
    /// ```swift
    /// NSPredicate(format: "%K >= %@ AND %K < %@", HKPredicateKeyPathStartDate, start as NSDate, HKPredicateKeyPathStartDate, end as NSDate)
    /// NSPredicate(format: "metadata.%K != YES", HKMetadataKeyWasUserEntered)
    /// NSPredicate(format: "%K IN %@", HKPredicateKeyPathSource, sources)
    /// ```
    ///
    /// Foundation on Linux has no predicate strings; OpenHealthKit reads these — comparisons of `startDate`, `endDate`,
    /// `UUID`, `source`, `device`, `quantity`, `value`, `workoutType`, `duration`, the workout totals and
    /// `metadata.<key>`, joined by `AND`, `OR`, `NOT` — and runs them as the same SQL as the `HKQuery.predicateFor…`
    /// factories. A string it cannot read gives a predicate that fails the query using it with `errorInvalidArgument`
    /// naming the problem (HealthKit raises an exception when the predicate is made). It also evaluates on objects in
    /// memory with `evaluate(with:)`.
    public convenience init(format predicateFormat: String, _ args: Any...) {
        self.init(format: predicateFormat, argumentArray: args)
    }

    /// A predicate from a format string and its arguments as an array; see ``init(format:_:)``.
    public convenience init(format predicateFormat: String, argumentArray arguments: [Any]?) {
        let filter = PredicateFormat.filter(predicateFormat, arguments ?? [])
        self.init { object, _ in
            if let probe = object as? FilterProbe {
                probe.filter = filter
                return true
            }
            if let object = object as? HKObject { return (try? filter.matches(object)) ?? false }
            return false
        }
    }
}

/// Asks a predicate made by `NSPredicate(format:)` for its filter: such a predicate, evaluated with a probe, hands
/// the probe what it means.
final class FilterProbe {
    var filter: SampleFilter?
}
