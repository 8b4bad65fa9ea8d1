import Foundation
import Synchronization
import Testing
@testable import OpenHealthKit

/// Runs an HKStatisticsQuery and waits for it; nil when nothing matched (HealthKit's `errorNoData`).
func statistics(_ store: HKHealthStore, _ type: HKQuantityType = steps, predicate: NSPredicate? = nil,
                options: HKStatisticsOptions, noDataIsNil: Bool = true) async throws -> HKStatistics? {
    try await withCheckedThrowingContinuation { continuation in
        store.execute(HKStatisticsQuery(quantityType: type, quantitySamplePredicate: predicate, options: options) { _, statistics, error in
            if noDataIsNil, (error as? HKError)?.code == .errorNoData, statistics == nil { return continuation.resume(returning: nil) }
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: statistics) }
        })
    }
}

/// Runs an HKStatisticsCollectionQuery in `calendar` and waits for its initial results.
func collection(_ store: HKHealthStore, _ type: HKQuantityType = steps, predicate: NSPredicate? = nil, options: HKStatisticsOptions,
                anchor: Date, interval: DateComponents, calendar: Calendar = utc) async throws -> HKStatisticsCollection {
    try await withCheckedThrowingContinuation { continuation in
        let query = HKStatisticsCollectionQuery(quantityType: type, quantitySamplePredicate: predicate, options: options,
                                                anchorDate: anchor, intervalComponents: interval)
        query.calendar = calendar
        query.initialResultsHandler = { _, collection, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: collection!) }
        }
        store.execute(query)
    }
}

let utc: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar
}()

/// Two apps writing steps into one store: "phone" (first to write) and "watch".
struct TwoSources {
    let phone: HKHealthStore
    let watch: HKHealthStore
    let folder: URL

    static func make(readerMayRead: Bool = true) async throws -> TwoSources {
        var phoneApp = AppManifest.stepsApp
        phoneApp.bundleIdentifier = "com.example.phone"
        phoneApp.name = "Phone"
        let script: ScriptedPresenter.Script = readerMayRead ? .allowAll : .init(default: .allow, read: [steps.identifier: .deny])
        let (phone, _, folder) = makeStore(app: phoneApp, script)
        var watchApp = AppManifest.stepsApp
        watchApp.bundleIdentifier = "com.example.watch"
        watchApp.name = "Watch"
        let (watch, _, _) = makeStore(app: watchApp, .allowAll, in: folder)
        for store in [phone, watch] { try await store.requestAuthorization(toShare: [steps, heartRate], read: [steps, heartRate]) }
        return TwoSources(phone: phone, watch: watch, folder: folder)
    }
}

let day0 = Date(timeIntervalSinceReferenceDate: 815_443_200)  // 2026-11-04 00:00:00 UTC

func stepsSample(_ value: Double, from start: TimeInterval, to end: TimeInterval, base: Date = day0) -> HKQuantitySample {
    HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: value),
                     start: base.addingTimeInterval(start), end: base.addingTimeInterval(end))
}

func value(_ quantity: HKQuantity?, _ unit: HKUnit = .count()) -> Double? { quantity?.doubleValue(for: unit) }

@Suite("Statistics queries")
struct StatisticsQueryTests {
    let hour = 3600.0

