import Foundation
import Testing
@testable import OpenHealthKit

/// Queries an app can write that once stopped the process.
@Suite("Statistics at the edges")
struct StatisticsEdgeTests {
    @Test(arguments: [HKStatisticsOptions.duration, [.cumulativeSum, .separateBySource], [.cumulativeSum, .duration]])
    func contradictoryDateRangesGiveNoDataInsteadOfACrash(options: HKStatisticsOptions) async throws {
        let (store, _, _) = makeStore(.allowAll)
        try await store.requestAuthorization(toShare: [steps], read: [steps])
        // One sample over 10:00–12:00; the predicate asks for 10:00–10:30 AND 11:00–12:00: both match it, no time is in both.
        try await store.save(HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: 1200),
                                              start: now, end: now.addingTimeInterval(7200)))
        let predicate = NSCompoundPredicate(andPredicateWithSubpredicates: [
            HKQuery.predicateForSamples(withStart: now, end: now.addingTimeInterval(1800)),
            HKQuery.predicateForSamples(withStart: now.addingTimeInterval(3600), end: now.addingTimeInterval(7200)),
        ])
        await #expect(throws: HKError(.errorNoData)) {
            _ = try await statistics(store, predicate: predicate, options: options, noDataIsNil: false)
        }
        let daily = try await collection(store, predicate: predicate, options: options, anchor: now, interval: DateComponents(day: 1))
        #expect(daily.statistics().allSatisfy { $0.sumQuantity() == nil || $0.sumQuantity()?.doubleValue(for: .count()) == 0 })
    }
}
