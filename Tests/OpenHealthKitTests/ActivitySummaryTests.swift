import Foundation
import Synchronization
import Testing
@testable import OpenHealthKit
import TestSupport

private let activityType = HKObjectType.activitySummaryType()

/// A summary of a November 2026 day with `kcal` burned and fixed goals.
private func summary(day: Int, kcal: Double, exercise: Double = 30, stand: Double = 10) -> HKActivitySummary {
    let summary = HKActivitySummary(dateComponents: DateComponents(year: 2026, month: 11, day: day))
    summary.activeEnergyBurned = HKQuantity(unit: .kilocalorie(), doubleValue: kcal)
    summary.activeEnergyBurnedGoal = HKQuantity(unit: .kilocalorie(), doubleValue: 500)
    summary.appleExerciseTime = HKQuantity(unit: .minute(), doubleValue: exercise)
    summary.exerciseTimeGoal = HKQuantity(unit: .minute(), doubleValue: 30)
    summary.appleStandHours = HKQuantity(unit: .count(), doubleValue: stand)
    summary.standHoursGoal = HKQuantity(unit: .count(), doubleValue: 12)
    return summary
}

/// Components of a November 2026 day in `calendar`, with the calendar set, as HealthKit's predicates want them.
private func components(_ day: Int, in calendar: Calendar = Calendar(identifier: .gregorian)) -> DateComponents {
    var gregorian = Calendar(identifier: .gregorian)
    gregorian.timeZone = calendar.timeZone
    let noon = gregorian.date(from: DateComponents(year: 2026, month: 11, day: day, hour: 12))!
    var parts = calendar.dateComponents([.era, .year, .month, .day], from: noon)
    parts.calendar = calendar
    return parts
}

private func activitySummaries(_ store: HKHealthStore, _ predicate: NSPredicate?) async throws -> [HKActivitySummary] {
    try await withCheckedThrowingContinuation { continuation in
        store.execute(HKActivitySummaryQuery(predicate: predicate) { _, summaries, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: summaries ?? []) }
        })
    }
}

private func kilocalories(_ summaries: [HKActivitySummary]) -> [Double] {
    summaries.map { $0.activeEnergyBurned.doubleValue(for: .kilocalorie()) }
}

/// A store whose app asked to read activity summaries (allowed or not), and the person's side of it.
private func activityStore(mayRead: Bool) async throws -> (HKHealthStore, HealthPerson) {
    let (store, _, folder) = makeStore(mayRead ? .allowAll : .init(default: .allow, read: [activityType.identifier: .deny]))
    try await store.requestAuthorization(toShare: [], read: [activityType, steps])
    return (store, try HealthPerson(storeDirectory: folder))
}

@Suite("Activity summaries")
struct ActivitySummaryTests {
    @Test func summariesComeBackInDayOrderWithTheirValuesGoalsAndUnits() async throws {
        let (store, person) = try await activityStore(mayRead: true)
        let paused = summary(day: 3, kcal: 0)
        paused.isPaused = true
        paused.activityMoveMode = .appleMoveTime
        paused.appleMoveTime = HKQuantity(unit: .minute(), doubleValue: 12)
        paused.appleMoveTimeGoal = HKQuantity(unit: .minute(), doubleValue: 45)
        let inCal = summary(day: 2, kcal: 1)
        inCal.activeEnergyBurned = HKQuantity(unit: HKUnit(from: "Cal"), doubleValue: 487.231)  // as exports write it
        try person.saveActivitySummaries([paused, summary(day: 1, kcal: 620), inCal])

        let all = try await activitySummaries(store, nil)
        let gregorian = Calendar(identifier: .gregorian)
        #expect(all.map { $0.dateComponents(for: gregorian).day } == [1, 2, 3])
        #expect(all[0].dateComponents(for: gregorian).year == 2026 && all[0].dateComponents(for: gregorian).era == 1)
        #expect(all[0].activeEnergyBurned == HKQuantity(unit: .kilocalorie(), doubleValue: 620))
        #expect(all[0].exerciseTimeGoal == HKQuantity(unit: .minute(), doubleValue: 30))
        #expect(all[0].standHoursGoal == HKQuantity(unit: .count(), doubleValue: 12))
        #expect(all[1].activeEnergyBurned.description == "487.231 Cal")
        #expect(all[2].isPaused && all[2].activityMoveMode == .appleMoveTime)
        #expect(all[2].appleMoveTime.doubleValue(for: .minute()) == 12 && all[2].appleMoveTimeGoal.doubleValue(for: .minute()) == 45)
        #expect(all[0].activityMoveMode == .activeEnergy && !all[0].isPaused)
    }

