import Foundation
import OpenHealthKit
import Testing
import TestSupport

/// Signed samples in the web Health app: each sample carrying `HKMetadataKeyDigitalSignature` is marked with what its
/// signature says against the makers the person trusts — never hidden, never refused.
@Suite("The web app: signed samples")
struct WebAppSignaturesTests {
    static let glucose = HKQuantityType(.bloodGlucose)
    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    @Test func aTypesSamplesAreMarkedWithWhatTheirSignaturesSay() async throws {
        try await WebAppHarness.with { web in
            let device = try SigningDevice(), stranger = try SigningDevice(maker: "Someone Else")
            func reading(_ value: Double, at offset: TimeInterval, signedOver signed: Double?, by signer: SigningDevice = device) throws -> HKQuantitySample {
                let when = Self.start.addingTimeInterval(offset)
                let signature = try signed.map {
                    try signer.signature(over: SignedSampleContent(type: Self.glucose.identifier, startDate: when, endDate: when, value: "\($0)", unit: "mg/dL"))
                }
                return HKQuantitySample(type: Self.glucose, quantity: HKQuantity(unit: HKUnit(from: "mg/dL"), doubleValue: value), start: when, end: when,
                                        metadata: signature.map { [HKMetadataKeyDigitalSignature: $0] })
            }
            let meter = HKHealthStore(configuration: .init(storeDirectory: web.daemon.store,
                                                           app: AppManifest(bundleIdentifier: "com.example.meter", name: "Meter",
                                                                            shareUsageDescription: "Reads readings.", updateUsageDescription: "Saves readings."),
                                                           presenter: ScriptedPresenter(.allowAll)))
            try await meter.requestAuthorization(toShare: [Self.glucose], read: [Self.glucose])
            try await meter.save([
                try reading(97, at: 0, signedOver: 97),                        // verified
                try reading(140, at: 600, signedOver: 97),                     // changed after signing
                try reading(101, at: 1_200, signedOver: 101, by: stranger),    // a maker the person does not trust
                try reading(88, at: 1_800, signedOver: nil),                   // unsigned: no mark
            ])
            try web.daemon.person().trustSigner(device.maker)
            var day = Calendar(identifier: .gregorian)
            day.timeZone = try web.daemon.person().timeZone()
            let parts = day.dateComponents([.year, .month, .day], from: Self.start)
            let date = String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
            let page = try await web.browser.get("/types/\(Self.glucose.identifier)?span=week&date=\(date)")
            #expect(page.status == 200)
            let rows = page.rows.filter { $0.count >= 2 }
            func row(_ value: String) -> String? { rows.first { $0[1].hasPrefix(value) }?[1] }
            #expect(row("97 mg/dL")?.contains("✓ signed by") == true, "\(rows)")
            #expect(row("140 mg/dL")?.contains("⚠ changed since it was signed") == true, "\(rows)")
            #expect(row("101 mg/dL")?.contains("signed by a maker you do not trust") == true, "\(rows)")
            #expect(row("88 mg/dL") == "88 mg/dL", "\(rows)")
        }
    }
}
