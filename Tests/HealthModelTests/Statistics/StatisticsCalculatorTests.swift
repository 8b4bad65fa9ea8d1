import Foundation
import Testing
@testable import HealthModel

/// A Health Connect test record: start, end, value, app rank (higher wins), last-modified time.
private func record(_ start: Double, _ end: Double, _ value: Double, rank: Int, modified: Double = 0) -> StatisticsCalculator.Sample {
    StatisticsCalculator.Sample(start: start, end: end, value: value, sourceRank: 100 - rank, savedAt: modified)
}

private func sums(_ samples: [StatisticsCalculator.Sample], borders: [Double], options: HKStatisticsOptions = .cumulativeSum) -> [Double?] {
    StatisticsCalculator(style: .cumulative, options: options).compute(samples, borders: borders).map { $0.merged?.sum }
}

@Suite("Statistics calculator")
struct StatisticsCalculatorTests {
    let buckets: [Double] = [10, 20, 30, 40]

    // The published vectors of Health Connect's ValuePriorityAggregationTest (reference/statistics-semantics.md §4).

    @Test func healthConnectTwoOverlappingSources() {
        #expect(sums([record(15, 27, 12, rank: 1), record(22, 35, 130, rank: 2)], borders: buckets) == ([5, 82, 50] as [Double?]))
    }

    @Test func healthConnectHigherSourceCoversTheLowerOnesTail() {
        #expect(sums([record(15, 27, 12, rank: 1), record(19, 30, 110, rank: 2)], borders: buckets) == ([14, 100, nil] as [Double?]))
    }

    @Test func healthConnectSwappedRanks() {
        #expect(sums([record(15, 27, 12, rank: 2), record(19, 30, 110, rank: 1)], borders: buckets) == ([5, 37, nil] as [Double?]))
    }

    @Test func healthConnectSameSourceTheLaterModifiedWins() {
        #expect(sums([record(10, 17, 7, rank: 1, modified: 10), record(12, 20, 80, rank: 1, modified: 1)], borders: buckets).first == 37)
    }

    @Test func healthConnectAnInstantCountsOnceBetweenNeighbours() {
        let samples = [record(10, 12, 10, rank: 1), record(12, 12, 10, rank: 4), record(12, 14, 20, rank: 3)]
        #expect(sums(samples, borders: buckets).first == 40)
    }

    @Test func anInstantOnABorderBelongsToTheBucketStartingThere() {
        #expect(sums([record(20, 20, 7, rank: 1)], borders: buckets) == ([nil, 7, nil] as [Double?]))
    }

    // The worked example of §1: phone 10:00–11:00 600 steps, watch 10:30–11:30 900 steps, hourly buckets.

    let phone = StatisticsCalculator.Sample(start: 0, end: 3600, value: 600, sourceRank: 1, savedAt: 0)
    let watch = StatisticsCalculator.Sample(start: 1800, end: 5400, value: 900, sourceRank: 0, savedAt: 0)

    @Test func watchFirstMergesTo750And450() {
        #expect(sums([phone, watch], borders: [0, 3600, 7200]) == ([750, 450] as [Double?]))
    }

    @Test func phoneFirstMergesTo600And450() {
        var phone = phone, watch = watch
        (phone.sourceRank, watch.sourceRank) = (0, 1)
        #expect(sums([phone, watch], borders: [0, 3600, 7200]) == ([600, 450] as [Double?]))
    }

    @Test func threeOverlappingSourcesEachFillOnlyWhatHigherOnesLeave() {
        // Top: 20–30 (100), middle: 10–40 (300), bottom: 0–50 (500); one bucket 0–50.
        let samples = [
            StatisticsCalculator.Sample(start: 20, end: 30, value: 100, sourceRank: 0, savedAt: 0),
            StatisticsCalculator.Sample(start: 10, end: 40, value: 300, sourceRank: 1, savedAt: 0),
            StatisticsCalculator.Sample(start: 0, end: 50, value: 500, sourceRank: 2, savedAt: 0),
        ]
        // bottom 0–10 (100) + middle 10–20 (100) + top (100) + middle 30–40 (100) + bottom 40–50 (100)
        #expect(sums(samples, borders: [0, 50]) == ([500] as [Double?]))
        #expect(sums(samples, borders: [0, 25, 50]) == ([250, 250] as [Double?]))
    }

