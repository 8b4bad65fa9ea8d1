import Foundation
import Synchronization
import Testing
@testable import OpenHealthKit
import TestSupport

/// One call of a series query's handler.
private struct SeriesCall: Sendable {
    let value: Double?
    let interval: DateInterval?
    let sample: UUID?
    let done: Bool
}

private func seriesCalls(_ store: HKHealthStore, predicate: NSPredicate? = nil, includeSample: Bool = false) async throws -> [SeriesCall] {
    let calls = Mutex<[SeriesCall]>([])
    return try await withCheckedThrowingContinuation { continuation in
        let query = HKQuantitySeriesSampleQuery(quantityType: steps, predicate: predicate) { _, quantity, interval, sample, done, error in
            if let error { return continuation.resume(throwing: error) }
            let all = calls.withLock { calls in
                calls.append(SeriesCall(value: quantity?.doubleValue(for: .count()), interval: interval, sample: sample?.uuid, done: done))
                return calls
            }
            if done { continuation.resume(returning: all) }
        }
        query.includeSample = includeSample
        store.execute(query)
    }
}

@Suite("Quantity series queries")
struct QuantitySeriesQueryTests {
    @Test func eachSampleYieldsItsQuantityAndIntervalInStartOrderTheLastOneDone() async throws {
        let s = try await TwoSources.make()
        let late = stepsSample(30, from: 600, to: 660), early = stepsSample(10, from: 0, to: 60)
        try await s.phone.save([late, early])
        let calls = try await seriesCalls(s.phone)
        #expect(calls.map(\.value) == [10, 30])
        #expect(calls.map(\.interval) == [DateInterval(start: day0, duration: 60), DateInterval(start: day0.addingTimeInterval(600), duration: 60)])
        #expect(calls.map(\.done) == [false, true])
        #expect(calls.allSatisfy { $0.sample == nil }, "no sample unless includeSample is set")
        #expect(try await seriesCalls(s.phone, includeSample: true).map(\.sample) == [early.uuid, late.uuid])
    }

    @Test func nothingMatchingIsOneCallWithNothingAndDone() async throws {
        let s = try await TwoSources.make()
        let calls = try await seriesCalls(s.phone)
        #expect(calls.count == 1 && calls[0].value == nil && calls[0].interval == nil && calls[0].done)
    }

    @Test func withoutReadPermissionOnlyTheAppsOwnQuantitiesCome() async throws {
        let s = try await TwoSources.make(readerMayRead: false)
        try await s.watch.save(stepsSample(99, from: 0, to: 60))
        try await s.phone.save(stepsSample(5, from: 120, to: 180))
        #expect(try await seriesCalls(s.phone).map(\.value) == [5])
        #expect(try await seriesCalls(s.watch).map(\.value) == [99, 5])
    }

    @Test func theDescriptorYieldsEachQuantityAndEnds() async throws {
        let s = try await TwoSources.make()
        let first = stepsSample(7, from: 0, to: 60)
        try await s.watch.save([first, stepsSample(8, from: 60, to: 120), stepsSample(9, from: 86_400, to: 86_460)])
        let today = HKQuery.predicateForSamples(withStart: day0, end: day0.addingTimeInterval(86_400))
        let descriptor = HKQuantitySeriesSampleQueryDescriptor(predicate: .quantitySample(type: steps, predicate: today), options: .includeSample)
        var results: [HKQuantitySeriesSampleQueryDescriptor.Result] = []
        for try await result in descriptor.results(for: s.watch) { results.append(result) }
        #expect(results.map { $0.quantity.doubleValue(for: .count()) } == [7, 8])
        #expect(results.first?.sample?.uuid == first.uuid && results.first?.dateInterval.duration == 60)
    }

    @Test @available(*, deprecated) func theOldSampleFormGivesThatSamplesQuantityWithItsStartDate() async throws {
        let s = try await TwoSources.make()
        let sample = stepsSample(12, from: 300, to: 360)
        try await s.watch.save([sample, stepsSample(1, from: 0, to: 60)])
        let answer: (Double?, Date?, Bool) = await withCheckedContinuation { continuation in
            s.watch.execute(HKQuantitySeriesSampleQuery(sample: sample) { _, quantity, date, done, _ in
                continuation.resume(returning: (quantity?.doubleValue(for: .count()), date, done))
            })
        }
        #expect(answer.0 == 12 && answer.1 == day0.addingTimeInterval(300) && answer.2)
    }

    @Test func anImportedSeriesSampleYieldsItsTotalOnceOverItsInterval() async throws {
        let s = try await TwoSources.make()
        let person = try HealthPerson(storeDirectory: s.folder)
        let series = HKQuantitySample.make(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: 240), start: day0,
                                           end: day0.addingTimeInterval(240), count: 4, metadata: nil, device: nil)
        try person.sampleStore.importSamples([series])
        let calls = try await seriesCalls(s.watch)
        #expect(calls.map(\.value) == [240] && calls[0].interval?.duration == 240 && calls[0].done)
    }
}
