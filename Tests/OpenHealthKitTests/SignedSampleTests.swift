import Foundation
import Testing
@testable import HealthStore
@testable import OpenHealthKit
import TestSupport

/// Signed samples (`HKMetadataKeyDigitalSignature`): CMS signatures from a device, verified against the certificates
/// the person trusts, and never a reason to refuse a sample.
@Suite("Signed samples")
struct SignedSampleTests {
    static let glucose = HKQuantityType(.bloodGlucose)
    static let mgPerDL = HKUnit(from: "mg/dL")
    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    static func reading(_ value: Double, signature: String?) -> HKQuantitySample {
        HKQuantitySample(type: glucose, quantity: HKQuantity(unit: mgPerDL, doubleValue: value), start: start, end: start,
                         metadata: signature.map { [HKMetadataKeyDigitalSignature: $0] })
    }

    static func content(_ value: Double) -> SignedSampleContent {
        SignedSampleContent(type: glucose.identifier, startDate: start, endDate: start, value: "\(value)", unit: "mg/dL")
    }

    /// Saves `samples` as an app would, and returns the person's side of the store.
    static func store(_ samples: [HKSample]) async throws -> (HealthPerson, URL) {
        let (store, _, folder) = makeStore(.allowAll)
        try await store.requestAuthorization(toShare: [glucose], read: [glucose])
        try await store.save(samples)
        return (try HealthPerson(storeDirectory: folder), folder)
    }

    @Test func aReadingSignedByATrustedDeviceOverItsValuesIsVerified() async throws {
        let device = try SigningDevice()
        let (person, folder) = try await Self.store([Self.reading(97, signature: try device.signature(over: Self.content(97)))])
        defer { try? FileManager.default.removeItem(at: folder) }
        try person.trustSigner(device.maker)
        let checked = try await person.signedSamples(of: Self.glucose)
        #expect(checked.map(\.verification.status) == [.verified])
        #expect(checked.first?.verification.signer?.contains("Glucometer GX-7 serial 0042") == true)
    }

    @Test func aReadingChangedAfterItWasSignedIsMarkedNotRefused() async throws {
        let device = try SigningDevice()
        let (person, folder) = try await Self.store([Self.reading(140, signature: try device.signature(over: Self.content(97)))])
        defer { try? FileManager.default.removeItem(at: folder) }
        try person.trustSigner(device.maker)
        let checked = try await person.signedSamples(of: Self.glucose)
        #expect(checked.map(\.verification.status) == [.valuesDiffer])
        #expect(checked.first?.verification.reason.contains("other values (97.0 mg/dL)") == true, "\(checked)")
    }

    @Test func aSignerThePersonDoesNotTrustIsUntrustedAndTrustingItsMakerVerifiesIt() async throws {
        let device = try SigningDevice(), stranger = try SigningDevice(maker: "Someone Else")
        let (person, folder) = try await Self.store([Self.reading(97, signature: try device.signature(over: Self.content(97)))])
        defer { try? FileManager.default.removeItem(at: folder) }
        try person.trustSigner(stranger.maker)
        #expect(try await person.signedSamples(of: Self.glucose).map(\.verification.status) == [.untrustedSigner])
        try person.trustSigner(device.maker)
        #expect(try await person.signedSamples(of: Self.glucose).map(\.verification.status) == [.verified])
        try person.removeTrustedSigner(fingerprint: String(device.maker.fingerprint.prefix(8)))
        #expect(try await person.signedSamples(of: Self.glucose).map(\.verification.status) == [.untrustedSigner])
    }

    @Test func aCertificateNotValidWhenTheReadingWasTakenDoesNotVerifyIt() async throws {
        let late = try SigningDevice(validFrom: Self.start.addingTimeInterval(86_400))
        let reading = Self.reading(97, signature: try late.signature(over: Self.content(97)))
        let verification = await reading.verifyDigitalSignature(trusting: [late.maker])
        #expect(verification.status == .untrustedSigner)
    }

    @Test func garbageIsInvalidAndStillSaved() async throws {
        let (person, folder) = try await Self.store([
            Self.reading(1, signature: "not base64 at all!"),
            Self.reading(2, signature: Data((0..<300).map { UInt8($0 % 256) }).base64EncodedString()),
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let checked = try await person.signedSamples(of: Self.glucose)
        #expect(checked.map(\.verification.status) == [.invalid, .invalid])
        #expect(checked.map { ($0.sample as! HKQuantitySample).quantity.doubleValue(for: Self.mgPerDL) }.sorted() == [1, 2])
    }

    @Test func contentInAnotherLayoutSaysWhoSignedButCannotBeCompared() async throws {
        let device = try SigningDevice()
        let reading = Self.reading(97, signature: try device.signature(overBytes: Array("glucose=97;unit=mg/dL".utf8)))
        let verification = await reading.verifyDigitalSignature(trusting: [device.maker])
        #expect(verification.status == .contentNotUnderstood)
        #expect(verification.signer?.contains("Glucometer") == true)
    }

    @Test func anUnsignedSampleIsUnsigned() async throws {
        #expect(await Self.reading(97, signature: nil).verifyDigitalSignature(trusting: []).status == .unsigned)
    }

    @Test func theSignedContentRoundTripsThroughDER() throws {
        let content = SignedSampleContent(type: Self.glucose.identifier, startDate: Date(timeIntervalSince1970: 1_790_000_000.25),
                                          endDate: Date(timeIntervalSince1970: 1_790_000_060.5), value: "97.5", unit: "mg/dL")
        let decoded = try #require(SignedSampleContent(derEncoded: ArraySlice(try content.serialized())))
        #expect(decoded.type == content.type && decoded.value == "97.5" && decoded.unit == "mg/dL")
        #expect(abs(decoded.startDate.timeIntervalSince(content.startDate)) < 0.0005)
        #expect(abs(decoded.endDate.timeIntervalSince(content.endDate)) < 0.0005)
    }

    @Test func removingAnUnknownOrAmbiguousFingerprintSaysSo() async throws {
        let (person, folder) = try await Self.store([])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: HKError(.errorInvalidArgument)) { try person.removeTrustedSigner(fingerprint: "abc") }
        #expect(throws: HKError(.errorInvalidArgument)) { try person.removeTrustedSigner(fingerprint: "0123456789") }
        #expect(throws: HKError(.errorInvalidArgument)) { try SignerCertificate(pemEncoded: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----") }
    }
}