    @Test func separateBySourceProratesEachSourceWithoutMerging() {
        let buckets = StatisticsCalculator(style: .cumulative, options: [.cumulativeSum, .separateBySource])
            .compute([phone, watch], borders: [0, 3600, 7200])
        #expect(buckets[0].bySource[1]?.sum == 600)
        #expect(buckets[0].bySource[0]?.sum == 450)
        #expect(buckets[1].bySource[0]?.sum == 450)
        #expect(buckets[1].bySource[1] == nil)
        #expect(buckets[0].merged?.sum == 750, "the merged figure is still there")
    }

    @Test func durationIsTheUnionOfTheSamplesInsideEachBucket() {
        let buckets = StatisticsCalculator(style: .cumulative, options: [.duration]).compute([phone, watch], borders: [0, 3600, 7200])
        #expect(buckets.map { $0.merged?.duration } == ([3600, 1800] as [Double?]))
    }

    @Test func mostRecentIsTheLatestStartInTheBucket() {
        let later = StatisticsCalculator.Sample(start: 1800, end: 1800, value: 5, sourceRank: 1, savedAt: 9)
        let bucket = StatisticsCalculator(style: .discreteArithmetic, options: [.mostRecent])
            .compute([phone, later, watch], borders: [0, 7200])[0]
        #expect(bucket.merged?.mostRecent?.value == 5, "equal starts: the later saved wins")
        #expect(bucket.merged?.mostRecent?.start == 1800)
    }

    @Test func discreteArithmeticAveragesByCountInTheStartBucket() {
        let samples = [0.0, 10, 3000, 3700].enumerated().map { i, t in
            StatisticsCalculator.Sample(start: t, end: t + 5000, value: Double(60 + 10 * i), sourceRank: 0, savedAt: 0)
        }
        let buckets = StatisticsCalculator(style: .discreteArithmetic, options: [.discreteAverage, .discreteMin, .discreteMax])
            .compute(samples, borders: [0, 3600, 7200])
        #expect(buckets[0].merged?.average == 70)
        #expect(buckets[0].merged?.minimum == 60)
        #expect(buckets[0].merged?.maximum == 80)
        #expect(buckets[1].merged?.average == 90, "a sample is never split across buckets")
    }

    @Test func temporallyWeightedAveragesHoldEachReadingUntilTheNext() {
        let samples = [(0.0, 60.0), (10, 120), (40, 60)].map { t, v in
            StatisticsCalculator.Sample(start: t, end: t, value: v, sourceRank: 0, savedAt: 0)
        }
        let calculator = StatisticsCalculator(style: .discreteTemporallyWeighted, options: [.discreteAverage])
        // 60 for 10 s, 120 for 30 s, the last reading's hold unknown: (600 + 3600) / 40.
        #expect(calculator.compute(samples, borders: [0, 60])[0].merged?.average == 105)
        #expect(calculator.compute([samples[0]], borders: [0, 60])[0].merged?.average == 60)
        var capped = calculator
        capped.holdCap = 5
        let expected: Double = (60 * 5 + 120 * 5) / 10
        #expect(capped.compute(samples, borders: [0, 60])[0].merged?.average == expected)
    }

    @Test func equivalentContinuousLevelIsTheEnergyMean() {
        let samples = [(0.0, 60.0), (10, 80)].map { t, v in
            StatisticsCalculator.Sample(start: t, end: t + 10, value: v, sourceRank: 0, savedAt: 0)
        }
        let average = StatisticsCalculator(style: .discreteEquivalentContinuousLevel, options: [.discreteAverage, .discreteMax])
            .compute(samples, borders: [0, 60])[0].merged
        #expect(abs(average!.average! - 10 * log10((pow(10, 6) + pow(10, 8)) / 2)) < 1e-9)
        #expect(average?.maximum == 80)
    }

    @Test func optionsThatDoNotSuitTheTypeAreRejectedWithHealthKitsMessage() throws {
        #expect(throws: HKError(.errorInvalidArgument)) {
            try StatisticsCalculator.validate(.cumulativeSum, for: HKQuantityType(.heartRate))
        }
        do {
            try StatisticsCalculator.validate([.discreteAverage], for: HKQuantityType(.stepCount))
            Issue.record("expected an error")
        } catch let error as HKError {
            #expect(error.localizedDescription.contains(
                "Statistics option HKStatisticsOptionDiscreteAverage is not compatible with cumulative data type HKQuantityTypeIdentifierStepCount"))
        }
        try StatisticsCalculator.validate([.mostRecent, .duration, .separateBySource, .discreteMax], for: HKQuantityType(.heartRate))
        try StatisticsCalculator.validate([.mostRecent, .cumulativeSum], for: HKQuantityType(.stepCount))
    }
}
