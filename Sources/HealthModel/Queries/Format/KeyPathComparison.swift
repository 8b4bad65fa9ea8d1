import Foundation

/// One `keyPath op value` of a predicate format string, as the filter HealthKit's factory for that key path makes:
/// `startDate >= %@` is a date comparison, `quantity > %@` is `predicateForQuantitySamples(with:quantity:)`,
/// `metadata.<key> == %@` is `predicateForObjects(withMetadataKey:operatorType:value:)`, and so on. Comparing with
/// `!=` matches what has no value at all, as `NSPredicate` does.
struct KeyPathComparison {
    let keyPath: String
    let op: PredicateFormat.Operator
    let value: Any?

    func filter() throws -> SampleFilter {
        if keyPath.hasPrefix(HKPredicateKeyPathMetadata + ".") {
            return try metadata(String(keyPath.dropFirst(HKPredicateKeyPathMetadata.count + 1)))
        }
        switch keyPath {
        case HKPredicateKeyPathStartDate, HKPredicateKeyPathEndDate:
            let field: SampleDateField = keyPath == HKPredicateKeyPathStartDate ? .startDate : .endDate
            return try ordered { op in .dateCompare(field, op, try date(value)) }
        case HKPredicateKeyPathUUID:
            return try membership { items in .uuids(Set(try items.map(uuid))) }
        case HKPredicateKeyPathSource:
            return try membership { items in .sources(Set(try items.map { try typed($0, HKSource.self, "an HKSource").bundleIdentifier })) }
        case HKPredicateKeyPathDevice:
            return try membership { items in .devices(Set(try items.map { try typed($0, HKDevice.self, "an HKDevice") })) }
        case HKPredicateKeyPathQuantity:
            return try ordered { op in try factory(HKQuery.predicateForQuantitySamples(with: op.nsOperator, quantity: quantity(value))) }
        case HKPredicateKeyPathCategoryValue:
            if case .in = op { return try membership { items in anyOf(try items.map { .categoryValue(.equalTo, try integer($0)) }) } }
            return try ordered { op in .categoryValue(op, try integer(value)) }
        case HKPredicateKeyPathWorkoutType:
            return try membership { items in
                anyOf(try items.map { item in
                    guard let type = HKWorkoutActivityType(rawValue: UInt(try integer(item))) else {
                        throw reason("\(item ?? "nil") is not an HKWorkoutActivityType raw value")
                    }
                    return .workoutActivityType(type)
                })
            }
        case HKPredicateKeyPathWorkoutDuration:
            return try ordered { op in .workoutDuration(op, try seconds(value)) }
        case HKPredicateKeyPathWorkoutTotalDistance:
            return try ordered { op in try factory(HKQuery.predicateForWorkouts(with: op.nsOperator, totalDistance: quantity(value))) }
        case HKPredicateKeyPathWorkoutTotalEnergyBurned:
            return try ordered { op in try factory(HKQuery.predicateForWorkouts(with: op.nsOperator, totalEnergyBurned: quantity(value))) }
        case HKPredicateKeyPathWorkoutTotalSwimmingStrokeCount:
            return try ordered { op in
                try factory(HKQuery.predicateForWorkouts(with: op.nsOperator, totalSwimmingStrokeCount: quantity(value)))
            }
        case HKPredicateKeyPathWorkoutTotalFlightsClimbed:
            return try ordered { op in try factory(HKQuery.predicateForWorkouts(with: op.nsOperator, totalFlightsClimbed: quantity(value))) }
        default:
            throw reason("""
                the key path "\(keyPath)" is not one OpenHealthKit reads in a format string (startDate, endDate, UUID, source, \
                device, quantity, value, workoutType, duration, totalDistance, totalEnergyBurned, totalSwimmingStrokeCount, \
                totalFlightsClimbed, metadata.<key>); use the HKQuery.predicateFor… factory instead
                """)
        }
    }

    // MARK: - Shapes of comparison

    /// `==`, `!=` and the orderings, through `make` (which gets the operator); `IN` as an OR of `==`.
    private func ordered(_ make: (ComparisonOperator) throws -> SampleFilter) throws -> SampleFilter {
        switch op {
        case .equal: try make(.equalTo)
        case .notEqual: try make(.notEqualTo)
        case .compare(let comparison): try make(comparison)
        case .in: anyOf(try items(value).map { item in try KeyPathComparison(keyPath: keyPath, op: .equal, value: item).filter() })
        }
    }

    /// `==`, `!=` and `IN` over a set of values (`make` gets the values to match); orderings are refused.
    private func membership(_ make: ([Any?]) throws -> SampleFilter) throws -> SampleFilter {
        switch op {
        case .equal: try make([value])
        case .notEqual: .not(try make([value]))
        case .in: try make(items(value))
        case .compare: throw reason("\(keyPath) can be compared with ==, != or IN only")
        }
    }

