import Foundation
import Synchronization
import Testing
@testable import OpenHealthKit
import TestSupport

func sources(_ store: HKHealthStore, _ type: HKSampleType = steps, predicate: NSPredicate? = nil) async throws -> Set<HKSource> {
    try await withCheckedThrowingContinuation { continuation in
        store.execute(HKSourceQuery(sampleType: type, samplePredicate: predicate) { _, sources, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: sources ?? []) }
        })
    }
}

func correlations(_ store: HKHealthStore, predicate: NSPredicate? = nil,
                  members: [HKSampleType: NSPredicate]?) async throws -> [HKCorrelation] {
    try await withCheckedThrowingContinuation { continuation in
        store.execute(HKCorrelationQuery(type: HKCorrelationType(.bloodPressure), predicate: predicate, samplePredicates: members) { _, found, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: found ?? []) }
        })
    }
}

let systolicType = HKQuantityType(.bloodPressureSystolic)
let diastolicType = HKQuantityType(.bloodPressureDiastolic)

func bloodPressure(_ high: Double, _ low: Double, at minute: Double) -> HKCorrelation {
    let when = day0.addingTimeInterval(minute * 60)
    let mmHg = HKUnit.millimeterOfMercury()
    return HKCorrelation(type: HKCorrelationType(.bloodPressure), start: when, end: when, objects: [
        HKQuantitySample(type: systolicType, quantity: HKQuantity(unit: mmHg, doubleValue: high), start: when, end: when),
        HKQuantitySample(type: diastolicType, quantity: HKQuantity(unit: mmHg, doubleValue: low), start: when, end: when),
    ])
}

/// Collects an observer's calls; `complete()` calls the completion handler of the latest one.
final class ObserverLog: Sendable {
    private let state = Mutex<(calls: Int, completion: HKObserverQueryCompletionHandler?)>((0, nil))
    let stream: AsyncStream<Int>
    private let continuation: AsyncStream<Int>.Continuation

    init() { (stream, continuation) = AsyncStream.makeStream() }

    var calls: Int { state.withLock { $0.calls } }

    var handler: HKObserverQuery.UpdateHandler {
        { [self] _, completion, _ in
            let n = state.withLock { state in
                state.calls += 1
                state.completion = completion
                return state.calls
            }
            continuation.yield(n)
        }
    }

    func complete() { state.withLock { $0.completion }?() }
}

@Suite("Source, correlation and observer queries; descriptors")
struct QueryKindsTests {
    @Test func sourceQueryListsTheSourcesOfMatchingSamplesAndOnlyItselfWithoutRead() async throws {
        let s = try await TwoSources.make(readerMayRead: false)
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

    @Test func correlationQueryMatchesOnMemberPredicates() async throws {
        let (store, _, _) = makeStore(.allowAll)
        try await store.requestAuthorization(toShare: [systolicType, diastolicType], read: [systolicType, diastolicType])
        try await store.save([bloodPressure(150, 95, at: 0), bloodPressure(118, 76, at: 10)])
        let high = HKQuery.predicateForQuantitySamples(with: .greaterThanOrEqualTo, quantity: HKQuantity(unit: .millimeterOfMercury(), doubleValue: 140))
        let found = try await correlations(store, members: [systolicType: high])
        #expect(found.count == 1)
        #expect(found.first?.objects(for: systolicType).first.map { ($0 as! HKQuantitySample).quantity.doubleValue(for: .millimeterOfMercury()) } == 150)
        #expect(try await correlations(store, members: nil).count == 2)
        await #expect(throws: HKError(.errorInvalidArgument)) { _ = try await correlations(store, members: [steps: high]) }
    }

    @Test func anotherSourcesCorrelationNeedsReadOnEveryMemberType() async throws {
        var other = AppManifest.stepsApp
        other.bundleIdentifier = "com.example.cuff"
        let (cuff, _, folder) = makeStore(app: other, .allowAll)
        try await cuff.requestAuthorization(toShare: [systolicType, diastolicType], read: [])
        try await cuff.save(bloodPressure(150, 95, at: 0))
        let (reader, _, _) = makeStore(.init(default: .allow, read: [diastolicType.identifier: .deny]), in: folder)
        try await reader.requestAuthorization(toShare: [], read: [systolicType, diastolicType])
        #expect(try await correlations(reader, members: nil).isEmpty, "diastolic may not be read, so the reading stays hidden")
        let (full, _, _) = makeStore(app: { var a = AppManifest.stepsApp; a.bundleIdentifier = "com.example.full"; return a }(), .allowAll, in: folder)
        try await full.requestAuthorization(toShare: [], read: [systolicType, diastolicType])
        #expect(try await correlations(full, members: nil).count == 1)
    }

    @Test(.timeLimit(.minutes(1))) func observerFiresOnStartAndAfterVisibleChangesOnly() async throws {
        let s = try await TwoSources.make(readerMayRead: false)
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

    @Test(.timeLimit(.minutes(1))) func observerWaitsForTheCompletionHandlerAndCoalesces() async throws {
        let (store, _) = try await authorizedStepsStore()
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

    @Test(.timeLimit(.minutes(1))) func hourlyBackgroundDeliveryHoldsUpdatesWithinTheHour() async throws {
        let (store, _) = try await authorizedStepsStore()
        try await store.enableBackgroundDelivery(for: steps, frequency: .hourly)
        let log = ObserverLog()
        let query = HKObserverQuery(sampleType: steps, predicate: nil, updateHandler: log.handler)
        store.execute(query)
        var calls = log.stream.makeAsyncIterator()
        #expect(await calls.next() == 1)
        log.complete()
        try await store.save(stepsSample(1, from: 0, to: 60))
        #expect(await calls.next() == 2, "the first change is delivered")
        log.complete()
        try await store.save(stepsSample(2, from: 0, to: 60))
        try await Task.sleep(for: .milliseconds(300))
        #expect(log.calls == 2, "the next waits for the hour to pass")
        store.stop(query)
        try await store.disableAllBackgroundDelivery()
        #expect(try await store.deliveryPeriod(for: steps.identifier) == nil)
    }

    @Test func backgroundDeliveryIsKeptInTheStore() async throws {
        let (store, folder) = try await authorizedStepsStore()
        try await store.enableBackgroundDelivery(for: steps, frequency: .daily)
        let (reopened, _) = try await authorizedStepsStore(in: folder)
        #expect(try await reopened.deliveryPeriod(for: steps.identifier) == .seconds(86_400))
        try await reopened.disableBackgroundDelivery(for: steps)
        #expect(try await store.deliveryPeriod(for: steps.identifier) == nil)
        await #expect(throws: HKError(.errorInvalidArgument)) {
            try await store.enableBackgroundDelivery(for: HKCharacteristicType(.bloodType), frequency: .immediate)
        }
    }

    @Test(.timeLimit(.minutes(1))) func anchoredDescriptorGivesAResultAndASequenceOfChanges() async throws {
        let (store, _) = try await authorizedStepsStore()
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

    @Test func anchoredQueryOverSeveralTypesWithQueryDescriptors() async throws {
        let (store, _) = try await authorizedStepsStore()
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

    @Test(.timeLimit(.minutes(1))) func statisticsDescriptorsAnswerLikeTheirQueries() async throws {
        let (store, _) = try await authorizedStepsStore()
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
