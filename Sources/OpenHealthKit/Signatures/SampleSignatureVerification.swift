public import Foundation
public import HealthModel
import SwiftASN1
@_spi(CMS) import X509

/// What checking a sample's `HKMetadataKeyDigitalSignature` found. A signature is never a reason to refuse a sample:
/// unsigned and unverifiable samples are saved, read and counted as any other, and only marked so.
/// OpenHealthKit's own type: HealthKit keeps the signature and leaves verifying it to apps.
public struct SampleSignatureVerification: Sendable, Hashable {
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// The sample carries no signature.
        case unsigned
        /// Signed by a certificate that chains to one the person trusts, over exactly this sample's values.
        case verified
        /// Signed by a trusted certificate, but over other values: the sample was altered after it was signed.
        case valuesDiffer
        /// Signed by a trusted certificate, over content whose layout is not OpenHealthKit's (`SignedSample`): who signed
        /// is known, and that the signed content is intact, but it cannot be compared with the sample's values.
        case contentNotUnderstood
        /// A valid signature whose certificate does not chain to one the person trusts (or was not valid when the sample
        /// was taken).
        case untrustedSigner
        /// Not a signature: not base64, not CMS SignedData, no content attached, or a signature that does not verify.
        case invalid
    }

    public let status: Status
    /// The signing certificate's subject, when the signature names one that verifies.
    public let signer: String?
    /// Why, in a sentence.
    public let reason: String

    public init(status: Status, signer: String?, reason: String) {
        self.status = status
        self.signer = signer
        self.reason = reason
    }
}

extension HKSample {
    /// Checks this sample's `HKMetadataKeyDigitalSignature` (base64 of a CMS SignedData, RFC 5652, with its content
    /// attached) against `signers`, the certificates the person trusts (`HealthPerson.trustedSigners()`), as they were
    /// valid at the sample's end date. OpenHealthKit's extension; HealthKit has none.
    public func verifyDigitalSignature(trusting signers: [SignerCertificate]) async -> SampleSignatureVerification {
        guard let value = metadata?[HKMetadataKeyDigitalSignature] else {
            return .init(status: .unsigned, signer: nil, reason: "the sample carries no \(HKMetadataKeyDigitalSignature)")
        }
        guard let text = value as? String, let blob = Data(base64Encoded: text, options: .ignoreUnknownCharacters), !blob.isEmpty else {
            return .init(status: .invalid, signer: nil, reason: "\(HKMetadataKeyDigitalSignature) is not base64 text")
        }
        let bytes = Array(blob)
        let roots = CertificateStore(signers.map(\.certificate))
        let validAt = endDate
        let result = await CMS.isValidAttachedSignature(signatureBytes: bytes, trustRoots: roots) {
            RFC5280Policy(fixedValidationTime: validAt)
        }
        switch result {
        case .success(let valid):
            let signer = valid.signer.subject.description
            guard let content = Self.attachedContent(bytes), let signed = SignedSampleContent(derEncoded: content) else {
                return .init(status: .contentNotUnderstood, signer: signer,
                             reason: "signed by \(signer), whom you trust, over content in a layout OpenHealthKit does not read")
            }
            guard signed.matches(self) else {
                return .init(status: .valuesDiffer, signer: signer,
                             reason: "signed by \(signer), whom you trust, over other values (\(signed.value) \(signed.unit)): the sample was altered after it was signed")
            }
            return .init(status: .verified, signer: signer, reason: "signed by \(signer), whom you trust, over these values")
        case .failure(.unableToValidateSigner(let failure)):
            let signer = failure.signer.subject.description
            return .init(status: .untrustedSigner, signer: signer,
                         reason: "signed by \(signer), whose certificate does not chain to one you trust, or was not valid when the sample was taken")
        case .failure(.invalidCMSBlock(let block)):
            return .init(status: .invalid, signer: nil, reason: "not a valid signature: \(block.reason)")
        }
    }

    /// The content attached to a CMS SignedData (RFC 5652 §5.1–5.2), or nil when it carries none.
    static func attachedContent(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
        guard let root = try? BER.parse(bytes) else { return nil }
        return try? BER.sequence(root, identifier: .sequence) { nodes -> ArraySlice<UInt8>? in
            _ = try ASN1ObjectIdentifier(berEncoded: &nodes)   // id-signedData
            return try BER.explicitlyTagged(&nodes, tagNumber: 0, tagClass: .contextSpecific) { node in
                try BER.sequence(node, identifier: .sequence) { nodes -> ArraySlice<UInt8>? in
                    _ = try Int(berEncoded: &nodes)   // version
                    _ = nodes.next()                  // digestAlgorithms
                    guard let encapsulated = nodes.next() else { return nil }
                    while nodes.next() != nil {}      // certificates, crls, signerInfos
                    return try BER.sequence(encapsulated, identifier: .sequence) { nodes in
                        _ = try ASN1ObjectIdentifier(berEncoded: &nodes)
                        return try BER.optionalExplicitlyTagged(&nodes, tagNumber: 0, tagClass: .contextSpecific) { node in
                            try ASN1OctetString(berEncoded: node).bytes
                        }
                    }
                }
            }
        } ?? nil
    }
}