    @Test func overlappingSourcesMergeByPriorityAndSeparateBySourceGivesEachOwnFigure() async throws {
        let s = try await TwoSources.make()
        try await s.phone.save(stepsSample(600, from: 10 * hour, to: 11 * hour))
        try await s.watch.save(stepsSample(900, from: 10.5 * hour, to: 11.5 * hour))
        let day = HKQuery.predicateForSamples(withStart: day0, end: day0.addingTimeInterval(24 * hour))

        // Default order: apps by first write — the phone wrote first, so it wins its hour.
        let merged = try await statistics(s.phone, predicate: day, options: .cumulativeSum)
        #expect(value(merged?.sumQuantity()) == 1050)
        #expect(merged?.sources == nil, "sources are listed only with separateBySource")

        // The person puts the watch first: its 900 count, the phone fills 10:00–10:30.
        try HealthPerson(storeDirectory: s.folder).setSourcePriority(["com.example.watch"], for: steps)
        #expect(value(try await statistics(s.phone, predicate: day, options: .cumulativeSum)?.sumQuantity()) == 1200)

        let separate = try #require(try await statistics(s.phone, predicate: day, options: [.cumulativeSum, .separateBySource]))
        let phoneSource = try #require(separate.sources?.first { $0.bundleIdentifier == "com.example.phone" })
        let watchSource = try #require(separate.sources?.first { $0.bundleIdentifier == "com.example.watch" })
        #expect(value(separate.sumQuantity(for: phoneSource)) == 600)
        #expect(value(separate.sumQuantity(for: watchSource)) == 900)
        #expect(value(separate.sumQuantity()) == 1200)
    }

    @Test func theDateRangeProratesSamplesCrossingIt() async throws {
        let (store, _) = try await authorizedStepsStore()
        try await store.save(stepsSample(1000, from: -hour, to: hour))  // 23:00–01:00 across midnight
        let today = HKQuery.predicateForSamples(withStart: day0, end: day0.addingTimeInterval(24 * hour))
        #expect(value(try await statistics(store, predicate: today, options: .cumulativeSum)?.sumQuantity()) == 500)
        let whole = try await statistics(store, options: [.cumulativeSum, .duration])
        #expect(value(whole?.sumQuantity()) == 1000)
        #expect(value(whole?.duration(), .second()) == 2 * hour)
        #expect(whole?.startDate == day0.addingTimeInterval(-hour))
    }

    @Test func noDataIsErrorNoDataAsInHealthKitAndBadOptionsAnError() async throws {
        let (store, _) = try await authorizedStepsStore()
        await #expect(throws: HKError(.errorNoData)) { _ = try await statistics(store, options: .cumulativeSum, noDataIsNil: false) }
        await #expect(throws: HKError(.errorInvalidArgument)) { _ = try await statistics(store, heartRate, options: .cumulativeSum) }
        await #expect(throws: HKError(.errorInvalidArgument)) { _ = try await statistics(store, options: .discreteAverage) }
    }

    @Test func discreteStatisticsAndMostRecent() async throws {
        let (store, _) = try await authorizedStepsStore()
        let bpm = HKUnit.count().unitDivided(by: .minute())
        try await store.save([(0.0, 60.0), (10, 120), (40, 90)].map { t, v in
            HKQuantitySample(type: heartRate, quantity: HKQuantity(unit: bpm, doubleValue: v), start: day0.addingTimeInterval(t), end: day0.addingTimeInterval(t))
        })
        let result = try #require(try await statistics(store, heartRate, options: [.discreteAverage, .discreteMin, .discreteMax, .mostRecent]))
        #expect(abs(value(result.averageQuantity(), bpm)! - 105) < 1e-9, "60 held 10 s, 120 held 30 s")
        #expect(value(result.minimumQuantity(), bpm) == 60)
        #expect(value(result.maximumQuantity(), bpm) == 120)
        #expect(abs(value(result.mostRecentQuantity(), bpm)! - 90) < 1e-9)
        #expect(result.mostRecentQuantityDateInterval()?.start == day0.addingTimeInterval(40))
        #expect(result.sumQuantity() == nil, "not asked for")
    }

