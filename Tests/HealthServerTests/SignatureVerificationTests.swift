import Foundation
import OpenHealthKit
import Testing
import TestSupport

private let glucose = HKQuantityType(.bloodGlucose)
private let mgPerDL = HKUnit(from: "mg/dL")
private let taken = Date(timeIntervalSince1970: 1_790_000_000)

private func reading(_ value: Double, signedBy device: SigningDevice?, over signedValue: Double? = nil) throws -> HKQuantitySample {
    let content = SignedSampleContent(type: glucose.identifier, startDate: taken, endDate: taken, value: "\(signedValue ?? value)", unit: "mg/dL")
    return HKQuantitySample(type: glucose, quantity: HKQuantity(unit: mgPerDL, doubleValue: value), start: taken, end: taken,
                            metadata: try device.map { [HKMetadataKeyDigitalSignature: try $0.signature(over: content)] })
}

/// An app checks a sample's signature (`HKHealthStore.verifyDigitalSignature(of:)`, OpenHealthKit's extension) against
/// the certificates the person trusts, on both backends: through the daemon the check is made there, so the app never
/// holds the person's certificates, and learns nothing about samples it cannot read.
@Suite("Signature verification for apps, on both backends")
struct SignatureVerificationTests {
    @Test(arguments: Backend.allCases)
    func anAppLearnsWhetherItsReadingIsSignedByADeviceThePersonTrusts(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let device = try SigningDevice()
            let store = try await session.app(.steps, answering: .allowAll)
            try await store.requestAuthorization(toShare: [glucose], read: [glucose])
            let signed = try reading(97, signedBy: device), altered = try reading(140, signedBy: device, over: 97), plain = try reading(90, signedBy: nil)
            try await store.save([signed, altered, plain])

            #expect(try await store.verifyDigitalSignature(of: signed).status == .untrustedSigner)
            try session.person().trustSigner(device.maker)
            let verified = try await store.verifyDigitalSignature(of: signed)
            #expect(verified.status == .verified)
            #expect(verified.signer?.contains("Glucometer GX-7 serial 0042") == true)
            #expect(try await store.verifyDigitalSignature(of: altered).status == .valuesDiffer)
            let unsigned = try await store.verifyDigitalSignature(of: plain)
            #expect(unsigned.status == .unsigned && unsigned.signer == nil)
        }
    }

    @Test(arguments: Backend.allCases)
    func aSampleTheAppMayNotReadAnswersAsOneThatDoesNotExist(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let device = try SigningDevice()
            try session.person().trustSigner(device.maker)
            let writer = try await session.app(.other, answering: .allowAll)
            try await writer.requestAuthorization(toShare: [glucose], read: [])
            let theirs = try reading(97, signedBy: device)
            try await writer.save(theirs)
            // The other app may write glucose but was denied reading it: the writer's sample is hidden from it.
            let reader = try await session.app(.steps, answering: .init(default: .deny, share: [glucose.identifier: .allow]))
            try await reader.requestAuthorization(toShare: [glucose], read: [glucose])
            let hidden = await Self.code { try await reader.verifyDigitalSignature(of: theirs) }
            let absent = await Self.code { try await reader.verifyDigitalSignature(of: try reading(97, signedBy: device)) }
            #expect(hidden == .errorNoData)
            #expect(absent == .errorNoData)
            // The app that saved it may check it.
            #expect(try await writer.verifyDigitalSignature(of: theirs).status == .verified)
        }
    }

    private static func code(_ body: () async throws -> Any) async -> HKError.Code? {
        do { _ = try await body(); return nil } catch let error as HKError { return error.code } catch { return nil }
    }
}
