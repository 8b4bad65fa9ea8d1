import Foundation
import Testing
@testable import HealthModel

/// Statistics and activity summaries archive every value they hold.
@Suite("Statistics and activity summary coding")
struct StatisticsCodingTests {
    typealias F = CodingFixtures

    static func values(_ base: Double) -> HKStatistics.Values {
        let bpm = HKUnit(from: "count/min")
        return .init(sum: nil, minimum: HKQuantity(unit: bpm, doubleValue: base), maximum: HKQuantity(unit: bpm, doubleValue: base + 80.5),
                     average: HKQuantity(unit: bpm, doubleValue: base + 1.0 / 3.0), mostRecent: HKQuantity(unit: bpm, doubleValue: base + 7),
                     mostRecentDateInterval: DateInterval(start: F.end.addingTimeInterval(-base), duration: 0.5),
                     duration: HKQuantity(unit: .second(), doubleValue: base * 60))
    }

    static func expectIdentical(_ lhs: HKStatistics.Values?, _ rhs: HKStatistics.Values?) {
        #expect(identical(lhs?.sum, rhs?.sum) && identical(lhs?.minimum, rhs?.minimum) && identical(lhs?.maximum, rhs?.maximum))
        #expect(identical(lhs?.average, rhs?.average) && identical(lhs?.mostRecent, rhs?.mostRecent) && identical(lhs?.duration, rhs?.duration))
        #expect(lhs?.mostRecentDateInterval == rhs?.mostRecentDateInterval)
    }

    @Test func statisticsComeBackWithEveryValueMergedAndBySource() throws {
        let watch = HKSource(name: "Watch", bundleIdentifier: "com.apple.health.watch")
        let phone = HKSource(name: "Phone", bundleIdentifier: "com.apple.health.phone")
        let statistics = HKStatistics(quantityType: HKQuantityType(.heartRate), startDate: F.start, endDate: F.end, merged: Self.values(55),
                                      bySource: [watch: Self.values(60), phone: Self.values(52.25)])
        let back = try #require(try roundTrip(statistics))
        #expect(back.quantityType == statistics.quantityType && back.startDate == F.start && back.endDate == F.end)
        #expect(back.sources == [phone, watch] && back.sources?.map(\.name) == ["Phone", "Watch"])
        Self.expectIdentical(back.merged, statistics.merged)
        Self.expectIdentical(back.bySource[watch], statistics.bySource[watch])
        Self.expectIdentical(back.bySource[phone], statistics.bySource[phone])
    }

    @Test func statisticsNotComputedBySourceHaveNoSources() throws {
        let steps = HKStatistics(quantityType: HKQuantityType(.stepCount), startDate: F.start, endDate: F.end,
                                 merged: .init(sum: HKQuantity(unit: .count(), doubleValue: 8_042)))
        let back = try #require(try roundTrip(steps))
        #expect(back.sources == nil && identical(back.sumQuantity(), steps.sumQuantity()) && back.averageQuantity() == nil)
        let emptyBySource = HKStatistics(quantityType: HKQuantityType(.stepCount), startDate: F.start, endDate: F.end, merged: .init(), bySource: [:])
        #expect(try #require(try roundTrip(emptyBySource)).sources == [])
    }

    static func summary() -> HKActivitySummary {
        let summary = HKActivitySummary(dateComponents: DateComponents(year: 2026, month: 11, day: 20))
        summary.activityMoveMode = .appleMoveTime
        summary.isPaused = true
        summary.activeEnergyBurned = HKQuantity(unit: .kilocalorie(), doubleValue: 487.25)
        summary.activeEnergyBurnedGoal = HKQuantity(unit: .kilocalorie(), doubleValue: 300)
        summary.appleMoveTime = HKQuantity(unit: .minute(), doubleValue: 41)
        summary.appleMoveTimeGoal = HKQuantity(unit: .minute(), doubleValue: 30)
        summary.appleExerciseTime = HKQuantity(unit: .minute(), doubleValue: 0.1 + 0.2)
        summary.exerciseTimeGoal = HKQuantity(unit: .minute(), doubleValue: 30)
        summary.appleStandHours = HKQuantity(unit: .count(), doubleValue: 9)
        summary.standHoursGoal = HKQuantity(unit: .count(), doubleValue: 12)
        return summary
    }

    static func expectSameValues(_ lhs: HKActivitySummary, _ rhs: HKActivitySummary) {
        #expect(lhs.day == rhs.day && lhs.activityMoveMode == rhs.activityMoveMode && lhs.isPaused == rhs.isPaused)
        #expect(identical(lhs.activeEnergyBurned, rhs.activeEnergyBurned) && identical(lhs.activeEnergyBurnedGoal, rhs.activeEnergyBurnedGoal))
        #expect(identical(lhs.appleMoveTime, rhs.appleMoveTime) && identical(lhs.appleMoveTimeGoal, rhs.appleMoveTimeGoal))
        #expect(identical(lhs.appleExerciseTime, rhs.appleExerciseTime) && identical(lhs.exerciseTimeGoal, rhs.exerciseTimeGoal))
        #expect(identical(lhs.appleStandHours, rhs.appleStandHours) && identical(lhs.standHoursGoal, rhs.standHoursGoal))
    }

    @Test func anActivitySummaryComesBackWithEveryValueAndItsDay() throws {
        let summary = Self.summary()
        let back = try #require(try roundTrip(summary))
        Self.expectSameValues(back, summary)
        #expect(back.dateComponents(for: Calendar(identifier: .gregorian)).day == 20)
        let empty = try #require(try roundTrip(HKActivitySummary()))
        Self.expectSameValues(empty, HKActivitySummary())
        #expect(empty.day == nil && empty.exerciseTimeGoal == nil)
    }

    @Test func anActivitySummaryWithABadDayDoesNotDecode() throws {
        #expect(decoded(HKActivitySummary.self, from: try forgedArchive(of: Self.summary(), replacing: ["day": "2026-02-30"])) == nil)
        #expect(decoded(HKActivitySummary.self, from: try forgedArchive(of: Self.summary(), removing: ["appleStandHours"])) == nil)
    }

    @Test func copyingAnActivitySummaryMakesAnIndependentOne() throws {
        let summary = Self.summary()
        let copy = try #require(summary.copy() as? HKActivitySummary)
        #expect(copy !== summary)
        Self.expectSameValues(copy, summary)
        copy.isPaused = false
        copy.standHoursGoal = nil
        #expect(summary.isPaused && summary.standHoursGoal != nil)
    }

    @Test func copyingStatisticsGivesThemselves() {
        let statistics = HKStatistics(quantityType: HKQuantityType(.stepCount), startDate: F.start, endDate: F.end, merged: .init())
        #expect(statistics.copy() as? HKStatistics === statistics)
    }
}
