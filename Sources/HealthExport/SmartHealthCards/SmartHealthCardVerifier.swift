package import Foundation
import Crypto
import HealthModel
import ZIPFoundation

/// A SMART Health Card's content, read from its JWS.
package struct SmartHealthCard: Sendable {
    package let jws: String
    /// `iss`: the issuer's base URL.
    package let issuer: String
    /// `kid` of the signing key.
    package let keyID: String
    /// `nbf`: when it was issued (signed).
    package let issued: Date
    /// `exp`, when present.
    package let expires: Date?
    /// `vc.type`.
    package let types: [String]
    /// `vc.credentialSubject.fhirVersion`.
    package let fhirVersion: String?
    /// `vc.credentialSubject.fhirBundle`, as JSON.
    package let bundle: Data
    /// `vc.rid`, for revocation.
    package let revocationID: String?
}

/// Where the person keeps the issuers they trust — no network is used. One folder per issuer, at the issuer URL's
/// host and path, holding what the issuer publishes:
///
///     <trust>/spec.smarthealth.cards/examples/issuer/.well-known/jwks.json
///     <trust>/spec.smarthealth.cards/examples/issuer/.well-known/crl/<kid>.json   (revocation list, optional)
package struct SmartHealthCardTrust: Sendable {
    package let directory: URL

    package init(directory: URL) {
        self.directory = directory
    }

    /// The folder of issuer `iss` (`https://host/path` → `<trust>/host/path`), or nil for a URL that is not https.
    package func folder(for issuer: String) -> URL? {
        guard let url = URL(string: issuer), url.scheme == "https", let host = url.host, !host.isEmpty else { return nil }
        var folder = directory.appendingPathComponent(host.lowercased())
        for part in url.path.split(separator: "/") where part != "." && part != ".." { folder.appendPathComponent(String(part)) }
        return folder
    }

    /// The issuer's published keys (JWKS `keys`), or nil when the issuer is not trusted here.
    func keys(of issuer: String) throws -> [[String: Any]]? {
        guard let file = folder(for: issuer)?.appendingPathComponent(".well-known/jwks.json"),
              FileManager.default.fileExists(atPath: file.path) else { return nil }
        guard let jwks = try? JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any],
              let keys = jwks["keys"] as? [[String: Any]] else {
            throw HKError.invalidArgument("the trusted JWKS of \(issuer) at \(file.path) is not a JSON Web Key Set")
        }
        return keys
    }

    /// The revoked `rid`s of key `kid` (each with the time before which cards are revoked, or nil for all).
    func revocations(of issuer: String, kid: String) throws -> [String: Double?]? {
        guard let file = folder(for: issuer)?.appendingPathComponent(".well-known/crl/\(kid).json"),
              FileManager.default.fileExists(atPath: file.path) else { return nil }
        guard let crl = try? JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any],
              let rids = crl["rids"] as? [String] else {
            throw HKError.invalidArgument("the revocation list of \(issuer) key \(kid) is not a SMART Health Card CRL")
        }
        var result: [String: Double?] = [:]
        for entry in rids {
            let parts = entry.split(separator: ".", maxSplits: 1)
            result[String(parts[0])] = parts.count == 2 ? Double(parts[1]) : nil as Double?
        }
        return result
    }
}

