import Foundation
import Testing
import OpenHealthKit

/// The README's example, verbatim apart from the store folder, so the README cannot drift from the code.
@Suite("README example")
struct ReadmeExampleTests {
    @Test func requestsAuthorizationAndSavesASample() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
        let store = HKHealthStore(configuration: .init(
            storeDirectory: folder,
            app: AppManifest(bundleIdentifier: "com.example.steps", name: "Steps",
                             shareUsageDescription: "Charts your steps.", updateUsageDescription: "Logs your walks."),
            presenter: ScriptedPresenter(.allowAll)))       // the person: here, a script that allows everything
        let steps = HKQuantityType(.stepCount)
        try await store.requestAuthorization(toShare: [steps], read: [steps])
        try await store.save(HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: 1200),
                                              start: Date().addingTimeInterval(-600), end: Date()))
        #expect(store.authorizationStatus(for: steps) == .sharingAuthorized)
    }
}
