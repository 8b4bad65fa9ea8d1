public import Foundation

/// HealthKit's comparison predicates: quantities, category values, workout durations and totals, metadata.
///
/// ```swift
/// let fast = HKQuery.predicateForQuantitySamples(with: .greaterThan, quantity: HKQuantity(unit: .count().unitDivided(by: .minute()), doubleValue: 120))
/// let long = HKQuery.predicateForWorkouts(with: .greaterThanOrEqualTo, duration: 3600)
/// ```
///
/// They take `NSComparisonPredicate.Operator`, as Apple's do, so code moves between platforms unchanged; on Linux
/// swift-corelibs-foundation marks `NSComparisonPredicate` deprecated, so each of these declarations costs one
/// compiler warning in this file (callers writing `.greaterThan` see none). The supported operators are `<`,
/// `<=`, `>`, `>=`, `==` and `!=`; any other (`like`, `between`, …) makes the query fail with
/// `errorInvalidArgument`.
extension HKQuery {
    /// Quantity samples whose quantity compares so to `quantity` (in any unit compatible with the samples' type;
    /// samples of incompatible types never match).
    public class func predicateForQuantitySamples(with operatorType: NSComparisonPredicate.Operator, quantity: HKQuantity) -> NSPredicate {
        comparison(operatorType, "quantity samples") { op in
            let types = Set(HealthCatalog.quantityTypes.map(\.identifier).filter {
                HKQuantityType(HKQuantityTypeIdentifier(rawValue: $0)).is(compatibleWith: quantity.unit)
            })
            return .quantity(op, base: try quantity.unit.toBase(quantity.doubleValue), types: types)
        }
    }

    /// Category samples whose value compares so to `value`.
    public class func predicateForCategorySamples(with operatorType: NSComparisonPredicate.Operator, value: Int) -> NSPredicate {
        comparison(operatorType, "category samples") { .categoryValue($0, value) }
    }

    /// Workouts whose duration compares so to `duration` (seconds).
    public class func predicateForWorkouts(with operatorType: NSComparisonPredicate.Operator, duration: TimeInterval) -> NSPredicate {
        comparison(operatorType, "workout durations") { .workoutDuration($0, duration) }
    }

    /// Workouts whose total active energy compares so to `totalEnergyBurned`.
    public class func predicateForWorkouts(with operatorType: NSComparisonPredicate.Operator, totalEnergyBurned: HKQuantity) -> NSPredicate {
        workoutStatistic(operatorType, "sum", types: [HKQuantityTypeIdentifier.activeEnergyBurned.rawValue], totalEnergyBurned)
    }

    /// Workouts whose total distance (of any distance type) compares so to `totalDistance`.
    public class func predicateForWorkouts(with operatorType: NSComparisonPredicate.Operator, totalDistance: HKQuantity) -> NSPredicate {
        let distances = HealthCatalog.quantityTypes.map(\.identifier).filter { $0.hasPrefix("HKQuantityTypeIdentifierDistance") }
        return workoutStatistic(operatorType, "sum", types: Set(distances), totalDistance)
    }

    /// Workouts whose total swimming stroke count compares so to `totalSwimmingStrokeCount`.
    public class func predicateForWorkouts(with operatorType: NSComparisonPredicate.Operator, totalSwimmingStrokeCount: HKQuantity) -> NSPredicate {
        workoutStatistic(operatorType, "sum", types: [HKQuantityTypeIdentifier.swimmingStrokeCount.rawValue], totalSwimmingStrokeCount)
    }

    /// Workouts whose total flights climbed compares so to `totalFlightsClimbed`.
    public class func predicateForWorkouts(with operatorType: NSComparisonPredicate.Operator, totalFlightsClimbed: HKQuantity) -> NSPredicate {
        workoutStatistic(operatorType, "sum", types: [HKQuantityTypeIdentifier.flightsClimbed.rawValue], totalFlightsClimbed)
    }

    /// Workouts whose sum of `quantityType` compares so to `sumQuantity`.
    public class func predicateForWorkouts(operatorType: NSComparisonPredicate.Operator, quantityType: HKQuantityType, sumQuantity: HKQuantity) -> NSPredicate {
        workoutStatistic(operatorType, "sum", types: [quantityType.identifier], sumQuantity)
    }

    /// Workouts whose minimum of `quantityType` compares so to `minimumQuantity`.
    public class func predicateForWorkouts(operatorType: NSComparisonPredicate.Operator, quantityType: HKQuantityType, minimumQuantity: HKQuantity) -> NSPredicate {
        workoutStatistic(operatorType, "minimum", types: [quantityType.identifier], minimumQuantity)
    }

    /// Workouts whose maximum of `quantityType` compares so to `maximumQuantity`.
    public class func predicateForWorkouts(operatorType: NSComparisonPredicate.Operator, quantityType: HKQuantityType, maximumQuantity: HKQuantity) -> NSPredicate {
        workoutStatistic(operatorType, "maximum", types: [quantityType.identifier], maximumQuantity)
    }

