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
