import Foundation
import Synchronization
import Testing
@testable import OpenHealthKit
import TestSupport

/// Change notifications go through the same visibility rule as the queries' first answers.
@Suite("Live updates tell no more than queries")
struct LiveUpdatePrivacyTests {
    let heartRate = HKQuantityType(.heartRate)

    func beat(_ value: Double, at offset: TimeInterval) -> HKQuantitySample {
        HKQuantitySample(type: heartRate, quantity: HKQuantity(unit: HKUnit(from: "count/min"), doubleValue: value),
                         start: day0.addingTimeInterval(offset), end: day0.addingTimeInterval(offset))
    }

    /// An observer over steps (which the phone may not read: it sees only its own) and heart rate (which it may).
    func observe(_ s: TwoSources) -> (HKObserverQuery, AsyncStream<Set<String>?>, LastCompletion) {
        let (stream, continuation) = AsyncStream<Set<String>?>.makeStream()
        let completion = LastCompletion()
        let query = HKObserverQuery(queryDescriptors: [HKQueryDescriptor(sampleType: steps, predicate: nil),
                                                       HKQueryDescriptor(sampleType: heartRate, predicate: nil)]) { _, types, done, _ in
            completion.handler.withLock { $0 = done }
            continuation.yield(types.map { Set($0.map(\.identifier)) })
        }
        s.phone.execute(query)
        return (query, stream, completion)
    }

    @Test(.timeLimit(.minutes(3))) func anObserverDoesNotNameAHiddenTypeSavedWithAVisibleOne() async throws {
        let s = try await TwoSources.make(readerMayRead: false)
        let (query, stream, completion) = observe(s)
        var calls = stream.makeAsyncIterator()
        _ = await calls.next()  // the first call
        completion.handler.withLock { $0 }?()
        try await s.watch.save([stepsSample(500, from: 0, to: 60), beat(70, at: 30)])
        #expect(await calls.next() == [heartRate.identifier])
        s.phone.stop(query)
    }

    @Test(.timeLimit(.minutes(3))) func changesFromAnotherProcessNameOnlyTheTypesTheAppSawChange() async throws {
        let s = try await TwoSources.make(readerMayRead: false)
        let (query, stream, completion) = observe(s)
        var calls = stream.makeAsyncIterator()
        _ = await calls.next()
        // The same store through another path: its saves reach the phone as another process's do, by polling, as
        // "something changed" without the types.
        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-link-\(UUID().uuidString)")
        try FileManager.default.createSymbolicLink(at: elsewhere, withDestinationURL: s.folder)
        var watchApp = AppManifest.stepsApp
        watchApp.bundleIdentifier = "com.example.watch"
        watchApp.name = "Watch"
        let (watch, _, _) = makeStore(app: watchApp, .allowAll, in: elsewhere)
        for round in 0..<3 {
            completion.handler.withLock { $0 }?()
            try await watch.save(stepsSample(500, from: Double(round) * 60, to: Double(round) * 60 + 60))  // hidden
            try await watch.save(beat(70, at: Double(round) * 60))                                         // visible
            #expect(await calls.next() == [heartRate.identifier], "round \(round)")
        }
        s.phone.stop(query)
    }

    @Test(.timeLimit(.minutes(3))) func separateBySourceUpdatesDoNotFireWhenAHiddenSourceGoes() async throws {
        let s = try await TwoSources.make(readerMayRead: false)
        // The watch's sample comes first, so its source ranks before the phone's among all sources.
        let hidden = stepsSample(300, from: 0, to: 60)
        try await s.watch.save(hidden)
        try await s.phone.save(stepsSample(10, from: 0, to: 60))
        let (stream, continuation) = AsyncStream<Double?>.makeStream()
        let query = HKStatisticsCollectionQuery(quantityType: steps, quantitySamplePredicate: nil, options: [.cumulativeSum, .separateBySource],
                                                anchorDate: day0, intervalComponents: DateComponents(day: 1))
        query.initialResultsHandler = { _, collection, _ in
            continuation.yield(collection?.statistics().first?.sumQuantity()?.doubleValue(for: .count()))
        }
        query.statisticsUpdateHandler = { _, statistics, _, _ in
            continuation.yield(statistics?.sumQuantity()?.doubleValue(for: .count()))
        }
        s.phone.execute(query)
        var answers = stream.makeAsyncIterator()
        #expect(await answers.next() == 10)
        try await s.watch.delete(hidden)                            // another source, hidden: nothing to report
        try await s.phone.save(stepsSample(5, from: 60, to: 120))   // its own: reported
        #expect(await answers.next() == 15, "the first update is the phone's own save")
        s.phone.stop(query)
    }
}

/// The completion handler of an observer's last call.
final class LastCompletion: Sendable {
    let handler = Mutex<HKObserverQueryCompletionHandler?>(nil)
}