/// Checks a SMART Health Card for real: compact JWS with `zip: DEF` and `alg: ES256`; raw-DEFLATE payload; the
/// issuer's key from the trust directory, whose `kid` must be its RFC 7638 thumbprint; the ES256 signature over
/// `header.payload`; `nbf` not in the future and `exp` not past; and, when the key has a `crlVersion`, the issuer's
/// revocation list (`rid`, optionally with a timestamp before which cards are revoked). Each failure is
/// `errorInvalidArgument` with the reason; an issuer missing from the trust directory is `.unknownIssuer`.
package struct SmartHealthCardVerifier: Sendable {
    package let trust: SmartHealthCardTrust

    package init(trust: SmartHealthCardTrust) {
        self.trust = trust
    }

    package enum Outcome: Sendable {
        case verified(SmartHealthCard)
        /// The card reads well but its issuer is not in the trust directory, so its signature could not be checked.
        case unknownIssuer(SmartHealthCard)
    }

    package func verify(_ jws: String, now: Date = Date()) throws -> Outcome {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw HKError.invalidArgument("not a compact JWS: it has \(parts.count) parts, not 3") }
        guard let headerData = Self.base64URL(parts[0]),
              let header = try? JSONSerialization.jsonObject(with: headerData) as? [String: Any] else {
            throw HKError.invalidArgument("the JWS header is not base64url JSON")
        }
        guard header["alg"] as? String == "ES256" else {
            throw HKError.invalidArgument("the card is signed with \(header["alg"] as? String ?? "no algorithm"), not ES256")
        }
        guard header["zip"] as? String == "DEF" else { throw HKError.invalidArgument("the card's payload is not DEFLATE-compressed (zip: DEF)") }
        guard let kid = header["kid"] as? String, !kid.isEmpty else { throw HKError.invalidArgument("the JWS header has no kid") }
        guard let compressed = Self.base64URL(parts[1]), let signature = Self.base64URL(parts[2]) else {
            throw HKError.invalidArgument("the JWS payload or signature is not base64url")
        }
        let payload = try Self.inflate(compressed)
        let card = try Self.read(payload, jws: jws, kid: kid)

        guard let keys = try trust.keys(of: card.issuer) else { return .unknownIssuer(card) }
        guard let key = keys.first(where: { $0["kid"] as? String == kid }) else {
            throw HKError.invalidArgument("the trusted keys of \(card.issuer) have no key \(kid)")
        }
        guard key["kty"] as? String == "EC", key["crv"] as? String == "P-256", let x = (key["x"] as? String).flatMap(Self.base64URL),
              let y = (key["y"] as? String).flatMap(Self.base64URL), x.count == 32, y.count == 32 else {
            throw HKError.invalidArgument("key \(kid) of \(card.issuer) is not an EC P-256 key")
        }
        guard Self.thumbprint(x: key["x"] as! String, y: key["y"] as! String) == kid else {
            throw HKError.invalidArgument("key \(kid) of \(card.issuer) does not match its kid (RFC 7638 thumbprint)")
        }
        let publicKey: P256.Signing.PublicKey
        do { publicKey = try P256.Signing.PublicKey(rawRepresentation: x + y) } catch {
            throw HKError.invalidArgument("key \(kid) of \(card.issuer) is not a valid P-256 point")
        }
        guard signature.count == 64, let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
              publicKey.isValidSignature(ecdsa, for: Data("\(parts[0]).\(parts[1])".utf8)) else {
            throw HKError.invalidArgument("the card's signature does not verify with \(card.issuer)'s key \(kid): it was altered or not signed by that issuer")
        }
        guard card.issued <= now.addingTimeInterval(300) else {
            throw HKError.invalidArgument("the card is not valid before \(card.issued.formatted(.iso8601)) (nbf)")
        }
        if key["crlVersion"] != nil, let rid = card.revocationID, let revoked = try trust.revocations(of: card.issuer, kid: kid),
           let before = revoked[rid] {
            if let before { if card.issued.timeIntervalSince1970 < before { throw Self.revoked(card) } } else { throw Self.revoked(card) }
        }
        if let expires = card.expires, expires < now {
            throw HKError.invalidArgument("the card expired on \(expires.formatted(.iso8601))")
        }
        return .verified(card)
    }

    private static func revoked(_ card: SmartHealthCard) -> HKError {
        HKError.invalidArgument("the card was revoked by its issuer \(card.issuer) (rid \(card.revocationID ?? ""))")
    }

    /// The card's claims.
    static func read(_ payload: Data, jws: String, kid: String) throws -> SmartHealthCard {
        guard let claims = try? JSONSerialization.jsonObject(with: payload) as? [String: Any] else {
            throw HKError.invalidArgument("the card's payload is not JSON")
        }
        guard let issuer = claims["iss"] as? String, !issuer.isEmpty else { throw HKError.invalidArgument("the card has no issuer (iss)") }
        guard let nbf = (claims["nbf"] as? NSNumber)?.doubleValue else { throw HKError.invalidArgument("the card has no issue time (nbf)") }
        guard let vc = claims["vc"] as? [String: Any], let types = vc["type"] as? [String],
              types.contains("https://smarthealth.cards#health-card") else {
            throw HKError.invalidArgument("the card's vc.type does not contain https://smarthealth.cards#health-card")
        }
        guard let subject = vc["credentialSubject"] as? [String: Any], let bundle = subject["fhirBundle"] as? [String: Any],
              bundle["resourceType"] as? String == "Bundle" else {
            throw HKError.invalidArgument("the card has no FHIR Bundle (vc.credentialSubject.fhirBundle)")
        }
        return SmartHealthCard(
            jws: jws, issuer: issuer, keyID: kid, issued: Date(timeIntervalSince1970: nbf),
            expires: (claims["exp"] as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue) }, types: types,
            fhirVersion: subject["fhirVersion"] as? String, bundle: try JSONSerialization.data(withJSONObject: bundle, options: [.sortedKeys]),
            revocationID: vc["rid"] as? String)
    }

    /// RFC 7638 thumbprint of an EC key: base64url SHA-256 of `{"crv":"P-256","kty":"EC","x":…,"y":…}`.
    static func thumbprint(x: String, y: String) -> String {
        let canonical = "{\"crv\":\"P-256\",\"kty\":\"EC\",\"x\":\"\(x)\",\"y\":\"\(y)\"}"
        return base64URLEncoded(Data(SHA256.hash(data: Data(canonical.utf8))))
    }

    static func base64URL<S: StringProtocol>(_ text: S) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }

    static func base64URLEncoded(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Raw DEFLATE (RFC 1951, no zlib header), at most 10 MB out.
    static func inflate(_ compressed: Data) throws -> Data {
        guard !compressed.isEmpty else { throw HKError.invalidArgument("the card's payload is empty") }
        var output = Data()
        do {
            _ = try Data.decompress(size: Int64(compressed.count), bufferSize: compressed.count, skipCRC32: true, provider: { position, _ in
                // One chunk holds it all; asking for more means the stream never ended.
                guard position == 0 else { throw HKError.invalidArgument("the card's DEFLATE payload is truncated") }
                return compressed
            }, consumer: { chunk in
                output.append(chunk)
                if output.count > 10_000_000 { throw HKError.invalidArgument("the card's payload inflates past 10 MB") }
            })
        } catch let error as HKError {
            throw error
        } catch {
            throw HKError.invalidArgument("the card's payload is not raw DEFLATE data (\(error))")
        }
        return output
    }
}
