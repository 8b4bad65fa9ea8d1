import Foundation
import HealthAPI
import OpenHealthKit
import Testing

private let steps = HKQuantityType(.stepCount)
private let heartRate = HKQuantityType(.heartRate)
private let sleep = HKCategoryType(.sleepAnalysis)
private let base = Date(timeIntervalSinceReferenceDate: 800_000_000)
private let bpm = HKUnit(from: "count/min")

private func stepSample(_ count: Double, at minute: Int, metadata: [String: Any]? = nil, device: HKDevice? = nil) -> HKQuantitySample {
    HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: count), start: base.addingTimeInterval(Double(minute) * 60),
                     end: base.addingTimeInterval(Double(minute) * 60 + 30), device: device, metadata: metadata)
}

private func query(_ store: HKHealthStore, _ type: HKSampleType, _ predicate: NSPredicate? = nil,
                   sort: [SortDescriptor<HKSample>] = [SortDescriptor(\.startDate)], limit: Int? = nil) async throws -> [HKSample] {
    try await HKSampleQueryDescriptor(predicates: [.sample(type: type, predicate: predicate)], sortDescriptors: sort, limit: limit).result(for: store)
}

/// The app-facing behaviour of `HKHealthStore` — authorization, saving, deleting, sample queries with their predicates,
/// the privacy rule — run on both backends with the same expectations: an embedded store, and the daemon reached over
/// its Unix socket with a bearer token (`OPENHEALTHKIT_SERVER`).
@Suite("HKHealthStore on both backends")
struct RemoteStoreTests {
    @Test(arguments: Backend.allCases)
    func aSavedSampleComesBackEqualWithItsDeviceMetadataAndSource(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .allowAll)
            try await store.requestAuthorization(toShare: [steps, sleep], read: [steps, sleep])
            let device = HKDevice(name: "Watch", manufacturer: "Acme", model: "W2", hardwareVersion: "2", firmwareVersion: nil,
                                  softwareVersion: "9.1", localIdentifier: nil, udiDeviceIdentifier: nil)
            let when = Date(timeIntervalSinceReferenceDate: 700_000_000.123456)
            let sample = stepSample(1234.5, at: 0, metadata: [
                HKMetadataKeyWasUserEntered: true, "note": "walk ✓", "when": when, "laps": 3, "pace": 1.5,
                "temperature": HKQuantity(unit: .degreeFahrenheit(), doubleValue: 71.6),
            ], device: device)
            let night = HKCategorySample(type: sleep, value: HKCategoryValueSleepAnalysis.asleepREM.rawValue,
                                         start: base.addingTimeInterval(0.000_1), end: base.addingTimeInterval(3_600.25))
            try await store.save([sample, night])

            let saved = try #require(try await query(store, steps).first as? HKQuantitySample)
            #expect(saved.uuid == sample.uuid)
            #expect(saved is HKCumulativeQuantitySample)
            #expect(saved.startDate == sample.startDate && saved.endDate == sample.endDate)
            #expect(saved.quantity == sample.quantity && saved.count == 1)
            #expect(saved.device == device)
            #expect(saved.metadata?["note"] as? String == "walk ✓")
            #expect(saved.metadata?["when"] as? Date == when)
            #expect(saved.metadata?["laps"] as? Int == 3)
            #expect(saved.metadata?["pace"] as? Double == 1.5)
            #expect(saved.metadata?[HKMetadataKeyWasUserEntered] as? Bool == true)
            #expect((saved.metadata?["temperature"] as? HKQuantity)?.doubleValue(for: .degreeFahrenheit()) == 71.6)
            #expect(saved.sourceRevision.source.bundleIdentifier == "com.example.steps")
            #expect(saved.sourceRevision.source.name == "Steps")
            #expect(saved.sourceRevision.version == "1.0")
            #expect(saved.sourceRevision.productType?.isEmpty == false)