    @Test func predicatesSelectOneDayOrAnInclusiveRangeInTheCallersCalendar() async throws {
        let (store, person) = try await activityStore(mayRead: true)
        try person.saveActivitySummaries((1...7).map { summary(day: $0, kcal: Double($0 * 100)) })

        #expect(kilocalories(try await activitySummaries(store, HKQuery.predicateForActivitySummary(with: components(4)))) == [400])
        let range = HKQuery.predicate(forActivitySummariesBetweenStart: components(2), end: components(5))
        #expect(kilocalories(try await activitySummaries(store, range)) == [200, 300, 400, 500])

        // The same days named in the Hebrew calendar, and in a calendar far from UTC.
        let hebrew = Calendar(identifier: .hebrew)
        #expect(kilocalories(try await activitySummaries(store, HKQuery.predicateForActivitySummary(with: components(6, in: hebrew)))) == [600])
        var tokyo = Calendar(identifier: .gregorian)
        tokyo.timeZone = TimeZone(identifier: "Asia/Tokyo")!
        #expect(kilocalories(try await activitySummaries(store, HKQuery.predicateForActivitySummary(with: components(7, in: tokyo)))) == [700])
        let stored = try #require(try await activitySummaries(store, nil).first)
        let inHebrew = stored.dateComponents(for: hebrew)
        #expect(inHebrew.calendar?.identifier == .hebrew && inHebrew.year == 5787)

        // Compounds: the range without day 3; evaluate(with:) agrees with the store.
        let notThree = NSCompoundPredicate(notPredicateWithSubpredicate: HKQuery.predicateForActivitySummary(with: components(3)))
        let both = NSCompoundPredicate(andPredicateWithSubpredicates: [range, notThree])
        let found = try await activitySummaries(store, both)
        #expect(kilocalories(found) == [200, 400, 500])
        #expect(found.allSatisfy { both.evaluate(with: $0) })
        #expect(!both.evaluate(with: summary(day: 3, kcal: 0)))
    }

