import Foundation
import Testing
import OpenHealthKit

/// The corpus files built on long-running queries: each run against a store while other apps and the person change it.
@Suite("Porting corpus: long-running queries")
struct LiveQueryCorpusTests {
    let calendar = Calendar.current
    let beatsPerMinute = HKUnit.count().unitDivided(by: .minute())

    // MARK: - HeartRateMonitor (HKAnchoredObjectQuery.updateHandler, HKObserverQuery)

    @Test func theHeartRateMonitorFollowsNewAndDeletedReadingsUntilStopped() async throws {
        let person = ScriptedPerson()
        let start = Date().addingTimeInterval(-3600)
        let watch = try await person.otherApp("com.example.watch", saves: [
            sample(.heartRate, 55, beatsPerMinute, at: start.addingTimeInterval(-600)),  // before the monitor's start
            sample(.heartRate, 62, beatsPerMinute, at: start.addingTimeInterval(60)),
        ])
        let store = person.app("com.example.monitor")
        try await store.requestAuthorization(toShare: [], read: [HKQuantityType(.heartRate)])
        let monitor = HeartRateMonitor(healthStore: store)
        let updates = Recorder<[HeartRateMonitor.Reading]>()
        monitor.start(from: start) { updates.append($0) }

        #expect(await eventually { monitor.readings.map(\.beatsPerMinute) == [62] })
        let seventyFive = sample(.heartRate, 75, beatsPerMinute, at: start.addingTimeInterval(120))
        try await watch.save(seventyFive)
        try await watch.save(sample(.heartRate, 80, beatsPerMinute, at: start.addingTimeInterval(180)))
        #expect(await eventually { monitor.readings.map(\.beatsPerMinute) == [62, 75, 80] })

        try await watch.delete(seventyFive)
        #expect(await eventually { monitor.readings.map(\.beatsPerMinute) == [62, 80] })
        // The observer heard of the changes too (at least its first call and the deletion).
        #expect(await eventually { monitor.changeNotifications >= 2 })
        // The app's handler hears of it on the main queue.
        #expect(await eventually { updates.last?.map(\.beatsPerMinute) == [62, 80] })

        monitor.stop()
        await settle()
        let notifications = monitor.changeNotifications
        try await watch.save(sample(.heartRate, 90, beatsPerMinute, at: start.addingTimeInterval(240)))
        await settle()
        #expect(monitor.readings.map(\.beatsPerMinute) == [62, 80])
        #expect(monitor.changeNotifications == notifications)
    }

    // MARK: - ActivityRingsProvider (HKActivitySummaryQuery and its descriptor)

    func summary(_ daysAgo: Int, move: Double, exercise: Double, stand: Double) -> HKActivitySummary {
        let gregorian = Calendar(identifier: .gregorian)
        var day = gregorian.dateComponents([.era, .year, .month, .day], from: calendar.day(daysAgo, hour: 12))
        day.calendar = gregorian
        let summary = HKActivitySummary(dateComponents: day)
        summary.activeEnergyBurned = HKQuantity(unit: .kilocalorie(), doubleValue: move)
        summary.activeEnergyBurnedGoal = HKQuantity(unit: .kilocalorie(), doubleValue: 400)
        summary.appleExerciseTime = HKQuantity(unit: .minute(), doubleValue: exercise)
        summary.exerciseTimeGoal = HKQuantity(unit: .minute(), doubleValue: 30)
        summary.appleStandHours = HKQuantity(unit: .count(), doubleValue: stand)
        summary.standHoursGoal = HKQuantity(unit: .count(), doubleValue: 12)
        return summary
    }

    func day(_ daysAgo: Int) -> DateComponents {
        Calendar(identifier: .gregorian).dateComponents([.era, .year, .month, .day], from: calendar.day(daysAgo, hour: 12))
    }

