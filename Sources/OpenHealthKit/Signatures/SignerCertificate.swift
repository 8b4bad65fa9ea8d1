import Crypto
public import Foundation
import HealthModel
import SwiftASN1
import X509

/// A certificate the person trusts to sign samples: a device manufacturer's, whose devices sign their readings
/// (`HKMetadataKeyDigitalSignature`). A signature counts as verified only when its signer's certificate chains to one of
/// these. OpenHealthKit's own type: HealthKit leaves verifying signatures to apps.
public struct SignerCertificate: Sendable, Hashable {
    let certificate: Certificate
    /// The certificate as DER.
    public let derEncoded: Data

    /// A certificate from PEM text (`-----BEGIN CERTIFICATE-----`); anything else is `errorInvalidArgument`, saying why.
    public init(pemEncoded pem: String) throws {
        do {
            certificate = try Certificate(pemEncoded: pem)
        } catch {
            throw HKError(.errorInvalidArgument, "not a PEM certificate: \(error)")
        }
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        derEncoded = Data(serializer.serializedBytes)
    }

    /// A certificate from its DER bytes.
    public init(derEncoded der: Data) throws {
        do {
            certificate = try Certificate(derEncoded: Array(der))
        } catch {
            throw HKError(.errorInvalidArgument, "not a DER certificate: \(error)")
        }
        derEncoded = der
    }

    /// Who the certificate names (its subject, as RFC 4514 writes it).
    public var subject: String { certificate.subject.description }

    /// SHA-256 of the DER, in hexadecimal: how the person names a certificate to remove it.
    public var fingerprint: String { SHA256.hash(data: derEncoded).map { String(format: "%02x", $0) }.joined() }

    /// When the certificate stops being valid.
    public var notValidAfter: Date { certificate.notValidAfter }

    /// The certificate as PEM text.
    public var pemEncoded: String {
        (try? certificate.serializeAsPEM().pemString) ?? ""
    }
}