            let rem = try #require(try await query(store, sleep).first as? HKCategorySample)
            #expect(rem.uuid == night.uuid && rem.value == night.value)
            #expect(rem.startDate == night.startDate && rem.endDate == night.endDate)
        }
    }

    @Test(arguments: Backend.allCases)
    func predicatesSortsAndLimitsSelectTheSameSamples(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .allowAll)
            try await store.requestAuthorization(toShare: [steps, heartRate], read: [steps, heartRate])
            let watch = HKDevice(name: "Watch", manufacturer: "Acme", model: nil, hardwareVersion: nil, firmwareVersion: nil,
                                 softwareVersion: nil, localIdentifier: nil, udiDeviceIdentifier: nil)
            let samples = (0..<10).map { i in stepSample(Double(100 + i), at: i * 10, metadata: ["lap": i], device: i.isMultiple(of: 2) ? watch : nil) }
            try await store.save(samples)
            let pulse = HKQuantitySample(type: heartRate, quantity: HKQuantity(unit: bpm, doubleValue: 61), start: base, end: base)
            try await store.save(pulse)
            let uuids = { (found: [HKSample]) in found.map(\.uuid) }

            // A date range (strict start), a metadata comparison, a device, and compounds of them.
            let range = HKQuery.predicateForSamples(withStart: base.addingTimeInterval(1_200), end: base.addingTimeInterval(4_200), options: .strictStartDate)
            #expect(uuids(try await query(store, steps, range)) == samples[2...6].map(\.uuid))
            let late = HKQuery.predicateForObjects(withMetadataKey: "lap", operatorType: .greaterThanOrEqualTo, value: 7)
            #expect(uuids(try await query(store, steps, late)) == samples[7...9].map(\.uuid))
            // 1 and 0 stay numbers on the way (a JSON container could have taken them for booleans).
            let early = HKQuery.predicateForObjects(withMetadataKey: "lap", operatorType: .lessThanOrEqualTo, value: 1)
            #expect(uuids(try await query(store, steps, early)) == samples[0...1].map(\.uuid))
            let fromWatch = HKQuery.predicateForObjects(from: [watch])
            let notLate = NSCompoundPredicate(notPredicateWithSubpredicate: late)
            #expect(uuids(try await query(store, steps, NSCompoundPredicate(andPredicateWithSubpredicates: [fromWatch, notLate])))
                    == [0, 2, 4, 6].map { samples[$0].uuid })
            let source = HKQuery.predicateForObjects(from: [try #require(try await query(store, steps).first).sourceRevision.source])
            #expect(try await query(store, steps, source).count == 10)
            let quantity = HKQuery.predicateForQuantitySamples(with: .lessThan, quantity: HKQuantity(unit: .count(), doubleValue: 103))
            #expect(uuids(try await query(store, steps, quantity)) == samples[0...2].map(\.uuid))
            #expect(uuids(try await query(store, steps, HKQuery.predicateForObject(with: samples[5].uuid))) == [samples[5].uuid])

            // Newest first, the first three; by end date; several types in one query.
            #expect(uuids(try await query(store, steps, sort: [SortDescriptor(\.startDate, order: .reverse)], limit: 3))
                    == samples[7...9].reversed().map(\.uuid))
            #expect(uuids(try await query(store, steps, sort: [SortDescriptor(\.endDate, order: .reverse)])) == samples.reversed().map(\.uuid))
            let both = try await HKSampleQueryDescriptor(
                predicates: [.quantitySample(type: steps, predicate: late), .quantitySample(type: heartRate)],
                sortDescriptors: [SortDescriptor(\.startDate)]).result(for: store)
            #expect(both.map(\.uuid) == [pulse.uuid] + samples[7...9].map(\.uuid))

            // The completion-handler query takes the same path.
            let handled = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[HKSample], any Error>) in
                store.execute(HKSampleQuery(sampleType: steps, predicate: range, limit: 2,
                                            sortDescriptors: [NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: false)]) { _, found, error in
                    if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: found ?? []) }
                })
            }
            #expect(uuids(handled) == [samples[6].uuid, samples[5].uuid])
        }
    }

    @Test(arguments: Backend.allCases)
    func anAppSeesOtherAppsSamplesOnlyOfTheTypesItMayRead(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let other = try await session.app(.other, answering: .allowAll)
            try await other.requestAuthorization(toShare: [steps, heartRate], read: [])
            let othersSteps = stepSample(500, at: 1)
            try await other.save([othersSteps, HKQuantitySample(type: heartRate, quantity: HKQuantity(unit: bpm, doubleValue: 80), start: base, end: base)])

            let app = try await session.app(.steps, answering: .init(default: .allow, read: [heartRate.identifier: .deny]))
            try await app.requestAuthorization(toShare: [steps, heartRate], read: [steps, heartRate])
            let own = HKQuantitySample(type: heartRate, quantity: HKQuantity(unit: bpm, doubleValue: 70), start: base, end: base)
            try await app.save(own)
            #expect(try await query(app, steps).map(\.uuid) == [othersSteps.uuid])
            // Heart rate it may not read: only its own, as if nobody else had any.
            #expect(try await query(app, heartRate).map(\.uuid) == [own.uuid])
            // Deleting by predicate removes its own only, and says how many.
            #expect(try await app.deleteObjects(of: heartRate, predicate: HKQuery.predicateForSamples(withStart: nil, end: nil)) == 1)
            #expect(try await query(other, heartRate).count == 1)
        }
    }

    @Test(arguments: Backend.allCases)
    func statusesFollowThePersonsAnswer(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .init(default: .allow, share: [heartRate.identifier: .deny]))
            #expect(store.authorizationStatus(for: steps) == .notDetermined)
            #expect(try await store.statusForAuthorizationRequest(toShare: [steps], read: [heartRate]) == .shouldRequest)
            try await store.requestAuthorization(toShare: [steps, heartRate], read: [heartRate])
            #expect(store.authorizationStatus(for: steps) == .sharingAuthorized)
            #expect(store.authorizationStatus(for: heartRate) == .sharingDenied)
            #expect(store.authorizationStatus(for: sleep) == .notDetermined)
            #expect(try await store.statusForAuthorizationRequest(toShare: [steps], read: [heartRate]) == .unnecessary)
            #expect(try await store.statusForAuthorizationRequest(toShare: [sleep], read: []) == .shouldRequest)
        }
    }

    @Test(arguments: Backend.allCases)
    func refusedSavesFailWithHealthKitsCodesAndABatchIsAllOrNothing(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .init(default: .allow, share: [heartRate.identifier: .deny]))
            await #expect(throws: HKError(.errorAuthorizationNotDetermined)) { try await store.save(stepSample(1, at: 0)) }
            try await store.requestAuthorization(toShare: [steps, heartRate], read: [steps])
            let refused = HKQuantitySample(type: heartRate, quantity: HKQuantity(unit: bpm, doubleValue: 60), start: base, end: base)
            await #expect(throws: HKError(.errorAuthorizationDenied)) { try await store.save([stepSample(1, at: 0), refused]) }
            #expect(try await query(store, steps).isEmpty)
        }
    }

    @Test(arguments: Backend.allCases)
    func anAppDeletesItsOwnObjectsOnly(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let other = try await session.app(.other, answering: .allowAll)
            try await other.requestAuthorization(toShare: [steps], read: [])
            let theirs = stepSample(9, at: 5)
            try await other.save(theirs)
            let store = try await session.app(.steps, answering: .allowAll)
            try await store.requestAuthorization(toShare: [steps], read: [steps])
            let mine = [stepSample(1, at: 1), stepSample(2, at: 2), stepSample(3, at: 3)]
            try await store.save(mine)
            try await store.delete(mine[0])
            await #expect(throws: HKError(.errorAuthorizationDenied)) { try await store.delete([mine[1], theirs]) }
            #expect(try await query(store, steps).map(\.uuid) == [mine[1].uuid, mine[2].uuid, theirs.uuid])
            #expect(try await store.deleteObjects(of: steps, predicate: HKQuery.predicateForSamples(withStart: base, end: nil)) == 2)
            #expect(try await query(store, steps).map(\.uuid) == [theirs.uuid])
        }
    }

    @Test(arguments: Backend.allCases)
    func aQueryHealthKitRefusesIsInvalidArgumentOnBoth(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .allowAll)
            try await store.requestAuthorization(toShare: [steps], read: [steps])
            let days = HKQuery.predicate(forActivitySummariesBetweenStart: DateComponents(year: 2024, month: 1, day: 1),
                                         end: DateComponents(year: 2024, month: 1, day: 2))
            await #expect(throws: HKError(.errorInvalidArgument)) { _ = try await query(store, steps, days) }
        }
    }

    @Test(arguments: Backend.allCases)
    func statisticsGiveTheSameFiguresAndKeepThePrivacyRule(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let other = try await session.app(.other, answering: .allowAll)
            try await other.requestAuthorization(toShare: [steps, heartRate], read: [])
            try await other.save([stepSample(1000, at: 0), HKQuantitySample(type: heartRate, quantity: HKQuantity(unit: bpm, doubleValue: 120), start: base, end: base)])
            let store = try await session.app(.steps, answering: .init(default: .allow, read: [heartRate.identifier: .deny]))
            try await store.requestAuthorization(toShare: [steps, heartRate], read: [steps, heartRate])
            // None of its own heart rates yet, and it may not read the other app's: no statistics, as if there were none.
            let heartRates = HKStatisticsQueryDescriptor(predicate: .quantitySample(type: heartRate), options: [.discreteAverage, .discreteMax])
            #expect(try await heartRates.result(for: store) == nil)
            try await store.save([stepSample(100, at: 1, metadata: ["walk": "a"]), stepSample(60, at: 2)] + [60.0, 90].enumerated().map { index, value in
                HKQuantitySample(type: heartRate, quantity: HKQuantity(unit: bpm, doubleValue: value), start: base.addingTimeInterval(Double(index) * 60),
                                 end: base.addingTimeInterval(Double(index) * 60))
            })
            let heart = try #require(try await heartRates.result(for: store))
            // Heart rate is averaged over time: an instant holds until the next one (the last holds no time).
            #expect(heart.averageQuantity()?.doubleValue(for: bpm) == 60)
            #expect(heart.maximumQuantity()?.doubleValue(for: bpm) == 90)
            // Half of the second sample's 30 s lies in the window: a sum counts half of it. By source, with the most recent.
            let window = HKQuery.predicateForSamples(withStart: base, end: base.addingTimeInterval(135))
            let sum = try #require(try await HKStatisticsQueryDescriptor(predicate: .quantitySample(type: steps, predicate: window),
                                                                        options: [.cumulativeSum, .separateBySource, .mostRecent]).result(for: store))
            #expect(sum.sumQuantity()?.doubleValue(for: .count()) == 1130)
            #expect(sum.startDate == base && sum.endDate == base.addingTimeInterval(135))
            #expect(Set(sum.sources?.map(\.bundleIdentifier) ?? []) == [AppManifest.steps.bundleIdentifier, AppManifest.other.bundleIdentifier])
            let mine = try #require(sum.sources?.first { $0.bundleIdentifier == AppManifest.steps.bundleIdentifier })
            #expect(sum.sumQuantity(for: mine)?.doubleValue(for: .count()) == 130)
            #expect(sum.mostRecentQuantity()?.doubleValue(for: .count()) == 60)
            #expect(sum.mostRecentQuantityDateInterval() == DateInterval(start: base.addingTimeInterval(120), duration: 30))
            // Any predicate goes through: the metadata of the one sample tagged.
            let tagged = HKQuery.predicateForObjects(withMetadataKey: "walk", allowedValues: ["a"])
            let one = try await HKStatisticsQueryDescriptor(predicate: .quantitySample(type: steps, predicate: tagged), options: .cumulativeSum).result(for: store)
            #expect(one?.sumQuantity()?.doubleValue(for: .count()) == 100)
            // The completion-handler query: no data is errorNoData; a sum of heart rates is HealthKit's invalid argument.
            let future = HKQuery.predicateForSamples(withStart: base.addingTimeInterval(86_400), end: nil)
            var codes: [HKError.Code?] = []
            for (type, predicate) in [(steps, future), (heartRate, nil)] {
                codes.append(await withCheckedContinuation { continuation in
                    store.execute(HKStatisticsQuery(quantityType: type, quantitySamplePredicate: predicate, options: .cumulativeSum) { _, _, error in
                        continuation.resume(returning: (error as? HKError)?.code)
                    })
                })
            }
            #expect(codes == [.errorNoData, .errorInvalidArgument])
        }
    }

    @Test(arguments: Backend.allCases)
    func collectionsFollowTheAppsCalendarAcrossADaylightSavingChange(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .allowAll)
            try await store.requestAuthorization(toShare: [steps], read: [steps])
            var paris = Calendar(identifier: .gregorian)
            paris.timeZone = TimeZone(identifier: "Europe/Paris")!
            // Paris moves its clocks forward in the night of 28 to 29 March 2026: the 29th lasts 23 hours.
            let day28 = paris.date(from: DateComponents(year: 2026, month: 3, day: 28))!
            let day29 = paris.date(byAdding: .day, value: 1, to: day28)!, day30 = paris.date(byAdding: .day, value: 1, to: day29)!
            let day31 = paris.date(byAdding: .day, value: 1, to: day30)!
            func at(_ day: Date, hour: Int, _ count: Double) -> HKQuantitySample {
                let start = paris.date(byAdding: .hour, value: hour, to: day)!
                return HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: count), start: start, end: start.addingTimeInterval(60))
            }
            // Late on the 28th, early and late on the 29th (local time), nothing on the 30th.
            try await store.save([at(day28, hour: 23, 10), at(day29, hour: 1, 20), at(day29, hour: 22, 40)])
            var descriptor = HKStatisticsCollectionQueryDescriptor(
                predicate: .quantitySample(type: steps, predicate: HKQuery.predicateForSamples(withStart: day28, end: day31)),
                options: .cumulativeSum, anchorDate: day28, intervalComponents: DateComponents(day: 1))
            descriptor.calendar = paris
            let collection = try await descriptor.result(for: store)
            #expect(collection.statistics().map { $0.sumQuantity()?.doubleValue(for: .count()) } == [10, 60])
            #expect(collection.statistics().map(\.startDate) == [day28, day29])
            #expect(day30.timeIntervalSince(day29) == 23 * 3600)
            var days: [(Date, Double?)] = []
            collection.enumerateStatistics(from: day28, to: day30) { statistics, _ in
                days.append((statistics.startDate, statistics.sumQuantity()?.doubleValue(for: .count())))
            }
            #expect(days.map(\.0) == [day28, day29, day30] && days.map(\.1) == [10, 60, nil])
            #expect(collection.statistics(for: day30)?.sumQuantity() == nil && collection.statistics(for: day30) != nil)
            #expect(collection.statistics(for: day31) == nil, "past the predicate's range")
            // The completion-handler query, in 6-hour intervals from the same anchor.
            let query = HKStatisticsCollectionQuery(quantityType: steps, quantitySamplePredicate: nil, options: .cumulativeSum,
                                                    anchorDate: day28, intervalComponents: DateComponents(hour: 6))
            query.calendar = paris
            let starts: [Date] = try await withCheckedThrowingContinuation { continuation in
                query.initialResultsHandler = { _, collection, error in
                    if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: collection?.statistics().map(\.startDate) ?? []) }
                }
                store.execute(query)
            }
            #expect(starts == [paris.date(byAdding: .hour, value: 18, to: day28)!, day29, paris.date(byAdding: .hour, value: 18, to: day29)!])
        }
    }

    @Test(arguments: Backend.allCases)
    func anchoredQueriesReportEachChangeOnceAndTheirAnchorsRevealNothing(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .init(default: .allow, read: [heartRate.identifier: .deny]))
            try await store.requestAuthorization(toShare: [steps, heartRate], read: [steps, heartRate])
            let mine = [stepSample(1, at: 1, metadata: [HKMetadataKeySyncIdentifier: "walk-1", HKMetadataKeySyncVersion: 3]), stepSample(2, at: 2), stepSample(3, at: 3)]
            try await store.save(mine)
            func changes(_ types: [HKQuantityType], after anchor: HKQueryAnchor?, limit: Int? = nil, _ predicate: NSPredicate? = nil) async throws
                -> HKAnchoredObjectQueryDescriptor<HKQuantitySample>.Result {
                try await HKAnchoredObjectQueryDescriptor(predicates: types.map { .quantitySample(type: $0, predicate: predicate) }, anchor: anchor,
                                                          limit: limit).result(for: store)
            }
            let first = try await changes([steps], after: nil, limit: 2)
            #expect(first.addedSamples.map(\.uuid) == [mine[0].uuid, mine[1].uuid] && first.deletedObjects.isEmpty)
            let second = try await changes([steps], after: first.newAnchor)
            #expect(second.addedSamples.map(\.uuid) == [mine[2].uuid])
            // A predicate applies to what is reported.
            #expect(try await changes([steps], after: nil, HKQuery.predicateForQuantitySamples(with: .greaterThan, quantity: HKQuantity(unit: .count(), doubleValue: 1)))
                .addedSamples.map(\.uuid) == [mine[1].uuid, mine[2].uuid])
            // Another app's heart rates, which this app may not read, change nothing it can see: same anchor, nothing reported.
            let other = try await session.app(.other, answering: .allowAll)
            try await other.requestAuthorization(toShare: [heartRate], read: [])
            try await other.save(HKQuantitySample(type: heartRate, quantity: HKQuantity(unit: bpm, doubleValue: 70), start: base, end: base))
            let quiet = try await changes([steps, heartRate], after: second.newAnchor)
            #expect(quiet.addedSamples.isEmpty && quiet.deletedObjects.isEmpty)
            #expect(quiet.newAnchor == second.newAnchor)
            // A deletion is reported once, with the sync metadata the sample carried.
            try await store.delete(mine[0])
            let third = try await changes([steps], after: quiet.newAnchor)
            #expect(third.deletedObjects.map(\.uuid) == [mine[0].uuid])
            #expect(third.deletedObjects.first?.metadata?[HKMetadataKeySyncIdentifier] as? String == "walk-1")
            #expect(try await changes([steps], after: third.newAnchor).deletedObjects.isEmpty)
            // An anchor made for another app means nothing here.
            let othersAnchor = try await HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: heartRate)], anchor: nil).result(for: other).newAnchor
            await #expect(throws: HKError(.errorInvalidArgument)) { _ = try await changes([steps], after: othersAnchor) }
            // HealthKit's first API, with integer anchors.
            let (found, next): ([HKSample], Int) = try await withCheckedThrowingContinuation { continuation in
                store.execute(HKAnchoredObjectQuery(type: steps, predicate: nil, anchor: Int(HKAnchoredObjectQueryNoAnchor), limit: 1) { _, samples, anchor, error in
                    if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: (samples ?? [], anchor)) }
                })
            }
            #expect(found.map(\.uuid) == [mine[1].uuid])
            #expect(try await changes([steps], after: HKQueryAnchor(fromValue: next)).addedSamples.map(\.uuid) == [mine[2].uuid])
        }
    }

    // MARK: - Through the daemon only

    @Test(.timeLimit(.minutes(3)), arguments: Backend.allCases)
    func anObserverHearsItsStartAndEachChangeItMaySeeAndNothingElse(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let other = try await session.app(.other, answering: .allowAll)
            try await other.requestAuthorization(toShare: [steps, heartRate], read: [])
            let app = try await session.app(.steps, answering: .init(default: .allow, read: [heartRate.identifier: .deny]))
            try await app.requestAuthorization(toShare: [steps], read: [steps, heartRate])
            let (calls, continuation) = AsyncStream<String>.makeStream()
            let query = HKObserverQuery(queryDescriptors: [HKQueryDescriptor(sampleType: steps, predicate: nil),
                                                           HKQueryDescriptor(sampleType: heartRate, predicate: nil)]) { _, types, done, error in
                continuation.yield(error.map { "error \($0)" } ?? types.map { $0.map(\.identifier).sorted().joined(separator: ",") } ?? "start")
                done()
            }
            app.execute(query)
            var heard = calls.makeAsyncIterator()
            #expect(await heard.next() == "start")
            // Another app's heart rate, which this app may not read, then its steps: the first update names steps only.
            try await other.save(HKQuantitySample(type: heartRate, quantity: HKQuantity(unit: bpm, doubleValue: 80), start: base, end: base))
            try await other.save(stepSample(5, at: 1))
            #expect(await heard.next() == steps.identifier)
            // Its own save is an update too.
            try await app.save(stepSample(6, at: 2))
            #expect(await heard.next() == steps.identifier)
            app.stop(query)
        }
    }

    @Test(arguments: Backend.allCases)
    func characteristicsAreReadOnlyWhereTheAppMayAndLookUnsetOtherwise(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let person = try session.person()
            try person.setBiologicalSex(.female)
            try person.setBloodType(.oNegative)
            try person.setDateOfBirth(DateComponents(year: 1984, month: 6, day: 2))
            try person.setWheelchairUse(.yes)
            let sex = HKCharacteristicType(.biologicalSex), birth = HKCharacteristicType(.dateOfBirth), blood = HKCharacteristicType(.bloodType)
            let store = try await session.app(.steps, answering: .init(default: .allow, read: [blood.identifier: .deny]))
            #expect(try store.biologicalSex().biologicalSex == .notSet, "not asked yet")
            try await store.requestAuthorization(toShare: [], read: [sex, birth, blood])
            #expect(try store.biologicalSex().biologicalSex == .female)
            #expect(try store.dateOfBirthComponents() == DateComponents(calendar: Calendar(identifier: .gregorian), year: 1984, month: 6, day: 2))
            // Denied and never asked look exactly like not entered.
            #expect(try store.bloodType().bloodType == .notSet)
            #expect(try store.wheelchairUse().wheelchairUse == .notSet)
        }
    }

    @Test(arguments: Backend.allCases)
    func preferredUnitsAreThePersonsOnceTheAppHasAsked(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let mass = HKQuantityType(.bodyMass)
            try session.person().setPreferredUnit(.pound(), for: mass)
            let store = try await session.app(.steps, answering: .init(default: .allow, read: [mass.identifier: .deny]))
            await #expect(throws: HKError(.errorAuthorizationNotDetermined)) { _ = try await store.preferredUnits(for: [mass, heartRate]) }
            // Asking is what counts, not the answer: reading body mass was denied.
            try await store.requestAuthorization(toShare: [], read: [mass, heartRate])
            let units = try await store.preferredUnits(for: [mass, heartRate])
            #expect(units == [mass: .pound(), heartRate: bpm])
            #expect(try await store.preferredUnits(for: []) == [:])
        }
    }

    @Test(arguments: Backend.allCases)
    func aSourceQueryNamesOtherAppsOnlyForTypesTheAppMayRead(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let other = try await session.app(.other, answering: .allowAll)
            try await other.requestAuthorization(toShare: [steps, heartRate], read: [])
            try await other.save([stepSample(5, at: 0), HKQuantitySample(type: heartRate, quantity: HKQuantity(unit: bpm, doubleValue: 70), start: base, end: base)])
            let app = try await session.app(.steps, answering: .init(default: .allow, read: [heartRate.identifier: .deny]))
            try await app.requestAuthorization(toShare: [steps, heartRate], read: [steps, heartRate])
            try await app.save([stepSample(7, at: 60), HKQuantitySample(type: heartRate, quantity: HKQuantity(unit: bpm, doubleValue: 60), start: base, end: base)])
            func sources(_ type: HKSampleType, _ predicate: NSPredicate? = nil) async throws -> Set<String> {
                Set(try await HKSourceQueryDescriptor(predicate: .sample(type: type, predicate: predicate)).result(for: app).map(\.bundleIdentifier))
            }
            #expect(try await sources(steps) == ["com.example.other", "com.example.steps"])
            #expect(try await sources(heartRate) == ["com.example.steps"], "the other app's heart rate is hidden, and so is its name")
            let late = HKQuery.predicateForSamples(withStart: base.addingTimeInterval(1_800), end: nil)
            #expect(try await sources(steps, late) == ["com.example.steps"])
            // The completion-handler query takes the same path.
            let handled = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Set<HKSource>, any Error>) in
                app.execute(HKSourceQuery(sampleType: steps, samplePredicate: nil) { _, found, error in
                    if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: found ?? []) }
                })
            }
            #expect(Set(handled.map(\.name)) == ["Other", "Steps"])
        }
    }

    @Test func aRevokedAppIsRefusedOnItsVeryNextCall() async throws {
        try await AppSession.with(.remote) { session in
            let store = try await session.app(.steps, answering: .allowAll)
            try await store.requestAuthorization(toShare: [steps], read: [steps])
            try await store.save(stepSample(1, at: 0))
            let registration = try #require(try session.person().registrations().first { $0.manifest.bundleIdentifier == "com.example.steps" })
            _ = try session.person().decideRegistration(registration.id, .revoked)
            let refusal = await #expect(throws: HKError.self) { _ = try await query(store, steps) }
            #expect(refusal?.code == .errorAuthorizationDenied)
            #expect(refusal?.message.contains("revoked") == true, "\(String(describing: refusal))")
            #expect(store.authorizationStatus(for: steps) == .notDetermined)
        }
    }

    @Test func theEnvironmentPointsAnUnmodifiedStoreAtTheDaemon() async throws {
        try await AppSession.with(.remote) { session in
            let token = try await session.token(for: .steps)
            let socket = try #require(session.socketPath)
            let configuration = try HKHealthStore.Configuration.fromEnvironment(["OPENHEALTHKIT_SERVER": socket, "OPENHEALTHKIT_TOKEN": token]).get()
            #expect(configuration.server == HKHealthStore.Server(address: socket, token: token))
            try session.person().setPermission(app: "com.example.steps", type: steps, share: true, read: true)
            let store = HKHealthStore(configuration: configuration)
            try await store.save(stepSample(7, at: 0))
            #expect(try await query(store, steps).count == 1)
            var logged = false   // the daemon, not the app, notes the access (it flushes its log every 50 ms here)
            for _ in 0..<200 where !logged {
                logged = try !session.person().accessLog(app: "com.example.steps").isEmpty
                if !logged { try await Task.sleep(for: .milliseconds(25)) }
            }
            #expect(logged)

            let missing = HKHealthStore.Configuration.fromEnvironment(["OPENHEALTHKIT_SERVER": socket])
            #expect(throws: HKError.self) { try missing.get() }
            let noToken = try? missing.get()
            #expect(noToken == nil)
            let wrong = HKHealthStore.Configuration.fromEnvironment(["OPENHEALTHKIT_SERVER": "localhost:80", "OPENHEALTHKIT_TOKEN": token])
            #expect(throws: HKError(.errorHealthDataUnavailable)) { try wrong.get() }
        }
    }

    /// A person may take minutes over a sheet (the daemon waits 300 s for the answer), and the app's call waits as long.
    /// Found in a stalled test run: an app's `requestAuthorization` failed after 90 s, AsyncHTTPClient's default read
    /// timeout, although the daemon was still waiting for the person.
    @Test(.timeLimit(.minutes(4)))
    func aSheetAnsweredAfterMoreThanNinetySecondsStillCompletesTheAppsCall() async throws {
        try await DaemonHarness.with { daemon in
            let token = try await daemon.connect("com.example.steps", name: "Steps")
            let store = HKHealthStore(configuration: .init(server: .init(address: daemon.socketPath, token: token)))
            let call = Task { try await store.requestAuthorization(toShare: [steps], read: []) }
            let id = try #require(try await AuthorizationRequestTests.waiting(daemon).keys.first)
            try await Task.sleep(for: .seconds(95))
            #expect(try daemon.person().answerAuthorizationRequest(id, .decided(share: [steps.identifier], read: [])))
            try await call.value
            #expect(store.authorizationStatus(for: steps) == .sharingAuthorized)
        }
    }

    @Test func aDaemonThatIsNotThereIsDatabaseInaccessible() async throws {
        let store = HKHealthStore(configuration: .init(server: .init(address: "/tmp/ohk-none-\(UUID().uuidString.prefix(8)).sock", token: "t")))
        let refusal = await #expect(throws: HKError.self) { _ = try await query(store, steps) }
        #expect(refusal?.code == .errorDatabaseInaccessible)
        #expect(refusal?.message.contains("cannot reach the health daemon") == true, "\(String(describing: refusal))")
        #expect(store.authorizationStatus(for: steps) == .notDetermined)
    }
}