    /// Workouts whose average of `quantityType` compares so to `averageQuantity`.
    public class func predicateForWorkouts(operatorType: NSComparisonPredicate.Operator, quantityType: HKQuantityType, averageQuantity: HKQuantity) -> NSPredicate {
        workoutStatistic(operatorType, "average", types: [quantityType.identifier], averageQuantity)
    }

    /// Objects whose metadata value for `key` compares so to `value` (a string, date, number or Boolean; strings
    /// compare as text, dates by time, numbers numerically).
    public class func predicateForObjects(withMetadataKey key: String, operatorType: NSComparisonPredicate.Operator, value: Any) -> NSPredicate {
        comparison(operatorType, "metadata values") { .metadataCompare(key: key, $0, try HKMetadataValue(any: value, key: key)) }
    }

    // MARK: - Workout activities (wrap them with predicateForWorkouts(activityPredicate:))

    /// Workout activities whose duration compares so to `duration` (seconds).
    public class func predicateForWorkoutActivities(operatorType: NSComparisonPredicate.Operator, duration: TimeInterval) -> NSPredicate {
        comparison(operatorType, "workout activity durations") { .activity(.duration($0, duration)) }
    }

    /// Workout activities whose sum of `quantityType` compares so to `sumQuantity`.
    public class func predicateForWorkoutActivities(operatorType: NSComparisonPredicate.Operator, quantityType: HKQuantityType,
                                                    sumQuantity: HKQuantity) -> NSPredicate {
        activityStatistic(operatorType, "sum", quantityType, sumQuantity)
    }

    /// Workout activities whose minimum of `quantityType` compares so to `minimumQuantity`.
    public class func predicateForWorkoutActivities(operatorType: NSComparisonPredicate.Operator, quantityType: HKQuantityType,
                                                    minimumQuantity: HKQuantity) -> NSPredicate {
        activityStatistic(operatorType, "minimum", quantityType, minimumQuantity)
    }

    /// Workout activities whose maximum of `quantityType` compares so to `maximumQuantity`.
    public class func predicateForWorkoutActivities(operatorType: NSComparisonPredicate.Operator, quantityType: HKQuantityType,
                                                    maximumQuantity: HKQuantity) -> NSPredicate {
        activityStatistic(operatorType, "maximum", quantityType, maximumQuantity)
    }

    /// Workout activities whose average of `quantityType` compares so to `averageQuantity`.
    public class func predicateForWorkoutActivities(operatorType: NSComparisonPredicate.Operator, quantityType: HKQuantityType,
                                                    averageQuantity: HKQuantity) -> NSPredicate {
        activityStatistic(operatorType, "average", quantityType, averageQuantity)
    }

    // MARK: - Building

    private class func activityStatistic(_ operatorType: NSComparisonPredicate.Operator, _ statistic: String, _ type: HKQuantityType,
                                         _ quantity: HKQuantity) -> NSPredicate {
        comparison(operatorType, "workout activity statistics") { op in
            guard quantity.is(compatibleWith: type.canonicalUnit) else {
                throw HKError.invalidArgument("\(quantity) cannot be compared with \(type.identifier) values")
            }
            return .activity(.statistic(op, statistic: statistic, types: [type.identifier], base: try quantity.unit.toBase(quantity.doubleValue)))
        }
    }

    private class func workoutStatistic(_ operatorType: NSComparisonPredicate.Operator, _ statistic: String, types: Set<String>,
                                        _ quantity: HKQuantity) -> NSPredicate {
        comparison(operatorType, "workout statistics") { op in
            .workoutStatistic(op, statistic: statistic, types: types, base: try quantity.unit.toBase(quantity.doubleValue))
        }
    }

    /// A predicate from a supported operator, or one that fails the query with a message naming the problem.
    class func comparison(_ operatorType: NSComparisonPredicate.Operator, _ what: String,
                          _ make: (ComparisonOperator) throws -> SampleFilter) -> NSPredicate {
        let op: ComparisonOperator
        switch operatorType {
        case .lessThan: op = .lessThan
        case .lessThanOrEqualTo: op = .lessThanOrEqualTo
        case .greaterThan: op = .greaterThan
        case .greaterThanOrEqualTo: op = .greaterThanOrEqualTo
        case .equalTo: op = .equalTo
        case .notEqualTo: op = .notEqualTo
        default:
            return HKFilterPredicate(filter: .invalid(
                "comparison operator \(operatorType.rawValue) is not supported for \(what); use <, <=, >, >=, == or !="))
        }
        do {
            return HKFilterPredicate(filter: try make(op))
        } catch let error as HKError {
            return HKFilterPredicate(filter: .invalid(error.message))
        } catch {
            return HKFilterPredicate(filter: .invalid("\(error)"))
        }
    }
}
