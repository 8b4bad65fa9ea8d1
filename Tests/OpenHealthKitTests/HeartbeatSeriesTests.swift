import Foundation
import Testing
@testable import HealthStore
@testable import OpenHealthKit

@Suite("Heartbeat series")
struct HeartbeatSeriesTests {
    let heartbeat = HKSeriesType.heartbeat()

    func beats(_ store: HKHealthStore, _ series: HKHeartbeatSeriesSample) async throws -> [HKHeartbeatSeriesQueryDescriptor.Heartbeat] {
        var beats: [HKHeartbeatSeriesQueryDescriptor.Heartbeat] = []
        for try await beat in HKHeartbeatSeriesQueryDescriptor(series).results(for: store) { beats.append(beat) }
        return beats
    }

    @Test func aBuiltSeriesIsSavedAndItsBeatsComeBackInOrder() async throws {
        let (store, _, _) = makeStore(.allowAll)
        try await store.requestAuthorization(toShare: [heartbeat], read: [heartbeat])
        let builder = HKHeartbeatSeriesBuilder(healthStore: store, device: nil, start: now)
        for (time, gap) in [(0.41, false), (1.22, false), (2.05, false), (4.70, true), (5.51, false)] {
            try await builder.addHeartbeat(at: time, precededByGap: gap)
        }
        try await builder.addMetadata(["context": "rest"])
        let series = try await builder.finishSeries()
        #expect(series.count == 5 && series.startDate == now && series.endDate == now.addingTimeInterval(5.51))

        let found = try await HKSampleQueryDescriptor(predicates: [.heartbeatSeries()], sortDescriptors: []).result(for: store)
        let stored = try #require(found.first)
        #expect(found.count == 1 && stored.uuid == series.uuid && stored.count == 5 && stored.metadata?["context"] as? String == "rest")
        let read = try await beats(store, stored)
        #expect(read.map(\.timeIntervalSinceStart) == [0.41, 1.22, 2.05, 4.70, 5.51])
        #expect(read.map(\.precededByGap) == [false, false, false, true, false])

        // The callback query: one call per beat, done with the last.
        let calls: [(TimeInterval, Bool, Bool)] = try await withCheckedThrowingContinuation { done in
            let collected = Collected()
            store.execute(HKHeartbeatSeriesQuery(heartbeatSeries: stored) { _, time, gap, finished, error in
                if let error { return done.resume(throwing: error) }
                collected.append((time, gap, finished))
                if finished { done.resume(returning: collected.all) }
            })
        }
        #expect(calls.map(\.0) == [0.41, 1.22, 2.05, 4.70, 5.51] && calls.map(\.2) == [false, false, false, false, true])
    }

    @Test func beatsOutOfOrderAndMisuseAreRefused() async throws {
        let (store, _, _) = makeStore(.allowAll)
        try await store.requestAuthorization(toShare: [heartbeat], read: [heartbeat])
        let builder = HKHeartbeatSeriesBuilder(healthStore: store, device: nil, start: now)
        await #expect(throws: HKError(.errorInvalidArgument)) { _ = try await builder.finishSeries() }  // no beats
        await #expect(throws: HKError(.errorInvalidArgument)) { try await builder.addHeartbeat(at: -1, precededByGap: false) }
        try await builder.addHeartbeat(at: 1, precededByGap: false)
        await #expect(throws: HKError(.errorInvalidArgument)) { try await builder.addHeartbeat(at: 1, precededByGap: false) }
        await #expect(throws: HKError(.errorInvalidArgument)) { try await builder.addHeartbeat(at: 0.5, precededByGap: false) }
        builder.discard()
        await #expect(throws: HKError(.errorInvalidArgument)) { try await builder.addHeartbeat(at: 2, precededByGap: false) }
        #expect(try await HKSampleQueryDescriptor(predicates: [.heartbeatSeries()], sortDescriptors: []).result(for: store).isEmpty)
    }

