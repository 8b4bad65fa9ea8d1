public import Foundation
public import HealthModel
import HealthStore

/// Signed samples, on the person's side: the device makers' certificates the person trusts, and what each signed
/// sample's signature says (`health trust`, `health signatures`).
extension HealthPerson {
    private var trusted: TrustedSigners { TrustedSigners(database: database) }

    /// Trusts `certificate` to sign samples; false when it was trusted already.
    @discardableResult
    public func trustSigner(_ certificate: SignerCertificate) throws -> Bool {
        try trusted.add(fingerprint: certificate.fingerprint, subject: certificate.subject, certificate: certificate.derEncoded)
    }

    /// The certificates the person trusts, oldest first.
    public func trustedSigners() throws -> [SignerCertificate] {
        try trusted.all().map { try SignerCertificate(derEncoded: $0.certificate) }
    }

    /// Stops trusting the certificate whose fingerprint starts with `fingerprint` (at least 8 hexadecimal digits, and
    /// matching one certificate); `errorInvalidArgument` names the problem otherwise.
    @discardableResult
    public func removeTrustedSigner(fingerprint: String) throws -> SignerCertificate {
        guard fingerprint.count >= 8, fingerprint.allSatisfy(\.isHexDigit) else {
            throw HKError.invalidArgument("give at least the first 8 hexadecimal digits of the certificate's fingerprint (health trust list)")
        }
        let all = try trustedSigners()
        let matching = all.filter { $0.fingerprint.hasPrefix(fingerprint.lowercased()) }
        guard matching.count == 1 else {
            throw HKError.invalidArgument(matching.isEmpty ? "no trusted certificate has a fingerprint starting with \(fingerprint)"
                                                             : "\(matching.count) trusted certificates have a fingerprint starting with \(fingerprint); give more digits")
        }
        try trusted.remove(fingerprint: matching[0].fingerprint)
        return matching[0]
    }

    /// The samples of `type` that carry a signature, oldest first, each with what its signature says against the
    /// certificates the person trusts now.
    public func signedSamples(of type: HKSampleType) async throws -> [(sample: HKSample, verification: SampleSignatureVerification)] {
        let signers = try trustedSigners()
        let samples = try await HKSampleQueryDescriptor(
            predicates: [.sample(type: type, predicate: HKQuery.predicateForObjects(withMetadataKey: HKMetadataKeyDigitalSignature))],
            sortDescriptors: [SortDescriptor(\.startDate)]
        ).result(for: healthStore)
        var checked: [(sample: HKSample, verification: SampleSignatureVerification)] = []
        for sample in samples { checked.append((sample, await sample.verifyDigitalSignature(trusting: signers))) }
        return checked
    }
}
