import Foundation
import Testing
@testable import OpenHealthKit

/// An app is only itself: it cannot register as Apple's apps, the person's devices, the sources imports create, or
/// another app.
@Suite("Impersonation")
struct ImpersonationTests {
    func store(_ bundleIdentifier: String, name: String = "Impostor", in folder: URL) -> HKHealthStore {
        HKHealthStore(configuration: .init(storeDirectory: folder,
                                           app: AppManifest(bundleIdentifier: bundleIdentifier, name: name, shareUsageDescription: "Reads.",
                                                            updateUsageDescription: "Writes."),
                                           presenter: ScriptedPresenter(.denyAll)))
    }

    @Test(arguments: ["com.apple.Health", "com.apple.health.6F1B5E2A-0C3D-4F7A-9E21-3B8D5C4A1F00", "COM.APPLE.HEALTH",
                      "export.Withings", "healthrecords.city-hospital"])
    func reservedIdentitiesCannotBeClaimed(identifier: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-impostor-\(UUID().uuidString)")
        let person = try HealthPerson(storeDirectory: folder)
        _ = try person.generate(SyntheticPerson(days: 1, seed: 3))
        let impostor = store(identifier, in: folder)
        await #expect(throws: HKError(.errorAuthorizationDenied)) { try await impostor.requestAuthorization(toShare: [steps], read: []) }
        // Nothing of that source reads as the impostor's own.
        let own = try? await HKSampleQueryDescriptor(predicates: [.quantitySample(type: steps)], sortDescriptors: []).result(for: impostor)
        #expect(own == nil || own?.isEmpty == true)
    }

    @Test func anotherAppCannotTakeARegisteredBundleIdentifierButTheAppMayUpdate() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-impostor-\(UUID().uuidString)")
        let original = store("com.example.steps", name: "Steps", in: folder)
        try await original.requestAuthorization(toShare: [], read: [])
        let impostor = store("com.example.steps", name: "Free Steps", in: folder)
        do {
            try await impostor.requestAuthorization(toShare: [steps], read: [])
            Issue.record("a second app took com.example.steps")
        } catch let error as HKError {
            #expect(error.code == .errorAuthorizationDenied && error.message.contains("\"Steps\""))
        }
        let update = store("com.example.steps", name: "Steps", in: folder)  // the same app, a later version
        try await update.requestAuthorization(toShare: [], read: [])
    }
}
