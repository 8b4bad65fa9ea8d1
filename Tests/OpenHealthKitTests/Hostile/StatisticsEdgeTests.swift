import Foundation
import Testing
@testable import OpenHealthKit
import TestSupport

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

    /// A sample dated in 9999, per day from 2020: the collection holds the two days with data, not the 2.9 million
    /// empty days between (which used to be built, one statistics object each: 30 s and 1.9 GB, and per hour seventy
    /// million, until the process died); the empty ones are still there when asked for, as in HealthKit.
    /// The bound is far above what the fix takes (0.1 s alone, under 3 s beside the whole suite on two cores) and far
    /// below what building every empty day takes.
    @Test(arguments: [HKStatisticsOptions.cumulativeSum, [.cumulativeSum, .separateBySource, .duration]])
    func aFarSampleCostsItsOwnIntervalNotTheEmptyOnesBefore(options: HKStatisticsOptions) async throws {
        let (store, _, _) = makeStore(.allowAll)
        try await store.requestAuthorization(toShare: [steps], read: [steps])
        let anchor = utc.date(from: DateComponents(year: 2020, month: 1, day: 1))!
        let near = utc.date(from: DateComponents(year: 2020, month: 6, day: 1, hour: 10))!
        let far = utc.date(from: DateComponents(year: 9999, month: 12, day: 30, hour: 10))!
        try await store.save([near, far].map { HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: 60),
                                                                 start: $0, end: $0.addingTimeInterval(600)) })
        let clock = ContinuousClock()
        var daily: HKStatisticsCollection?
        let elapsed = try await clock.measure {
            daily = try await collection(store, options: options, anchor: anchor, interval: DateComponents(day: 1))
        }
        let result = try #require(daily)
        #expect(elapsed < .seconds(10), "\(elapsed)")
        let day = { (date: Date) in utc.startOfDay(for: date) }
        #expect(result.statistics().map(\.startDate) == [day(near), day(far)])
        #expect(result.statistics().map { value($0.sumQuantity()) } == [60, 60])
        let between = try #require(result.statistics(for: utc.date(from: DateComponents(year: 5040, month: 3, day: 3, hour: 9))!))
        #expect(between.sumQuantity() == nil && between.startDate == utc.date(from: DateComponents(year: 5040, month: 3, day: 3))!)
        #expect(result.statistics(for: far.addingTimeInterval(86400)) == nil, "after the range the query computed")
        var seen: [Double?] = []
        result.enumerateStatistics(from: far.addingTimeInterval(-2 * 86400), to: far) { statistics, _ in seen.append(value(statistics.sumQuantity())) }
        #expect(seen == [nil, nil, 60])
    }
}
