public import Foundation
import HealthExport
import HealthStore

/// What an import of SMART Health Cards did.
public struct HealthCardImport: Sendable {
    /// Cards verified against a trusted issuer and stored.
    public var verified: [HKVerifiableClinicalRecord] = []
    /// Cards from an issuer the person does not trust, stored because the person said so (`allowUnverified`).
    public var unverified: [HKVerifiableClinicalRecord] = []
    /// Cards already in the store.
    public var alreadyStored = 0
    /// Cards refused, each with the reason (bad signature, revoked, expired, unknown issuer, unreadable…).
    public var rejected: [Problem] = []

    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The card's position in the input (0-based; a `.smart-health-card` file may hold several).
        public let index: Int
        public let message: String
        public var description: String { "card \(index + 1): \(message)" }
    }
}

extension HealthPerson {
    /// The folder of the issuers the person trusts (`trusted-issuers/` in the store folder), laid out as
    /// `<host>/<path>/.well-known/jwks.json` (and `…/.well-known/crl/<kid>.json`) for each issuer URL.
    public var trustedIssuersDirectory: URL { database.directory.appendingPathComponent("trusted-issuers") }

    /// Trusts an issuer: keeps its JWKS (the keys it publishes at `<issuer>/.well-known/jwks.json`) and, optionally,
    /// its revocation lists by key id. An issuer URL that is not https, or keys that are not a JWKS, are
    /// `errorInvalidArgument`.
    public func trustIssuer(_ issuer: String, keys jwks: Data, revocationLists: [String: Data] = [:]) throws {
        guard let folder = SmartHealthCardTrust(directory: trustedIssuersDirectory).folder(for: issuer) else {
            throw HKError.invalidArgument("an issuer is an https URL (the card's iss), not \"\(issuer)\"")
        }
        guard let object = try? JSONSerialization.jsonObject(with: jwks) as? [String: Any], let keys = object["keys"] as? [[String: Any]],
              !keys.isEmpty else {
            throw HKError.invalidArgument("the keys of \(issuer) must be a JSON Web Key Set: {\"keys\": [ … ]}")
        }
        let wellKnown = folder.appendingPathComponent(".well-known")
        do {
            try FileManager.default.createDirectory(at: wellKnown.appendingPathComponent("crl"), withIntermediateDirectories: true)
            try jwks.write(to: wellKnown.appendingPathComponent("jwks.json"), options: .atomic)
            for (kid, list) in revocationLists {
                guard !kid.contains("/"), !kid.hasPrefix(".") else { throw HKError.invalidArgument("\"\(kid)\" is not a key id") }
                try list.write(to: wellKnown.appendingPathComponent("crl/\(kid).json"), options: .atomic)
            }
        } catch let error as HKError {
            throw error
        } catch {
            throw HKError(.errorDatabaseInaccessible, "cannot write the trusted issuers folder: \(FileProblem(error))")
        }
    }

    /// Imports SMART Health Cards from a file: `shc:/` QR text (one code, or every chunk of a chunked one), a
    /// `.smart-health-card` file, or a compact JWS. Each card is verified for real (signature with a trusted issuer's
    /// key, `nbf`, `exp`, revocation); one that fails is refused with the reason. A card from an issuer the person
    /// does not trust is refused too, unless `allowUnverified`, when it is kept marked unverified.
    public func importHealthCards(at url: URL, allowUnverified: Bool = false, trustDirectory: URL? = nil,
                                  now: Date = Date()) throws -> HealthCardImport {
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw HKError.invalidArgument("cannot read \(url.path)") }
        return try importHealthCards(data, allowUnverified: allowUnverified, trustDirectory: trustDirectory, now: now)
    }

    /// Imports SMART Health Cards from their text or file contents; see ``importHealthCards(at:allowUnverified:trustDirectory:now:)``.
    public func importHealthCards(_ data: Data, allowUnverified: Bool = false, trustDirectory: URL? = nil,
                                  now: Date = Date()) throws -> HealthCardImport {
        let verifier = SmartHealthCardVerifier(trust: SmartHealthCardTrust(directory: trustDirectory ?? trustedIssuersDirectory))
        let store = VerifiableRecordStore(database: database)
        var summary = HealthCardImport()
        for (index, jws) in try SmartHealthCardDecoder.jwsList(from: data).enumerated() {
            do {
                switch try verifier.verify(jws, now: now) {
                case .verified(let card):
                    let record = card.record(imported: now)
                    if try store.save(record, verified: true) { summary.verified.append(record) } else { summary.alreadyStored += 1 }
                case .unknownIssuer(let card):
                    guard allowUnverified else {
                        summary.rejected.append(.init(index: index, message:
                            "the issuer \(card.issuer) is not among the trusted issuers; trust it, or import the card as unverified"))
                        continue
                    }
                    let record = card.record(imported: now)
                    if try store.save(record, verified: false) { summary.unverified.append(record) } else { summary.alreadyStored += 1 }
                }
            } catch let error as HKError where error.code == .errorInvalidArgument {
                summary.rejected.append(.init(index: index, message: error.message))
            }
        }
        return summary
    }

    /// Every verifiable record the person holds, by relevant date, each with whether it was verified.
    public func verifiableClinicalRecords() throws -> [(record: HKVerifiableClinicalRecord, verified: Bool)] {
        try VerifiableRecordStore(database: database).records().map { ($0.record, $0.verified) }
    }
}
