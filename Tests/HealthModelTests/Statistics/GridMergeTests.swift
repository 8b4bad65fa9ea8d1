import Foundation
import Testing
@testable import HealthModel

/// A sample from `start` to `end` minutes after 10:00 (on the 900-second grid), `rank` 0 the top source.
private func minutes(_ start: Double, _ end: Double, _ value: Double, rank: Int) -> StatisticsCalculator.Sample {
    StatisticsCalculator.Sample(start: 36_000 + start * 60, end: 36_000 + end * 60, value: value, sourceRank: rank, savedAt: 0)
}

private let hours: [Double] = [36_000, 39_600, 43_200]  // 10:00, 11:00, 12:00

private func sums(_ samples: [StatisticsCalculator.Sample], _ mode: HKStatisticsMergeMode) -> [Double?] {
    var calculator = StatisticsCalculator(style: .cumulative, options: .cumulativeSum)
    calculator.mergeMode = mode
    return calculator.compute(samples, borders: hours).map { $0.merged?.sum.map { ($0 * 1000).rounded() / 1000 } }
}

@Suite("Statistics calculator: HealthKit's observed 15-minute grid merge")
struct GridMergeTests {
    // reference/statistics-semantics.md §2: phone 10:00–11:00 600, watch 10:37–11:30 530, watch first.
    let phone = minutes(0, 60, 600, rank: 1), watch = minutes(37, 90, 530, rank: 0)

    @Test func theReferenceExampleGives530And300WhereTheExactSweepGives600And300() {
        #expect(sums([phone, watch], .appleGrid900) == [530, 300])
        #expect(sums([phone, watch], .exact) == [600, 300])
    }

    @Test func aLowerSourceIsDroppedInAGridCellWhereTheTopSourceHasAnyData() {
        // Phone 10:00–10:05 and watch 10:10–10:15 never overlap, yet share the 10:00–10:15 cell: only the watch counts.
        let samples = [minutes(0, 5, 50, rank: 1), minutes(10, 15, 40, rank: 0)]
        #expect(sums(samples, .appleGrid900) == [40, nil])
        #expect(sums(samples, .exact) == [90, nil])
    }

    @Test func theTopSourcesOwnPiecesAllAddAndCellsWithoutItKeepTheLowerSource() {
        let samples = [minutes(0, 10, 100, rank: 0), minutes(5, 14, 90, rank: 0), minutes(20, 40, 200, rank: 1), minutes(61, 62, 7, rank: 1)]
        #expect(sums(samples, .appleGrid900) == [390, 7])
    }

    @Test func anInstantCountsOnceAndASampleCrossingTheHourIsSplitExactlyThere() {
        let samples = [minutes(50, 70, 200, rank: 0), StatisticsCalculator.Sample(start: 36_000 + 30 * 60, end: 36_000 + 30 * 60, value: 5,
                                                                                  sourceRank: 0, savedAt: 0)]
        #expect(sums(samples, .appleGrid900) == [105, 100])
    }
}
