/// The comparisons HealthKit's comparison predicates support, as a value the store compiles to SQL.
package enum ComparisonOperator: String, Sendable, Hashable {
    case lessThan = "<", lessThanOrEqualTo = "<=", greaterThan = ">", greaterThanOrEqualTo = ">=", equalTo = "=", notEqualTo = "!="

    /// `a op b`.
    package func compare<T: Comparable>(_ a: T, _ b: T) -> Bool {
        switch self {
        case .lessThan: a < b
        case .lessThanOrEqualTo: a <= b
        case .greaterThan: a > b
        case .greaterThanOrEqualTo: a >= b
        case .equalTo: a == b
        case .notEqualTo: a != b
        }
    }
}
