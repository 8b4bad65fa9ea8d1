import Crypto
package import Foundation
package import OpenHealthKit
@_spi(CMS) import X509

/// A device that signs its readings, as a maker provisions one: the maker's root certificate (which the person may
/// trust), the device's own certificate issued by it, and CMS signatures (RFC 5652, P-256 with SHA-256, content attached)
/// over OpenHealthKit's `SignedSample` content — what `HKMetadataKeyDigitalSignature` carries.
package struct SigningDevice: Sendable {
    package let maker: SignerCertificate
    private let makerKey: P256.Signing.PrivateKey
    private let deviceCertificate: Certificate
    private let deviceKey: P256.Signing.PrivateKey

    /// A maker named `maker` and one of its devices, whose certificate is valid from `validFrom` to `validUntil`.
    package init(maker name: String = "Wombat Instruments", validFrom: Date = Date(timeIntervalSince1970: 1_600_000_000),
                 validUntil: Date = Date(timeIntervalSince1970: 2_200_000_000)) throws {
        makerKey = P256.Signing.PrivateKey()
        deviceKey = P256.Signing.PrivateKey()
        let makerName = try DistinguishedName { OrganizationName(name); CommonName("\(name) Device Root") }
        let root = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(makerKey.publicKey), notValidBefore: validFrom, notValidAfter: validUntil,
            issuer: makerName, subject: makerName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true))
            },
            issuerPrivateKey: .init(makerKey))
        maker = try SignerCertificate(pemEncoded: try root.serializeAsPEM().pemString)
        deviceCertificate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(deviceKey.publicKey), notValidBefore: validFrom, notValidAfter: validUntil,
            issuer: makerName, subject: try DistinguishedName { OrganizationName(name); CommonName("Glucometer GX-7 serial 0042") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
            },
            issuerPrivateKey: .init(makerKey))
    }

    /// The base64 signature over `content`'s DER.
    package func signature(over content: SignedSampleContent) throws -> String {
        try signature(overBytes: content.serialized())
    }

    /// The base64 signature over any bytes (content in another layout than OpenHealthKit's).
    package func signature(overBytes bytes: [UInt8]) throws -> String {
        let signed = try CMS.sign(bytes, certificate: deviceCertificate, privateKey: .init(deviceKey), signingTime: Date(), detached: false)
        return Data(signed).base64EncodedString()
    }
}
