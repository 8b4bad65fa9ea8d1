import Foundation
import Testing
@testable import OpenHealthKit

@Suite("HKQuantitySeriesSampleBuilder")
struct QuantitySeriesBuilderTests {
    let bpm = HKUnit.count().unitDivided(by: .minute())

    func authorizedStore() async throws -> HKHealthStore {
        let (store, _, _) = makeStore(.allowAll)
        try await store.requestAuthorization(toShare: [steps, heartRate], read: [steps, heartRate])
        return store
    }

    func minute(_ index: Double) -> DateInterval { DateInterval(start: now.addingTimeInterval(index * 60), duration: 60) }

    @Test func aStepSeriesIsOneSampleWhoseQuantitiesCountOneByOne() async throws {
        let store = try await authorizedStore()
        let builder = HKQuantitySeriesSampleBuilder(healthStore: store, quantityType: steps, startDate: now, device: nil)
        try builder.insert(HKQuantity(unit: .count(), doubleValue: 50), for: minute(0))
        try builder.insert(HKQuantity(unit: .count(), doubleValue: 80), for: minute(0))  // same start: replaces
        try builder.insert(HKQuantity(unit: .count(), doubleValue: 95), for: minute(1))
        try builder.insert(HKQuantity(unit: .count(), doubleValue: 20), for: minute(5))
        let made = try await builder.finishSeries(metadata: ["walk": "park"], endDate: nil)
        let sample = try #require(made.first as? HKCumulativeQuantitySample)
        #expect(made.count == 1 && sample.count == 3 && sample.sumQuantity.doubleValue(for: .count()) == 195)
        #expect(sample.startDate == now && sample.endDate == now.addingTimeInterval(360))

        let stored = try #require(try await HKSampleQueryDescriptor(predicates: [.quantitySample(type: steps)], sortDescriptors: [])
            .result(for: store).first)
        #expect(stored.uuid == sample.uuid && stored.count == 3 && stored.metadata?["walk"] as? String == "park")
        var parts: [(Double, DateInterval)] = []
        for try await part in HKQuantitySeriesSampleQueryDescriptor(predicate: .quantitySample(type: steps)).results(for: store) {
            parts.append((part.quantity.doubleValue(for: .count()), part.dateInterval))
        }
        #expect(parts.map(\.0) == [80, 95, 20] && parts.map(\.1) == [minute(0), minute(1), minute(5)])

        // Statistics count each quantity in its own minute, not the sum spread over six.
        let collection = try await HKStatisticsCollectionQueryDescriptor(
            predicate: .quantitySample(type: steps), options: .cumulativeSum, anchorDate: now, intervalComponents: DateComponents(minute: 1))
            .result(for: store)
        var perMinute: [Double] = []
        collection.enumerateStatistics(from: now, to: now.addingTimeInterval(300)) { statistics, _ in
            perMinute.append(statistics.sumQuantity()?.doubleValue(for: .count()) ?? 0)
        }
        #expect(perMinute == [80, 95, 0, 0, 0, 20])
    }

    @Test func aHeartRateSeriesKeepsItsAverageMinimumMaximumAndMostRecent() async throws {
        let store = try await authorizedStore()
        let builder = HKQuantitySeriesSampleBuilder(healthStore: store, quantityType: heartRate, startDate: now, device: nil)
        for (index, value) in [70.0, 64, 91, 75].enumerated() {
            try builder.insert(HKQuantity(unit: bpm, doubleValue: value), at: now.addingTimeInterval(Double(index) * 5))
        }
        _ = try await builder.finishSeries(metadata: nil, endDate: now.addingTimeInterval(30))
        let stored = try #require(try await HKSampleQueryDescriptor(predicates: [.quantitySample(type: heartRate)], sortDescriptors: [])
            .result(for: store).first as? HKDiscreteQuantitySample)
        #expect(stored.count == 4 && stored.averageQuantity.doubleValue(for: bpm) == 75)
        #expect(stored.minimumQuantity.doubleValue(for: bpm) == 64 && stored.maximumQuantity.doubleValue(for: bpm) == 91)
        #expect(stored.mostRecentQuantity.doubleValue(for: bpm) == 75
                && stored.mostRecentQuantityDateInterval == DateInterval(start: now.addingTimeInterval(15), duration: 0))
        #expect(stored.endDate == now.addingTimeInterval(30))
    }

    @Test func misuseIsRefusedAndNothingIsSaved() async throws {
        let store = try await authorizedStore()
        let builder = HKQuantitySeriesSampleBuilder(healthStore: store, quantityType: steps, startDate: now, device: nil)
        #expect(throws: HKError(.errorInvalidArgument)) { try builder.insert(HKQuantity(unit: .count(), doubleValue: 1), for: minute(-1)) }
        #expect(throws: HKError(.errorInvalidArgument)) { try builder.insert(HKQuantity(unit: .meter(), doubleValue: 1), for: minute(0)) }
        await #expect(throws: HKError(.errorInvalidArgument)) { _ = try await builder.finishSeries(metadata: nil) }  // nothing inserted
        try builder.insert(HKQuantity(unit: .count(), doubleValue: 10), for: minute(2))
        await #expect(throws: HKError(.errorInvalidArgument)) { _ = try await builder.finishSeries(metadata: nil, endDate: now) }
        builder.discard()
        #expect(throws: HKError(.errorInvalidArgument)) { try builder.insert(HKQuantity(unit: .count(), doubleValue: 1), for: minute(3)) }
        #expect(try await HKSampleQueryDescriptor(predicates: [.quantitySample(type: steps)], sortDescriptors: []).result(for: store).isEmpty)

        let (denied, _, _) = makeStore(.denyAll)
        try await denied.requestAuthorization(toShare: [steps], read: [])
        let refused = HKQuantitySeriesSampleBuilder(healthStore: denied, quantityType: steps, startDate: now, device: nil)
        try refused.insert(HKQuantity(unit: .count(), doubleValue: 10), for: minute(0))
        await #expect(throws: HKError(.errorAuthorizationDenied)) { _ = try await refused.finishSeries(metadata: nil) }
    }
}
