import Foundation
import OpenHealthKit
import Testing

private let steps = HKQuantityType(.stepCount)
private let now = Date(timeIntervalSinceReferenceDate: 800_000_000)

/// Queries with `NSPredicate(format:)` over HealthKit's key paths, as HealthKit code writes them, on both backends
/// (through the daemon the predicate travels as its compiled filter): they read what the `HKQuery.predicateFor…`
/// factories read, and a format OpenHealthKit cannot read fails the call with a clear `errorInvalidArgument`.
@Suite("NSPredicate(format:) queries, embedded and through the daemon")
struct FormatPredicateQueryTests {
    @Test(arguments: Backend.allCases)
    func queriesWithFormatPredicatesReadWhatTheFactoriesRead(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .allowAll)
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
    }

    @Test(arguments: Backend.allCases)
    func aFormatOpenHealthKitCannotReadFailsTheQueryNamingTheProblem(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .allowAll)
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
}
