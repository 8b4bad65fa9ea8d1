import Foundation
@testable import OpenHealthKit
import Testing
import TestSupport

/// `health trust` and `health signatures`: the person trusts a device maker and sees which readings its devices signed.
@Suite("health CLI: signed samples")
struct SignatureCommandsTests {
    @Test func thePersonTrustsADeviceMakerAndSeesWhichReadingsVerify() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-signatures-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let storePath = folder.appendingPathComponent("store")
        let device = try SigningDevice()
        let glucose = HKQuantityType(.bloodGlucose), unit = HKUnit(from: "mg/dL")
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        let app = AppManifest(bundleIdentifier: "com.example.glucose", name: "Glucose", version: "1.0",
                              shareUsageDescription: "Shows your readings.", updateUsageDescription: "Saves your meter's readings.")
        let store = HKHealthStore(configuration: .init(storeDirectory: storePath, app: app, presenter: ScriptedPresenter(.allowAll)))
        try await store.requestAuthorization(toShare: [glucose], read: [glucose])
        let signed = try device.signature(over: SignedSampleContent(type: glucose.identifier, startDate: start, endDate: start, value: "97.0", unit: "mg/dL"))
        try await store.save([
            HKQuantitySample(type: glucose, quantity: HKQuantity(unit: unit, doubleValue: 97), start: start, end: start,
                             metadata: [HKMetadataKeyDigitalSignature: signed]),
            HKQuantitySample(type: glucose, quantity: HKQuantity(unit: unit, doubleValue: 180), start: start.addingTimeInterval(3_600),
                             end: start.addingTimeInterval(3_600), metadata: [HKMetadataKeyDigitalSignature: signed]),
            HKQuantitySample(type: glucose, quantity: HKQuantity(unit: unit, doubleValue: 101), start: start.addingTimeInterval(7_200),
                             end: start.addingTimeInterval(7_200)),
        ])
        let pem = folder.appendingPathComponent("wombat.pem")
        try device.maker.pemEncoded.write(to: pem, atomically: true, encoding: .utf8)

        let before = try await runHealth(["signatures", "--store", storePath.path], in: folder)
        #expect(before.status == 0, "\(before.stderr)")
        #expect(before.stdout.hasSuffix("2 signed samples: 2 untrusted signer.\n"), "\(before.stdout)")

        let added = try await runHealth(["trust", "add", pem.path, "--store", storePath.path], in: folder)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout == "Trusted: \(device.maker.subject) (\(device.maker.fingerprint.prefix(16)))\n", "\(added.stdout)")
        let listed = try await runHealth(["trust", "--store", storePath.path], in: folder)
        #expect(listed.stdout.contains("  \(device.maker.fingerprint.prefix(16))  \(device.maker.subject)  valid until 2039-"), "\(listed.stdout)")

        let after = try await runHealth(["signatures", "--store", storePath.path, "--type", "bloodGlucose"], in: folder)
        #expect(after.status == 0, "\(after.stderr)")
        let lines = after.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(after.stdout)")
        #expect(lines.first?.contains("verified: signed by") == true, "\(after.stdout)")
        #expect(lines.dropFirst().first?.contains("values differ: signed by") == true, "\(after.stdout)")
        #expect(lines.last == "2 signed samples: 1 verified, 1 values differ.", "\(after.stdout)")

        try "not a certificate".write(to: pem, atomically: true, encoding: .utf8)
        let bad = try await runHealth(["trust", "add", pem.path, "--store", storePath.path], in: folder)
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("holds no PEM certificate"), "\(bad.stderr)")
        let removed = try await runHealth(["trust", "remove", String(device.maker.fingerprint.prefix(10)), "--store", storePath.path], in: folder)
        #expect(removed.stdout.hasPrefix("No longer trusted: "), "\(removed.stdout) \(removed.stderr)")
    }
}