    @Test func badPredicatesAreClearErrors() async throws {
        let (store, _) = try await activityStore(mayRead: true)
        let noCalendar = DateComponents(year: 2026, month: 11, day: 4)
        await #expect(throws: HKError.self) { try await activitySummaries(store, HKQuery.predicateForActivitySummary(with: noCalendar)) }
        var noDay = DateComponents(year: 2026, month: 11)
        noDay.calendar = Calendar(identifier: .gregorian)
        do {
            _ = try await activitySummaries(store, HKQuery.predicateForActivitySummary(with: noDay))
            Issue.record("a day without its day number was accepted")
        } catch let error as HKError {
            #expect(error.code == .errorInvalidArgument && error.message.contains("year, month and day"))
        }
        // A sample predicate in an activity summary query, and the other way round.
        let samplesToday = HKQuery.predicateForSamples(withStart: day0, end: nil)
        await #expect(throws: HKError.self) { try await activitySummaries(store, samplesToday) }
        await #expect(throws: HKError.self) {
            try await HKSampleQueryDescriptor(predicates: [.quantitySample(type: steps, predicate: HKQuery.predicateForActivitySummary(with: components(1)))],
                                              sortDescriptors: []).result(for: store)
        }
        // Activity summaries cannot be delivered in the background.
        await #expect(throws: HKError.self) { try await store.enableBackgroundDelivery(for: activityType, frequency: .immediate) }
    }

    @Test func anAppThatMayNotReadSummariesSeesNoneAndHearsNothing() async throws {
        let (store, person) = try await activityStore(mayRead: false)
        try person.saveActivitySummaries([summary(day: 1, kcal: 300)])
        #expect(try await activitySummaries(store, nil).isEmpty)
        #expect(try await HKActivitySummaryQueryDescriptor(predicate: nil).result(for: store).isEmpty)
        #expect(try person.activitySummaries().count == 1)

        let updates = Mutex(0)
        let query = HKActivitySummaryQuery(predicate: nil) { _, _, _ in }
        query.updateHandler = { _, _, _ in updates.withLock { $0 += 1 } }
        store.execute(query)
        try await Task.sleep(for: .milliseconds(100))
        try person.saveActivitySummaries([summary(day: 2, kcal: 400)])
        try await Task.sleep(for: .milliseconds(400))
        store.stop(query)
        #expect(updates.withLock { $0 } == 0)
    }

    @Test(.timeLimit(.minutes(3))) func theLongRunningQueryReportsNewAndChangedDaysOnly() async throws {
        let (store, person) = try await activityStore(mayRead: true)
        try person.saveActivitySummaries([summary(day: 1, kcal: 100), summary(day: 2, kcal: 200)])
        let (answers, continuation) = AsyncStream<[Double]>.makeStream()
        let week = HKQuery.predicate(forActivitySummariesBetweenStart: components(1), end: components(7))
        let query = HKActivitySummaryQuery(predicate: week) { _, summaries, _ in continuation.yield(kilocalories(summaries ?? [])) }
        query.updateHandler = { _, summaries, _ in continuation.yield(kilocalories(summaries ?? [])) }
        store.execute(query)
        var next = answers.makeAsyncIterator()
        #expect(await next.next() == [100, 200])

        try person.saveActivitySummaries([summary(day: 20, kcal: 999)])  // outside the predicate: nothing
        try person.saveActivitySummaries([summary(day: 2, kcal: 250), summary(day: 3, kcal: 300)])  // a change and a new day
        #expect(await next.next() == [250, 300])
        store.stop(query)
    }

    @Test(.timeLimit(.minutes(3))) func theDescriptorSequenceYieldsTheSummariesThenEachChange() async throws {
        let (store, person) = try await activityStore(mayRead: true)
        try person.saveActivitySummaries([summary(day: 5, kcal: 500)])
        let today = HKActivitySummaryQueryDescriptor(predicate: HKQuery.predicateForActivitySummary(with: components(5)))
        #expect(kilocalories(try await today.result(for: store)) == [500])
        var iterator = today.results(for: store).makeAsyncIterator()
        #expect(kilocalories(try await iterator.next() ?? []) == [500])
        try person.saveActivitySummaries([summary(day: 5, kcal: 550)])
        #expect(kilocalories(try await iterator.next() ?? []) == [550])
    }

    @Test func badSummariesAreRefusedWholeBatchAndAll() async throws {
        let (_, person) = try await activityStore(mayRead: true)
        let wrongUnit = summary(day: 2, kcal: 0)
        wrongUnit.appleExerciseTime = HKQuantity(unit: .count(), doubleValue: 30)
        let negative = summary(day: 3, kcal: -5)
        for bad in [HKActivitySummary(), wrongUnit, negative] {
            do {
                try person.saveActivitySummaries([summary(day: 1, kcal: 100), bad])
                Issue.record("\(bad) was saved")
            } catch let error as HKError {
                #expect(error.code == .errorInvalidArgument)
            }
        }
        #expect(throws: HKError.self) { try person.saveActivitySummaries([summary(day: 1, kcal: 1), summary(day: 1, kcal: 2)]) }
        #expect(try person.activitySummaries().isEmpty, "nothing of a refused batch was saved")
    }

    @Test func theSyntheticPersonGetsOneSummaryPerDayFromItsWatchData() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-\(UUID().uuidString)")
        let person = try HealthPerson(storeDirectory: folder)
        let generated = try person.generate(SyntheticPerson(days: 3, end: day0, seed: 7, heartRateInterval: 300))
        #expect(generated.activitySummaries == 3)
        let stored = try person.activitySummaries()
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        #expect(stored.map { $0.dateComponents(for: utc).day } == [1, 2, 3])  // day0 is 2026-11-04: the three days before it
        for day in stored {
            #expect(day.activeEnergyBurned.doubleValue(for: .kilocalorie()) > 50)
            #expect((1...17).contains(day.appleStandHours.doubleValue(for: .count())))
            #expect(day.activeEnergyBurnedGoal.doubleValue(for: .kilocalorie()) == 500)
        }
    }
}
