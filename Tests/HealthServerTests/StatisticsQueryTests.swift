import Foundation
import OpenHealthKit
import Synchronization
import Testing
import TestSupport

private let steps = HKQuantityType(.stepCount)
private let heartRate = HKQuantityType(.heartRate)
private let bpm = HKUnit.count().unitDivided(by: .minute())
private let hour = 3600.0

/// Two apps writing steps into one store, through one backend: "phone" (first to write) and "watch".
struct TwoSources {
    let phone: HKHealthStore
    let watch: HKHealthStore
    let session: AppSession

    static func make(_ session: AppSession, phoneMayRead: Bool = true) async throws -> TwoSources {
        func app(_ name: String) -> AppManifest {
            AppManifest(bundleIdentifier: "com.example.\(name.lowercased())", name: name, version: "1.0",
                        shareUsageDescription: "Charts your steps.", updateUsageDescription: "Logs your walks.")
        }
        let phone = try await session.app(app("Phone"), answering: phoneMayRead ? .allowAll : .init(default: .allow, read: [steps.identifier: .deny]))
        let watch = try await session.app(app("Watch"), answering: .allowAll)
        for store in [phone, watch] { try await store.requestAuthorization(toShare: [steps, heartRate], read: [steps, heartRate]) }
        return TwoSources(phone: phone, watch: watch, session: session)
    }
}

