import Foundation
import Testing
@testable import HealthModel
@testable import HealthStore
@testable import OpenHealthKit

/// `NSPredicate(format:)` over HealthKit's key paths, as HealthKit code writes it: the same filters (and so the same SQL)
/// as the `HKQuery.predicateFor…` factories, and a clear error for anything else.
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

    @Test func queriesWithFormatPredicatesReadWhatTheFactoriesRead() async throws {
        let (store, _, _) = makeStore(.allowAll)
        try await store.requestAuthorization(toShare: [steps], read: [steps])
        func walk(_ count: Double, at offset: TimeInterval, entered: Bool? = nil) -> HKQuantitySample {
            HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: count),
                             start: now.addingTimeInterval(offset), end: now.addingTimeInterval(offset + 60),
                             metadata: entered.map { [HKMetadataKeyWasUserEntered: $0] })
        }
        let samples = [walk(100, at: 0), walk(2000, at: 600, entered: true), walk(300, at: 1200, entered: false), walk(50, at: 7200)]
        try await store.save(samples)
        func read(_ predicate: NSPredicate) async throws -> [Double] {
            try await HKSampleQueryDescriptor(predicates: [.quantitySample(type: steps, predicate: predicate)],
                                              sortDescriptors: [SortDescriptor(\.startDate)])
                .result(for: store).map { $0.quantity.doubleValue(for: .count()) }
        }
        let hour = now.addingTimeInterval(3600)
        #expect(try await read(NSPredicate(format: "%K >= %@ AND %K < %@", HKPredicateKeyPathStartDate, now as NSDate,
                                           HKPredicateKeyPathStartDate, hour as NSDate)) == [100, 2000, 300])
        #expect(try await read(NSPredicate(format: "metadata.%K != YES", HKMetadataKeyWasUserEntered)) == [100, 300, 50])
        #expect(try await read(NSPredicate(format: "quantity > %@", HKQuantity(unit: .count(), doubleValue: 250))) == [2000, 300])
        #expect(try await read(NSPredicate(format: "%K IN %@", HKPredicateKeyPathUUID, [samples[0].uuid, samples[3].uuid])) == [100, 50])
        #expect(try await read(NSPredicate(format: "endDate <= %@", argumentArray: [now.addingTimeInterval(660)])) == [100, 2000])

        // The same predicate evaluates on objects in memory.
        let manual = NSPredicate(format: "metadata.%K == YES", HKMetadataKeyWasUserEntered)
        #expect(samples.filter { manual.evaluate(with: $0) }.map(\.uuid) == [samples[1].uuid])
    }

    @Test func aFormatOpenHealthKitCannotReadFailsTheQueryNamingTheProblem() async throws {
        let (store, _, _) = makeStore(.allowAll)
        try await store.requestAuthorization(toShare: [steps], read: [steps])
        let cases: [(NSPredicate, String)] = [
            (NSPredicate(format: "%K BEGINSWITH %@", HKPredicateKeyPathStartDate, "x"), "BEGINSWITH"),
            (NSPredicate(format: "colour == %@", "red"), "colour"),
            (NSPredicate(format: "%K >= %@", HKPredicateKeyPathStartDate, "yesterday"), "date"),
            (NSPredicate(format: "%K >= %@ AND", HKPredicateKeyPathStartDate, now as NSDate), "key path is missing"),
            (NSPredicate(format: "quantity > %@"), "more placeholders than arguments"),
            (NSPredicate(format: "(startDate > %@", now as NSDate), "never closed"),
        ]
        for (predicate, reason) in cases {
            do {
                _ = try await store.deleteObjects(of: steps, predicate: predicate)
                Issue.record("accepted: \(reason)")
            } catch let error as HKError {
                #expect(error.code == .errorInvalidArgument)
                #expect(error.message.contains(reason), "\(error.message)")
            }
        }
    }
}
