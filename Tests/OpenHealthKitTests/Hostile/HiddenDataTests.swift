import Foundation
import Testing
@testable import OpenHealthKit

/// What the store holds but once failed to show.
@Suite("The store shows what it holds")
struct HiddenDataTests {
    @Test func anImportedRouteIsFoundByADateRangeStartingInsideIt() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-route-range-\(UUID().uuidString)")
        _ = try HealthPerson(storeDirectory: folder).importExport(at: exportFixtures.appendingPathComponent("dogsheep_healthkit-to-sqlite/export.xml"))
        let (store, _, _) = makeStore(.allowAll, in: folder)
        try await store.requestAuthorization(toShare: [], read: [HKSeriesType.workoutRoute()])
        // The route runs 14:25:44–14:30:51 UTC; the range starts 100 s into it.
        let routeStart = Date(timeIntervalSince1970: 1_479_133_544)
        let inside = HKQuery.predicateForSamples(withStart: routeStart.addingTimeInterval(100), end: routeStart.addingTimeInterval(3600))
        let found = try await HKSampleQueryDescriptor(predicates: [.workoutRoute(inside)], sortDescriptors: []).result(for: store)
        #expect(found.count == 1 && found.first?.startDate == routeStart)
    }
}

/// A deleted correlation reaches the apps that may read what it held, and only those.
@Suite("Deleted correlations")
struct DeletedCorrelationTests {
    @Test func aDeletedMealIsReportedToItsReadersAndToNobodyElse() async throws {
        let energy = HKQuantityType(.dietaryEnergyConsumed), food = HKCorrelationType(.food)
        let (owner, _, folder) = makeStore(.allowAll)
        try await owner.requestAuthorization(toShare: [energy], read: [energy])
        let meal = HKCorrelation(type: food, start: now, end: now, objects: [
            HKQuantitySample(type: energy, quantity: HKQuantity(unit: .kilocalorie(), doubleValue: 105), start: now, end: now),
        ])
        try await owner.save(meal)
        let reader = AppManifest(bundleIdentifier: "com.example.reader", name: "Reader", shareUsageDescription: "Reads.")
        let blind = AppManifest(bundleIdentifier: "com.example.blind", name: "Blind", shareUsageDescription: "Reads.")
        let (allowed, _, _) = makeStore(app: reader, .allowAll, in: folder)
        let (denied, _, _) = makeStore(app: blind, .denyAll, in: folder)
        try await allowed.requestAuthorization(toShare: [], read: [energy])
        try await denied.requestAuthorization(toShare: [], read: [energy])
        func deletions(_ store: HKHealthStore) async throws -> [UUID] {
            try await HKAnchoredObjectQueryDescriptor(predicates: [.correlation(type: food)], anchor: nil).result(for: store).deletedObjects.map(\.uuid)
        }
        try await owner.delete(meal)
        #expect(try await deletions(allowed) == [meal.uuid])
        #expect(try await deletions(denied).isEmpty)
        #expect(try await deletions(owner) == [meal.uuid])
    }
}
