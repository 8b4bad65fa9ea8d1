import Foundation
import OpenHealthKit
import Testing
import TestSupport

private let steps = HKQuantityType(.stepCount)
private let heartRate = HKQuantityType(.heartRate)

/// Source, correlation and observer queries and the query descriptors, as apps run them, on both backends (background
/// delivery's frequencies are in `BackgroundDeliveryTests`).
@Suite("Source, correlation and observer queries; descriptors, embedded and through the daemon")
struct QueryKindsTests {
    @Test(arguments: Backend.allCases)
    func sourceQueryListsTheSourcesOfMatchingSamplesAndOnlyItselfWithoutRead(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let s = try await TwoSources.make(session, phoneMayRead: false)
            try await s.phone.save(stepsSample(1, from: 0, to: 60))
            try await s.watch.save(stepsSample(2, from: 0, to: 60))
            #expect(Set(try await sources(s.watch).map(\.bundleIdentifier)) == ["com.example.phone", "com.example.watch"])
            #expect(try await sources(s.phone).map(\.bundleIdentifier) == ["com.example.phone"])
            #expect(try await sources(s.watch, heartRate).isEmpty)
            let later = HKQuery.predicateForSamples(withStart: day0.addingTimeInterval(3600), end: nil)
            #expect(try await sources(s.watch, predicate: later).isEmpty)
            let descriptor = HKSourceQueryDescriptor(predicate: .quantitySample(type: steps))
            #expect(Set(try await descriptor.result(for: s.watch).map(\.name)) == ["Phone", "Watch"])
        }
    }

    @Test(arguments: Backend.allCases)
    func correlationQueryMatchesOnMemberPredicates(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .allowAll)
            try await store.requestAuthorization(toShare: [systolicType, diastolicType], read: [systolicType, diastolicType])
            try await store.save([bloodPressure(150, 95, at: 0), bloodPressure(118, 76, at: 10)])
            let high = HKQuery.predicateForQuantitySamples(with: .greaterThanOrEqualTo, quantity: HKQuantity(unit: .millimeterOfMercury(), doubleValue: 140))
            let found = try await correlations(store, members: [systolicType: high])
            #expect(found.count == 1)
            #expect(found.first?.objects(for: systolicType).first.map { ($0 as! HKQuantitySample).quantity.doubleValue(for: .millimeterOfMercury()) } == 150)
            #expect(try await correlations(store, members: nil).count == 2)
            await #expect(throws: HKError(.errorInvalidArgument)) { _ = try await correlations(store, members: [steps: high]) }
        }
    }

    @Test(arguments: Backend.allCases)
    func anotherSourcesCorrelationNeedsReadOnEveryMemberType(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            func app(_ bundleIdentifier: String) -> AppManifest {
                AppManifest(bundleIdentifier: bundleIdentifier, name: bundleIdentifier, version: "1.0", shareUsageDescription: "Shows your data.",
                            updateUsageDescription: "Logs your data.")
            }
            let cuff = try await session.app(app("com.example.cuff"), answering: .allowAll)
            try await cuff.requestAuthorization(toShare: [systolicType, diastolicType], read: [])
            try await cuff.save(bloodPressure(150, 95, at: 0))
            let reader = try await session.app(.steps, answering: .init(default: .allow, read: [diastolicType.identifier: .deny]))
            try await reader.requestAuthorization(toShare: [], read: [systolicType, diastolicType])
            #expect(try await correlations(reader, members: nil).isEmpty, "diastolic may not be read, so the reading stays hidden")
            let full = try await session.app(app("com.example.full"), answering: .allowAll)
            try await full.requestAuthorization(toShare: [], read: [systolicType, diastolicType])
            #expect(try await correlations(full, members: nil).count == 1)
        }
    }

    @Test(.timeLimit(.minutes(3)), arguments: Backend.allCases)
    func observerFiresOnStartAndAfterVisibleChangesOnly(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let s = try await TwoSources.make(session, phoneMayRead: false)
            let log = ObserverLog()
            let query = HKObserverQuery(sampleType: steps, predicate: nil, updateHandler: log.handler)
            s.phone.execute(query)
            var calls = log.stream.makeAsyncIterator()
            #expect(await calls.next() == 1, "fires once when it starts")
            log.complete()
            try await s.watch.save(stepsSample(5, from: 0, to: 60))     // another source, may not be read: silent
            try await s.phone.save(stepsSample(1, from: 0, to: 60))     // its own: fires
            #expect(await calls.next() == 2)
            log.complete()
            let own = stepsSample(2, from: 0, to: 60)
            try await s.phone.save(own)
            #expect(await calls.next() == 3)
            log.complete()
            try await s.phone.delete(own)
            #expect(await calls.next() == 4, "deletes fire too")
            s.phone.stop(query)
        }
    }

    @Test(.timeLimit(.minutes(3)), arguments: Backend.allCases)
    func observerWaitsForTheCompletionHandlerAndCoalesces(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.authorizedStepsStore()
            let log = ObserverLog()
            let query = HKObserverQuery(sampleType: steps, predicate: nil, updateHandler: log.handler)
            store.execute(query)
            var calls = log.stream.makeAsyncIterator()
            #expect(await calls.next() == 1)
            try await store.save(stepsSample(1, from: 0, to: 60))
            try await store.save(stepsSample(2, from: 0, to: 60))
            try await Task.sleep(for: .milliseconds(200))
            #expect(log.calls == 1, "nothing until the first update is completed")
            log.complete()
            #expect(await calls.next() == 2, "both saves arrive as one update")
            try await Task.sleep(for: .milliseconds(200))
            #expect(log.calls == 2)
            store.stop(query)
        }
    }

    @Test(.timeLimit(.minutes(3)), arguments: Backend.allCases)
    func anchoredDescriptorGivesAResultAndASequenceOfChanges(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.authorizedStepsStore()
            try await store.save(stepsSample(1, from: 0, to: 60))
            let descriptor = HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: steps)], anchor: nil)
            let first = try await descriptor.result(for: store)
            #expect(first.addedSamples.count == 1)
            var changes = descriptor.results(for: store).makeAsyncIterator()
            #expect(try await changes.next()?.addedSamples.count == 1)
            let two = stepsSample(2, from: 0, to: 60)
            try await store.save(two)
            let next = try await changes.next()
            #expect(next?.addedSamples.map(\.uuid) == [two.uuid])
            let resumed = HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: steps)], anchor: next?.newAnchor)
            #expect(try await resumed.result(for: store).addedSamples.isEmpty)
        }
    }

    @Test(arguments: Backend.allCases)
    func anchoredQueryOverSeveralTypesWithQueryDescriptors(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.authorizedStepsStore()
            let bpm = HKUnit.count().unitDivided(by: .minute())
            try await store.save([stepsSample(1, from: 0, to: 60),
                                  HKQuantitySample(type: heartRate, quantity: HKQuantity(unit: bpm, doubleValue: 60), start: day0, end: day0)])
            let answer: [HKSample] = try await withCheckedThrowingContinuation { continuation in
                store.execute(HKAnchoredObjectQuery(queryDescriptors: [HKQueryDescriptor(sampleType: steps, predicate: nil),
                                                                       HKQueryDescriptor(sampleType: heartRate, predicate: nil)],
                                                    anchor: nil, limit: HKObjectQueryNoLimit) { _, samples, _, _, error in
                    if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: samples ?? []) }
                })
            }
            #expect(Set(answer.map(\.sampleType.identifier)) == [steps.identifier, heartRate.identifier])
        }
    }

    @Test(.timeLimit(.minutes(3)), arguments: Backend.allCases)
    func statisticsDescriptorsAnswerLikeTheirQueries(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.authorizedStepsStore()
            try await store.save(stepsSample(100, from: 0, to: 3600))
            let total = HKStatisticsQueryDescriptor(predicate: .quantitySample(type: steps), options: .cumulativeSum)
            #expect(value(try await total.result(for: store)?.sumQuantity()) == 100)
            var daily = HKStatisticsCollectionQueryDescriptor(predicate: .quantitySample(type: steps), options: .cumulativeSum,
                                                              anchorDate: day0, intervalComponents: DateComponents(day: 1))
            daily.calendar = utc
            #expect(try await daily.result(for: store).statistics().map { value($0.sumQuantity()) } == [100])
            var updates = daily.results(for: store).makeAsyncIterator()
            #expect(try await updates.next()?.updatedStatistics == nil)
            try await store.save(stepsSample(50, from: 86_400, to: 86_460))
            let update = try await updates.next()
            #expect(update?.updatedStatistics?.map { value($0.sumQuantity()) } == [50])
            #expect(update?.statisticsCollection.statistics().count == 2)
        }
    }
}