    @Test func anAppThatMayNotShareCannotSaveAndOneThatMayNotReadSeesNoBeats() async throws {
        let (writer, _, folder) = makeStore(.allowAll)
        try await writer.requestAuthorization(toShare: [heartbeat], read: [])
        let builder = HKHeartbeatSeriesBuilder(healthStore: writer, device: nil, start: now)
        try await builder.addHeartbeat(at: 0.8, precededByGap: false)
        let series = try await builder.finishSeries()

        let (stranger, _, _) = makeStore(app: AppManifest(bundleIdentifier: "com.example.watch", name: "Watch", version: "2.1",
                                                           shareUsageDescription: "Reads.", updateUsageDescription: "Writes."),
                                           .denyAll, in: folder)
        try await stranger.requestAuthorization(toShare: [heartbeat], read: [heartbeat])
        await #expect(throws: HKError(.errorNoData)) { _ = try await beats(stranger, series) }
        let refused = HKHeartbeatSeriesBuilder(healthStore: stranger, device: nil, start: now)
        try await refused.addHeartbeat(at: 0.8, precededByGap: false)
        await #expect(throws: HKError(.errorAuthorizationDenied)) { _ = try await refused.finishSeries() }
    }

    @Test func anExportsVariabilityBeatListBecomesAHeartbeatSeriesOnce() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-beats-\(UUID().uuidString)")
        let person = try HealthPerson(storeDirectory: folder)
        let first = try person.importExport(at: exportFixtures.appendingPathComponent("opendroid_hk/sampleexport.xml"))
        #expect(first.added[HKDataTypeIdentifierHeartbeatSeries] == 1)
        let (store, _, _) = makeStore(.allowAll, in: folder)
        try await store.requestAuthorization(toShare: [], read: [heartbeat, HKQuantityType(.heartRateVariabilitySDNN)])
        let series = try #require(try await HKSampleQueryDescriptor(predicates: [.heartbeatSeries()], sortDescriptors: []).result(for: store).first)
        let variability = try #require(try await HKSampleQueryDescriptor(
            predicates: [.quantitySample(type: HKQuantityType(.heartRateVariabilitySDNN))], sortDescriptors: []).result(for: store).first)
        #expect(series.startDate == variability.startDate && series.endDate == variability.endDate)
        #expect(series.sourceRevision.source == variability.sourceRevision.source && series.device == variability.device)
        // The record starts at 11:26:00 -0800; the beats were at 11:26:02.34 AM, 03.37, … local time.
        let read = try await beats(store, series)
        #expect(series.count == 10 && read.count == 10)
        #expect(read.prefix(3).map(\.timeIntervalSinceStart) == [2.34, 3.37, 4.41] && read.last?.timeIntervalSinceStart == 11.52)
        #expect(read.allSatisfy { !$0.precededByGap })

        let again = try person.importExport(at: exportFixtures.appendingPathComponent("opendroid_hk/sampleexport.xml"))
        #expect(again.added[HKDataTypeIdentifierHeartbeatSeries] == nil)
        #expect(try await HKSampleQueryDescriptor(predicates: [.heartbeatSeries()], sortDescriptors: []).result(for: store).count == 1)
    }

    @Test func offsetsFollowTheTimeOfDayInAnyWholeQuarterHourOffset() {
        // 2020-12-06 19:26:00 UTC: 11:26 in Los Angeles, 00:56 the next day in Kathmandu (+5:45), 19:26 in London.
        let start = Date(timeIntervalSince1970: 1_607_282_760).timeIntervalSinceReferenceDate
        for list in [#"<l><i bpm="60" time="11:26:02.34 AM"/><i bpm="61" time="11:26:03.30 AM"/></l>"#,
                     #"<l><i bpm="60" time="12:56:02.34 AM"/><i bpm="61" time="12:56:03.30 AM"/></l>"#,
                     #"<l><i bpm="60" time="19:26:02.34"/><i bpm="61" time="19:26:03.30"/></l>"#] {
            #expect(SampleStore.beats(fromVariabilityList: list, start: start, end: start + 65)?.map(\.offset) == [2.34, 3.3], "\(list)")
        }
        #expect(SampleStore.beats(fromVariabilityList: #"<i time="half past"/>"#, start: start, end: start + 65) == nil)
        #expect(SampleStore.beats(fromVariabilityList: #"<i time="11:27:59.00 AM"/>"#, start: start, end: start + 65) == nil)  // outside
    }
}

/// Collects a query's calls across its handler's thread.
private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [(TimeInterval, Bool, Bool)] = []
    func append(_ item: (TimeInterval, Bool, Bool)) { lock.withLock { items.append(item) } }
    var all: [(TimeInterval, Bool, Bool)] { lock.withLock { items } }
}
