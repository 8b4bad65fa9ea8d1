import Foundation
import Testing
@testable import HealthModel
@testable import HealthStore
@testable import OpenHealthKit

/// `NSPredicate(format:)` over HealthKit's key paths, as HealthKit code writes it: the same filters (and so the same SQL)
/// as the `HKQuery.predicateFor…` factories. Queries with them, and the errors for what cannot be read, are in
/// HealthServerTests' `FormatPredicateQueryTests`, on both backends.
@Suite("NSPredicate(format:)")
struct FormatPredicateTests {
    func filter(_ predicate: NSPredicate) throws -> SampleFilter { try SampleFilter(predicate) }

    @Test func formatStringsMakeTheFactoriesFilters() throws {
        let start = now, end = now.addingTimeInterval(3600)
        let ten = HKQuantity(unit: .count(), doubleValue: 10)
        #expect(try filter(NSPredicate(format: "%K > %@", HKPredicateKeyPathQuantity, ten))
                == filter(HKQuery.predicateForQuantitySamples(with: .greaterThan, quantity: ten)))
        #expect(try filter(NSPredicate(format: "%K >= %@ AND %K < %@", HKPredicateKeyPathStartDate, start as NSDate,
                                       HKPredicateKeyPathStartDate, end as NSDate))
                == .and([.dateCompare(.startDate, .greaterThanOrEqualTo, start), .dateCompare(.startDate, .lessThan, end)]))
        #expect(try filter(NSPredicate(format: "metadata.%K == YES", HKMetadataKeyWasUserEntered))
                == filter(HKQuery.predicateForObjects(withMetadataKey: HKMetadataKeyWasUserEntered, allowedValues: [true])))
        #expect(try filter(NSPredicate(format: "%K == %d", HKPredicateKeyPathWorkoutType, Int(HKWorkoutActivityType.running.rawValue)))
                == filter(HKQuery.predicateForWorkouts(with: .running)))
        #expect(try filter(NSPredicate(format: "duration > 1800")) == .workoutDuration(.greaterThan, 1800))
        #expect(try filter(NSPredicate(format: "NOT (%K == %@) OR value IN {1, 2}", HKPredicateKeyPathSource, HKSource.default()))
                == .or([.not(.sources([HKSource.default().bundleIdentifier])),
                        .or([.categoryValue(.equalTo, 1), .categoryValue(.equalTo, 2)])]))
    }
}
