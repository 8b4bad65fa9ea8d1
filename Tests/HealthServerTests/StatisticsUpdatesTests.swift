import Foundation
import OpenHealthKit
import Testing

private let steps = HKQuantityType(.stepCount)
private let heartRate = HKQuantityType(.heartRate)
private let day0 = Date(timeIntervalSinceReferenceDate: 800_006_400)   // 2026-05-09 00:00 UTC
private let hour: TimeInterval = 3600

private func stepSample(_ count: Double, from: TimeInterval, to: TimeInterval) -> HKQuantitySample {
    HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: count), start: day0.addingTimeInterval(from),
                     end: day0.addingTimeInterval(to))
}

/// A statistics collection with `statisticsUpdateHandler` on both backends: the first collection, then the statistics
/// of each interval a visible save or delete changed (through the daemon, recomputed there on its observer stream).
@Suite("Statistics collection updates on both backends")
struct StatisticsUpdatesTests {
    @Test(.timeLimit(.minutes(3)), arguments: Backend.allCases)
    func theUpdateHandlerReportsEachIntervalAVisibleChangeAltered(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let other = try await session.app(.other, answering: .allowAll)
            try await other.requestAuthorization(toShare: [steps, heartRate], read: [])
            let app = try await session.app(.steps, answering: .allowAll)
            try await app.requestAuthorization(toShare: [steps], read: [steps])
            let first = stepSample(100, from: hour, to: 2 * hour)
            try await app.save(first)

            let (events, continuation) = AsyncStream<String>.makeStream()
            let query = HKStatisticsCollectionQuery(quantityType: steps, quantitySamplePredicate: nil, options: .cumulativeSum,
                                                    anchorDate: day0, intervalComponents: DateComponents(day: 1))
            var utc = Calendar(identifier: .gregorian)
            utc.timeZone = TimeZone(identifier: "UTC")!
            query.calendar = utc
            query.initialResultsHandler = { _, collection, error in
                continuation.yield(error.map { "error \($0)" }
                                   ?? "first " + (collection?.statistics().map { "\($0.sumQuantity()?.doubleValue(for: .count()) ?? -1)" } ?? []).joined(separator: ","))
            }
            query.statisticsUpdateHandler = { _, statistics, _, error in
                let day = statistics.map { Int($0.startDate.timeIntervalSince(day0) / (24 * hour)) } ?? -1
                continuation.yield(error.map { "error \($0)" } ?? "day \(day) \(statistics?.sumQuantity()?.doubleValue(for: .count()) ?? -1)")
            }
            app.execute(query)
            var heard = events.makeAsyncIterator()
            #expect(await heard.next() == "first 100.0")
            // Another app's heart rate is no change to steps; its steps on the next day are.
            try await other.save(HKQuantitySample(type: heartRate, quantity: HKQuantity(unit: HKUnit(from: "count/min"), doubleValue: 70),
                                                  start: day0, end: day0))
            try await other.save(stepSample(40, from: 26 * hour, to: 27 * hour))
            #expect(await heard.next() == "day 1 40.0")
            try await app.delete(first)
            #expect(await heard.next() == "day 0 -1.0", "an interval that lost its data is reported empty")
            app.stop(query)
        }
    }
}