    /// One alternative as itself, several as an OR.
    private func anyOf(_ filters: [SampleFilter]) -> SampleFilter { filters.count == 1 ? filters[0] : .or(filters) }

    private func metadata(_ key: String) throws -> SampleFilter {
        guard !key.isEmpty else { throw reason("metadata. needs a key") }
        switch (op, value) {
        case (.equal, nil): return .not(.metadataKeyExists(key))
        case (.notEqual, nil): return .metadataKeyExists(key)
        case (.notEqual, let value?): return .not(try factory(HKQuery.predicateForObjects(withMetadataKey: key, allowedValues: [value])))
        case (.equal, let value?): return try factory(HKQuery.predicateForObjects(withMetadataKey: key, allowedValues: [value]))
        case (.in, _): return try factory(HKQuery.predicateForObjects(withMetadataKey: key, allowedValues: try items(value).compactMap { $0 }))
        case (.compare(let comparison), let value?):
            return try factory(HKQuery.predicateForObjects(withMetadataKey: key, operatorType: comparison.nsOperator, value: value))
        case (.compare, nil): throw reason("metadata.\(key) cannot be ordered against nil")
        }
    }

    // MARK: - Values

    private func factory(_ predicate: NSPredicate) throws -> SampleFilter {
        guard let made = predicate as? HKFilterPredicate else { throw reason("internal: \(type(of: predicate)) is not a filter") }
        if case .invalid(let message) = made.filter { throw reason(message) }
        return made.filter
    }

    private func items(_ value: Any?) throws -> [Any?] {
        switch value {
        case let array as [Any?]: array
        case let array as [Any]: array
        case let array as NSArray: array.map { $0 }
        case let set as NSSet: set.allObjects
        case let set as Set<UUID>: Array(set)
        case let set as Set<HKSource>: Array(set)
        case let set as Set<HKDevice>: Array(set)
        case let set as Set<String>: Array(set)
        case let set as Set<Int>: Array(set)
        default: throw reason("IN takes an array or a set, not \(value.map { "\(type(of: $0))" } ?? "nil")")
        }
    }

    private func date(_ value: Any?) throws -> Date {
        switch value {
        case let date as Date: date
        case let date as NSDate: Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate)
        default: throw reason("\(keyPath) is compared with a date, not \(value.map { "\(type(of: $0))" } ?? "nil")")
        }
    }

    private func uuid(_ value: Any?) throws -> UUID {
        switch value {
        case let uuid as UUID: uuid
        case let uuid as NSUUID: UUID(uuidString: uuid.uuidString)!
        case let text as String: try UUID(uuidString: text) ?? { throw reason("\"\(text)\" is not a UUID") }()
        default: throw reason("UUID is compared with a UUID, not \(value.map { "\(type(of: $0))" } ?? "nil")")
        }
    }

    private func quantity(_ value: Any?) throws -> HKQuantity {
        try typed(value, HKQuantity.self, "an HKQuantity")
    }

    private func integer(_ value: Any?) throws -> Int {
        guard let number = PredicateFormat.number(value), number == number.rounded(), abs(number) < 1e15 else {
            throw reason("\(keyPath) is compared with an integer, not \(value.map { "\($0)" } ?? "nil")")
        }
        return Int(number)
    }

    private func seconds(_ value: Any?) throws -> Double {
        if let number = PredicateFormat.number(value) { return number }
        if let quantity = value as? HKQuantity, quantity.is(compatibleWith: .second()) { return quantity.doubleValue(for: .second()) }
        throw reason("duration is compared with seconds (a number) or a time quantity")
    }

    private func typed<T>(_ value: Any?, _ type: T.Type, _ name: String) throws -> T {
        guard let typed = value as? T else {
            throw reason("\(keyPath) is compared with \(name), not \(value.map { "\(Swift.type(of: $0))" } ?? "nil")")
        }
        return typed
    }

    private func reason(_ message: String) -> HKError { HKError.invalidArgument(message) }
}

extension ComparisonOperator {
    /// The `NSComparisonPredicate.Operator` HealthKit's factories take.
    var nsOperator: NSComparisonPredicate.Operator {
        switch self {
        case .lessThan: .lessThan
        case .lessThanOrEqualTo: .lessThanOrEqualTo
        case .greaterThan: .greaterThan
        case .greaterThanOrEqualTo: .greaterThanOrEqualTo
        case .equalTo: .equalTo
        case .notEqualTo: .notEqualTo
        }
    }
}
