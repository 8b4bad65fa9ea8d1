import Foundation
import OpenHealthKit
import Testing

/// HealthKit's classes are Objective-C classes: `NSObject`s, equal through `isEqual(_:)` and hashed through `hash`,
/// so Foundation's collections and Swift's `Set` agree, and the classes Apple leaves without value equality compare
/// by identity.
@Suite struct ObjectiveCClassesTests {
    @Test func valueClassesAreEqualThroughIsEqualAsFoundationAsksIt() {
        let steps: NSObject = HKQuantityType(.stepCount)
        #expect(steps.isEqual(HKQuantityType(.stepCount)))
        #expect(!steps.isEqual(HKQuantityType(.heartRate)))
        #expect(steps.hash == HKQuantityType(.stepCount).hash)
        #expect((HKUnit.gramUnit(with: .kilo) as NSObject).isEqual(HKUnit(from: "kg")))
        #expect((HKQuantity(unit: .meter(), doubleValue: 1000) as NSObject).isEqual(HKQuantity(unit: .meterUnit(with: .kilo), doubleValue: 1)))

        let sample = HKQuantitySample(type: HKQuantityType(.stepCount), quantity: HKQuantity(unit: .count(), doubleValue: 10),
                                      start: Date(timeIntervalSince1970: 0), end: Date(timeIntervalSince1970: 60))
        let array = NSArray(array: [HKQuantityType(.heartRate), sample])
        #expect(array.contains(sample))
        #expect(array.index(of: HKQuantityType(.heartRate)) == 0)
    }

    @Test func classesWithoutValueEqualityAreHashableByIdentity() throws {
        let one = HKActivitySummary(), other = HKActivitySummary()
        let summaries: Set<HKActivitySummary> = [one, one, other]
        #expect(summaries.count == 2)

        let query = HKSampleQuery(sampleType: HKQuantityType(.stepCount), predicate: nil, limit: HKObjectQueryNoLimit,
                                  sortDescriptors: nil) { _, _, _ in }
        let queries: Set<HKQuery> = [query, query]
        #expect(queries.count == 1)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("objc-classes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = HKHealthStore(configuration: .init(storeDirectory: folder,
                                                       app: AppManifest(bundleIdentifier: "com.example.objc", name: "ObjC"),
                                                       presenter: ScriptedPresenter(.denyAll)))
        let stores: Set<HKHealthStore> = [store, store]
        #expect(stores.count == 1)
        #expect((store as NSObject).isEqual(store))
    }
}

/// Spellings HealthKit code uses that come from how Swift imports Objective-C: option-set parameters default to `[]`,
/// and the descriptors' result sequences name their iterators `Iterator`.
@Suite struct ImportedSpellingTests {
    @Test func statisticsQueriesTakeNoOptionsByDefault() async throws {
        let (store, _, _) = makeStore(.allowAll)
        try await store.requestAuthorization(toShare: [steps], read: [steps])
        try await store.save(HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: 7), start: now, end: now))
        let answered: Bool = await withCheckedContinuation { done in
            store.execute(HKStatisticsQuery(quantityType: steps, quantitySamplePredicate: nil) { _, statistics, error in
                done.resume(returning: statistics != nil && error == nil && statistics?.sumQuantity() == nil)
            })
        }
        #expect(answered)  // no options asked: statistics without sums
        let collection = HKStatisticsCollectionQuery(quantityType: steps, quantitySamplePredicate: nil, anchorDate: now,
                                                     intervalComponents: DateComponents(day: 1))
        #expect(collection.options == [])
    }

    @Test func resultSequencesIterateWithTheirIterator() async throws {
        let (store, _, _) = makeStore(.allowAll)
        try await store.requestAuthorization(toShare: [steps], read: [steps])
        var iterator: HKAnchoredObjectQueryDescriptor<HKQuantitySample>.Results.Iterator =
            HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: steps)], anchor: nil).results(for: store).makeAsyncIterator()
        let first = try await iterator.next()
        #expect(first?.addedSamples.isEmpty == true)
    }
}