    @Test func theRingsProviderReadsAWeekAndFollowsToday() async throws {
        let person = ScriptedPerson()
        let you = try person.person()
        // Eight days ago falls outside the week that ends yesterday.
        try you.saveActivitySummaries([
            summary(8, move: 500, exercise: 40, stand: 12),
            summary(6, move: 300, exercise: 15, stand: 6),
            summary(4, move: 400, exercise: 30, stand: 12),
            summary(1, move: 600, exercise: 45, stand: 9),
        ])
        let provider = ActivityRingsProvider(healthStore: person.app("com.example.rings"))
        let (granted, _) = await withCheckedContinuation { done in provider.requestAuthorization { done.resume(returning: ($0, $1)) } }
        #expect(granted)

        let yesterday = calendar.day(1, hour: 12)
        let expected: [ActivityRingsProvider.Rings] = [
            .init(day: day(6), move: 0.75, exercise: 0.5, stand: 0.5),
            .init(day: day(4), move: 1, exercise: 1, stand: 1),
            .init(day: day(1), move: 1.5, exercise: 1.5, stand: 0.75),
        ]
        let week = await withCheckedContinuation { done in provider.week(endingOn: yesterday) { done.resume(returning: $0) } }
        #expect(week == expected)
        #expect(try await provider.week(endingOn: yesterday) == expected)

        // Today has no summary yet; the watch writes one, then updates it.
        let today = Recorder<ActivityRingsProvider.Rings?>()
        provider.observeToday(calendar.day(0, hour: 12)) { today.append($0) }
        #expect(await eventually { today.all.count == 1 })
        #expect(today.all == [nil])
        try you.saveActivitySummaries([summary(0, move: 100, exercise: 5, stand: 3)])
        #expect(await eventually { today.last??.move == 0.25 })
        try you.saveActivitySummaries([summary(0, move: 200, exercise: 10, stand: 4)])
        #expect(await eventually { today.last??.move == 0.5 })
        #expect(today.last??.exercise == 10.0 / 30 && today.last??.stand == 4.0 / 12)
        provider.stopObservingToday()
        await settle()
        let deliveries = today.all.count
        try you.saveActivitySummaries([summary(0, move: 300, exercise: 10, stand: 4)])
        await settle()
        #expect(today.all.count == deliveries)

        // The async sequence: the week as it is, then the day that changed.
        let updates = Recorder<[ActivityRingsProvider.Rings]>()
        let follower = Task { try await provider.followWeek(endingOn: yesterday, deliveries: 2) { updates.append($0) } }
        defer { follower.cancel() }
        try #require(await eventually { updates.all.count == 1 })
        #expect(updates.all.first == expected)
        try you.saveActivitySummaries([summary(3, move: 200, exercise: 0, stand: 2)])
        #expect(await eventually { updates.all.count == 2 })
        #expect(updates.last == [.init(day: day(3), move: 0.5, exercise: 0, stand: 2.0 / 12)])
    }

    // MARK: - HourlyEnergyChart (HKStatisticsCollectionQuery with updates)

    @Test func theHourlyChartStartsWithTheDayAndFollowsNewSamples() async throws {
        let person = ScriptedPerson()
        let chart = HourlyEnergyChart(healthStore: person.app("com.example.energy"), calendar: calendar)
        try await chart.healthStore.requestAuthorization(toShare: [HKQuantityType(.activeEnergyBurned)], read: [HKQuantityType(.activeEnergyBurned)])
        func at(_ hour: Int, _ minute: Int = 0) -> Date { calendar.day(1, hour: hour, minute: minute) }
        func log(_ kilocalories: Double, _ start: Date, _ end: Date) async {
            let (saved, _) = await withCheckedContinuation { done in chart.logEnergy(kilocalories: kilocalories, start: start, end: end) { done.resume(returning: ($0, $1)) } }
            #expect(saved)
        }
        await log(120, at(8), at(8, 30))
        await log(90, at(8, 30), at(9, 30))  // half of it in each hour
        await log(30, at(17), at(17, 10))
        await log(500, calendar.day(2, hour: 8), calendar.day(2, hour: 9))  // another day

        let charts = Recorder<[HourlyEnergyChart.Bar]>()
        chart.start(day: at(12)) { charts.append($0) }
        #expect(await eventually { charts.all.count == 1 })
        let first = try #require(charts.last)
        #expect(first.map(\.hour) == Array(0..<24))
        #expect(first[8].kilocalories == 165 && first[9].kilocalories == 45 && first[17].kilocalories == 30)
        #expect(first.map(\.kilocalories).reduce(0, +) == 240)

        await log(60, at(17, 20), at(17, 40))
        #expect(await eventually { charts.last?[17].kilocalories == 90 })
        #expect(chart.kilocalories(at: at(17, 30)) == 90)
        #expect(charts.last.map { $0.map(\.kilocalories).reduce(0, +) } == 300)

        chart.stop()
        await settle()
        let delivered = charts.all.count
        await log(40, at(20), at(20, 30))
        await settle()
        #expect(charts.all.count == delivered)
    }
}