    @Test func dailyIntervalsProrateAcrossMidnightAndReportEmptyDaysAsNil() async throws {
        let (store, _) = try await authorizedStepsStore()
        try await store.save([stepsSample(1000, from: 23 * hour, to: 25 * hour), stepsSample(70, from: 72 * hour, to: 73 * hour)])
        let result = try await collection(store, options: .cumulativeSum, anchor: day0, interval: DateComponents(day: 1))
        #expect(result.statistics().map { value($0.sumQuantity()) } == [500, 500, 70])
        #expect(result.statistics().map(\.startDate) == [0, 1, 3].map { day0.addingTimeInterval(Double($0) * 24 * hour) })
        let empty = try #require(result.statistics(for: day0.addingTimeInterval(50 * hour)))
        #expect(empty.sumQuantity() == nil)
        #expect(empty.startDate == day0.addingTimeInterval(48 * hour))
        var seen: [Double?] = []
        result.enumerateStatistics(from: day0.addingTimeInterval(-24 * hour), to: day0.addingTimeInterval(73 * hour)) { statistics, stop in
            seen.append(value(statistics.sumQuantity()))
        }
        #expect(seen == [nil, 500, 500, nil, 70])
        var count = 0
        result.enumerateStatistics(from: day0, to: day0.addingTimeInterval(73 * hour)) { _, stop in
            count += 1
            if count == 2 { stop.pointee = true }
        }
        #expect(count == 2)
    }