/// `HKStatisticsQuery` and `HKStatisticsCollectionQuery` as apps run them, on both backends: merging sources by the
/// person's priority, prorating, discrete statistics, calendar intervals across daylight-saving changes, the privacy
/// rule, live updates and the merge modes. An app gets the same figures either way.
@Suite("Statistics queries, embedded and through the daemon")
struct StatisticsQueryTests {
    @Test(arguments: Backend.allCases)
    func overlappingSourcesMergeByPriorityAndSeparateBySourceGivesEachOwnFigure(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let s = try await TwoSources.make(session)
            try await s.phone.save(stepsSample(600, from: 10 * hour, to: 11 * hour))
            try await s.watch.save(stepsSample(900, from: 10.5 * hour, to: 11.5 * hour))
            let day = HKQuery.predicateForSamples(withStart: day0, end: day0.addingTimeInterval(24 * hour))

            // Default order: apps by first write — the phone wrote first, so it wins its hour.
            let merged = try await statistics(s.phone, predicate: day, options: .cumulativeSum)
            #expect(value(merged?.sumQuantity()) == 1050)
            #expect(merged?.sources == nil, "sources are listed only with separateBySource")

            // The person puts the watch first: its 900 count, the phone fills 10:00–10:30.
            try session.person().setSourcePriority(["com.example.watch"], for: steps)
            #expect(value(try await statistics(s.phone, predicate: day, options: .cumulativeSum)?.sumQuantity()) == 1200)

            let separate = try #require(try await statistics(s.phone, predicate: day, options: [.cumulativeSum, .separateBySource]))
            let phoneSource = try #require(separate.sources?.first { $0.bundleIdentifier == "com.example.phone" })
            let watchSource = try #require(separate.sources?.first { $0.bundleIdentifier == "com.example.watch" })
            #expect(value(separate.sumQuantity(for: phoneSource)) == 600)
            #expect(value(separate.sumQuantity(for: watchSource)) == 900)
            #expect(value(separate.sumQuantity()) == 1200)
        }
    }

    @Test(arguments: Backend.allCases)
    func theDateRangeProratesSamplesCrossingIt(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.authorizedStepsStore()
            try await store.save(stepsSample(1000, from: -hour, to: hour))  // 23:00–01:00 across midnight
            let today = HKQuery.predicateForSamples(withStart: day0, end: day0.addingTimeInterval(24 * hour))
            #expect(value(try await statistics(store, predicate: today, options: .cumulativeSum)?.sumQuantity()) == 500)
            let whole = try await statistics(store, options: [.cumulativeSum, .duration])
            #expect(value(whole?.sumQuantity()) == 1000)
            #expect(value(whole?.duration(), .second()) == 2 * hour)
            #expect(whole?.startDate == day0.addingTimeInterval(-hour))
        }
    }

    @Test(arguments: Backend.allCases)
    func noDataIsErrorNoDataAsInHealthKitAndBadOptionsAnError(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.authorizedStepsStore()
            await #expect(throws: HKError(.errorNoData)) { _ = try await statistics(store, options: .cumulativeSum, noDataIsNil: false) }
            await #expect(throws: HKError(.errorInvalidArgument)) { _ = try await statistics(store, heartRate, options: .cumulativeSum) }
            await #expect(throws: HKError(.errorInvalidArgument)) { _ = try await statistics(store, options: .discreteAverage) }
        }
    }

    @Test(arguments: Backend.allCases)
    func discreteStatisticsAndMostRecent(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.authorizedStepsStore()
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
    }

    @Test(arguments: Backend.allCases)
    func dailyIntervalsProrateAcrossMidnightAndReportEmptyDaysAsNil(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.authorizedStepsStore()
            try await store.save([stepsSample(1000, from: 23 * hour, to: 25 * hour), stepsSample(70, from: 72 * hour, to: 73 * hour)])
            let result = try await collection(store, options: .cumulativeSum, anchor: day0, interval: DateComponents(day: 1))
            #expect(result.statistics().map { value($0.sumQuantity()) } == [500, 500, 70])
            #expect(result.statistics().map(\.startDate) == [0, 1, 3].map { day0.addingTimeInterval(Double($0) * 24 * hour) })
            let empty = try #require(result.statistics(for: day0.addingTimeInterval(50 * hour)))
            #expect(empty.sumQuantity() == nil)
            #expect(empty.startDate == day0.addingTimeInterval(48 * hour))
            var seen: [Double?] = []
            result.enumerateStatistics(from: day0.addingTimeInterval(-24 * hour), to: day0.addingTimeInterval(73 * hour)) { statistics, _ in
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
    }

    @Test(arguments: Backend.allCases)
    func daysFollowTheWallClockAcrossDaylightSavingChanges(_ backend: Backend) async throws {
        var newYork = Calendar(identifier: .gregorian)
        newYork.timeZone = TimeZone(identifier: "America/New_York")!
        try await AppSession.with(backend) { session in
            let store = try await session.authorizedStepsStore()
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
    }

    @Test(arguments: Backend.allCases)
    func badIntervalComponentsAreAnError(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.authorizedStepsStore()
            await #expect(throws: HKError(.errorInvalidArgument)) {
                _ = try await collection(store, options: .cumulativeSum, anchor: day0, interval: DateComponents())
            }
            await #expect(throws: HKError(.errorInvalidArgument)) {
                _ = try await collection(store, options: .cumulativeSum, anchor: day0, interval: DateComponents(day: -1))
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func collectionSourcesAndHourlyDiscreteStatistics(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let s = try await TwoSources.make(session)
            func beat(_ t: Double, _ v: Double) -> HKQuantitySample {
                HKQuantitySample(type: heartRate, quantity: HKQuantity(unit: bpm, doubleValue: v), start: day0.addingTimeInterval(t),
                                 end: day0.addingTimeInterval(t + 60))
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
    }

    @Test(arguments: Backend.allCases)
    func anAppThatMayNotReadGetsStatisticsOfItsOwnSamplesOnly(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let s = try await TwoSources.make(session, phoneMayRead: false)
            try await s.phone.save(stepsSample(600, from: 10 * hour, to: 11 * hour))
            try await s.watch.save(stepsSample(900, from: 10.5 * hour, to: 11.5 * hour))
            try await s.watch.save(stepsSample(50, from: 30 * hour, to: 31 * hour))
            try session.person().setSourcePriority(["com.example.watch"], for: steps)
            let own = try await statistics(s.phone, options: [.cumulativeSum, .separateBySource])
            #expect(value(own?.sumQuantity()) == 600)
            #expect(own?.sources?.map(\.bundleIdentifier) == ["com.example.phone"])
            let days = try await collection(s.phone, options: [.cumulativeSum, .separateBySource], anchor: day0, interval: DateComponents(day: 1))
            #expect(days.statistics().map { value($0.sumQuantity()) } == [600])
            #expect(days.sources().map(\.bundleIdentifier) == ["com.example.phone"])
        }
    }

    @Test(.timeLimit(.minutes(3)), arguments: Backend.allCases)
    func theUpdateHandlerReportsTheIntervalsASaveOrDeleteChanged(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let s = try await TwoSources.make(session)
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
    }

    @Test(arguments: Backend.allCases)
    func theStoreCanMergeOnHealthKitsObservedGridInstead(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let s = try await TwoSources.make(session)
            try await s.phone.save(stepsSample(600, from: 10 * 3600, to: 11 * 3600))
            try await s.watch.save(stepsSample(530, from: 10 * 3600 + 37 * 60, to: 11 * 3600 + 30 * 60))
            try session.person().setSourcePriority(["com.example.watch", "com.example.phone"], for: steps)
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
}