    @Test func daysFollowTheWallClockAcrossDaylightSavingChanges() async throws {
        var newYork = Calendar(identifier: .gregorian)
        newYork.timeZone = TimeZone(identifier: "America/New_York")!
        let (store, _) = try await authorizedStepsStore()
        // 2026-03-08 (spring forward, 23 h) and 2026-11-01 (fall back, 25 h), local midnights.
        for (month, day) in [(3, 7), (10, 31)] {
            let midnight = newYork.date(from: DateComponents(year: 2026, month: month, day: day))!
            // One step per hour for three local days, as 1-hour samples.
            let end = newYork.date(byAdding: .day, value: 3, to: midnight)!
            let samples = stride(from: midnight.timeIntervalSinceReferenceDate, to: end.timeIntervalSinceReferenceDate, by: hour).map { t in
                HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: 1),
                                 start: Date(timeIntervalSinceReferenceDate: t), end: Date(timeIntervalSinceReferenceDate: t + hour))
            }
            try await store.save(samples)
            let range = HKQuery.predicateForSamples(withStart: midnight, end: end)
            let days = try await collection(store, predicate: range, options: .cumulativeSum, anchor: midnight,
                                            interval: DateComponents(day: 1), calendar: newYork)
            let hours = days.statistics().map { $0.endDate.timeIntervalSince($0.startDate) / hour }
            let sums = days.statistics().map { value($0.sumQuantity())! }
            #expect(hours == (month == 3 ? [24, 23, 24] : [24, 25, 24]))
            #expect(sums == hours)
        }
    }

    @Test func badIntervalComponentsAreAnError() async throws {
        let (store, _) = try await authorizedStepsStore()
        await #expect(throws: HKError(.errorInvalidArgument)) {
            _ = try await collection(store, options: .cumulativeSum, anchor: day0, interval: DateComponents())
        }
        await #expect(throws: HKError(.errorInvalidArgument)) {
            _ = try await collection(store, options: .cumulativeSum, anchor: day0, interval: DateComponents(day: -1))
        }
    }

    @Test func collectionSourcesAndHourlyDiscreteStatistics() async throws {
        let s = try await TwoSources.make()
        let bpm = HKUnit.count().unitDivided(by: .minute())
        func beat(_ t: Double, _ v: Double) -> HKQuantitySample {
            HKQuantitySample(type: heartRate, quantity: HKQuantity(unit: bpm, doubleValue: v), start: day0.addingTimeInterval(t), end: day0.addingTimeInterval(t + 60))
        }
        try await s.phone.save([beat(0, 60), beat(600, 80), beat(hour + 60, 100)])
        try await s.watch.save([beat(300, 70)])
        let hourly = try await collection(s.phone, heartRate, options: [.discreteMin, .discreteMax, .discreteAverage, .separateBySource],
                                          anchor: day0, interval: DateComponents(hour: 1))
        #expect(hourly.statistics().map { value($0.minimumQuantity(), bpm) } == [60, 100])
        #expect(hourly.statistics().map { value($0.maximumQuantity(), bpm) } == [80, 100])
        #expect(hourly.statistics().map { value($0.averageQuantity(), bpm) } == [70, 100], "equal 60-s samples weigh alike")
        #expect(Set(hourly.sources().map(\.bundleIdentifier)) == ["com.example.phone", "com.example.watch"])
        let first = hourly.statistics()[0]
        let watch = try #require(first.sources?.first { $0.bundleIdentifier == "com.example.watch" })
        #expect(value(first.averageQuantity(for: watch), bpm) == 70)
    }

    @Test func anAppThatMayNotReadGetsStatisticsOfItsOwnSamplesOnly() async throws {
        let s = try await TwoSources.make(readerMayRead: false)
        try await s.phone.save(stepsSample(600, from: 10 * hour, to: 11 * hour))
        try await s.watch.save(stepsSample(900, from: 10.5 * hour, to: 11.5 * hour))
        try await s.watch.save(stepsSample(50, from: 30 * hour, to: 31 * hour))
        try HealthPerson(storeDirectory: s.folder).setSourcePriority(["com.example.watch"], for: steps)
        let own = try await statistics(s.phone, options: [.cumulativeSum, .separateBySource])
        #expect(value(own?.sumQuantity()) == 600)
        #expect(own?.sources?.map(\.bundleIdentifier) == ["com.example.phone"])
        let days = try await collection(s.phone, options: [.cumulativeSum, .separateBySource], anchor: day0, interval: DateComponents(day: 1))
        #expect(days.statistics().map { value($0.sumQuantity()) } == [600])
        #expect(days.sources().map(\.bundleIdentifier) == ["com.example.phone"])
    }

    @Test(.timeLimit(.minutes(1))) func theUpdateHandlerReportsTheIntervalsASaveOrDeleteChanged() async throws {
        let s = try await TwoSources.make()
        let first = stepsSample(100, from: hour, to: 2 * hour)
        try await s.phone.save(first)
        let (updates, continuation) = AsyncStream<(Date, Double?)>.makeStream()
        let query = HKStatisticsCollectionQuery(quantityType: steps, quantitySamplePredicate: nil, options: .cumulativeSum,
                                                anchorDate: day0, intervalComponents: DateComponents(day: 1))
        query.calendar = utc
        let initial = Mutex<[Double?]>([])
        query.initialResultsHandler = { _, collection, _ in
            initial.withLock { $0 = collection?.statistics().map { value($0.sumQuantity()) } ?? [] }
            continuation.yield((.distantPast, nil))
        }
        query.statisticsUpdateHandler = { _, statistics, _, _ in
            if let statistics { continuation.yield((statistics.startDate, value(statistics.sumQuantity()))) }
        }
        s.phone.execute(query)
        var events = updates.makeAsyncIterator()
        _ = await events.next()
        #expect(initial.withLock { $0 } == [100])

        try await s.watch.save(stepsSample(40, from: 26 * hour, to: 27 * hour))
        let added = await events.next()
        #expect(added?.0 == day0.addingTimeInterval(24 * hour))
        #expect(added?.1 == 40)
        try await s.phone.delete(first)
        let removed = await events.next()
        #expect(removed?.0 == day0)
        #expect(removed?.1 == nil)
        s.phone.stop(query)
    }

    @Test func theStoreCanMergeOnHealthKitsObservedGridInstead() async throws {
        let s = try await TwoSources.make()
        try await s.phone.save(stepsSample(600, from: 10 * 3600, to: 11 * 3600))
        try await s.watch.save(stepsSample(530, from: 10 * 3600 + 37 * 60, to: 11 * 3600 + 30 * 60))
        try HealthPerson(storeDirectory: s.folder).setSourcePriority(["com.example.watch", "com.example.phone"], for: steps)
        let hourly = { (store: HKHealthStore) in
            try await collection(store, options: .cumulativeSum, anchor: day0, interval: DateComponents(hour: 1))
                .statistics().compactMap { value($0.sumQuantity()).map { ($0 * 1000).rounded() / 1000 } }
        }
        #expect(try await hourly(s.watch) == [600, 300])
        var configuration = s.watch.configuration
        configuration.statisticsMergeMode = .appleGrid900
        #expect(try await hourly(HKHealthStore(configuration: configuration)) == [530, 300])
    }
}
