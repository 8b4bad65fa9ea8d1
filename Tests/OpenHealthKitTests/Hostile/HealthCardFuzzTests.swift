import Crypto
import Foundation
import Testing
import ZIPFoundation
@testable import HealthExport
import HealthModel
@testable import OpenHealthKit

/// Mutants of SMART Health Cards, in each form a person holds one (a compact JWS, a `.smart-health-card` file, the
/// `shc:/` text of a QR code, in one or several chunks). Two kinds:
///
/// - **Signed hostile payloads**: the card's claims and FHIR Bundle changed (values no store can hold, impossible
///   dates, keys removed, cut short) and then signed by an issuer the person trusts, so that they pass the signature
///   and reach every check after it — what a compromised or careless issuer could send.
/// - **Damage after signing**: bits flipped in the text, digits changed, chunks' headers set to extremes, cut short.
///
/// Every import must end in bounded time without a crash: with an error that names the problem, or with each card
/// verified, kept unverified, already stored or rejected with its reason. A card whose signed bytes were changed is
/// never verified. `OPENHEALTHKIT_FUZZ_CASES` and `OPENHEALTHKIT_FUZZ_SEED` as for `ImporterFuzzTests`.
@Suite("Hostile: SMART Health Card fuzz", .serialized)
struct HealthCardFuzzTests {
    static let payload = try! Data(contentsOf: shcExamples.appendingPathComponent("example-00-c-jws-payload-minified.json"))
    static let exampleIssuer = "https://spec.smarthealth.cards/examples/issuer"

    /// An issuer of the test's own, trusted by the person, so that hostile payloads carry a valid signature.
    struct Issuer {
        let key = P256.Signing.PrivateKey()
        let url = "https://issuer.example.org/fuzz"
        var x: String { SmartHealthCardVerifier.base64URLEncoded(key.publicKey.rawRepresentation.prefix(32)) }
        var y: String { SmartHealthCardVerifier.base64URLEncoded(key.publicKey.rawRepresentation.suffix(32)) }
        var kid: String { SmartHealthCardVerifier.thumbprint(x: x, y: y) }
        var jwks: Data {
            Data(#"{"keys":[{"kty":"EC","crv":"P-256","use":"sig","alg":"ES256","kid":"\#(kid)","x":"\#(x)","y":"\#(y)"}]}"#.utf8)
        }

        /// The compact JWS of `payload`: `{"zip":"DEF","alg":"ES256","kid":…}`, the raw-DEFLATE payload, the ES256 signature.
        func sign(_ payload: Data) throws -> String {
            var compressed = Data()
            _ = try Data.compress(size: Int64(payload.count), bufferSize: max(payload.count, 1), provider: { position, size in
                payload.subdata(in: Int(position)..<Int(position) + size)
            }, consumer: { compressed.append($0) })
            let header = SmartHealthCardVerifier.base64URLEncoded(Data(#"{"zip":"DEF","alg":"ES256","kid":"\#(kid)"}"#.utf8))
            let body = SmartHealthCardVerifier.base64URLEncoded(compressed)
            let signature = try key.signature(for: Data("\(header).\(body)".utf8)).rawRepresentation
            return "\(header).\(body).\(SmartHealthCardVerifier.base64URLEncoded(signature))"
        }
    }

    /// The forms a card comes in.
    enum Form: CaseIterable { case jws, file, qr, chunkedQR }

    static func numeric(_ jws: String) -> String {
        jws.unicodeScalars.map { String(format: "%02d", Int($0.value) - 45) }.joined()
    }

    static func text(of jws: String, as form: Form, _ random: inout SplitMix64) -> String {
        switch form {
        case .jws: return jws
        case .file: return #"{"verifiableCredential":["\#(jws)"]}"#
        case .qr: return "shc:/" + numeric(jws)
        case .chunkedQR:
            let digits = Array(numeric(jws)), count = Int.random(in: 2...3, using: &random)
            let size = (digits.count / 2 + count - 1) / count * 2
            let chunks = stride(from: 0, to: digits.count, by: size).map { String(digits[$0..<min($0 + size, digits.count)]) }
            return chunks.enumerated().map { "shc:/\($0.offset + 1)/\(chunks.count)/\($0.element)" }.shuffled(using: &random).joined(separator: "\n")
        }
    }

    /// The bytes a JWS signs and carries, decoded: equal for two JWS exactly when they say the same thing.
    static func signedContent(_ jws: String) -> [Data?] {
        jws.split(separator: ".", omittingEmptySubsequences: false).map { SmartHealthCardVerifier.base64URL($0) }
    }

    /// Imports `text` as the person would, in bounded time; checks the outcome accounts for every card.
    static func importing(_ text: String, into person: HealthPerson, cards: Int, _ label: String, tally: ImporterFuzzTests.Tally)
        -> HealthCardImport? {
        let started = Date()
        defer {
            let seconds = Date().timeIntervalSince(started)
            #expect(seconds < ImporterFuzzTests.timeLimit, "\(label): the import took \(seconds) s")
            tally.slowest = max(tally.slowest, seconds)
        }
        do {
            let result = try person.importHealthCards(Data(text.utf8), allowUnverified: true)
            tally.imported += 1
            let accounted = result.verified.count + result.unverified.count + result.alreadyStored + result.rejected.count
            #expect(accounted == cards, "\(label): \(cards) card(s), \(accounted) accounted for")
            for problem in result.rejected {
                #expect(!problem.message.isEmpty && !problem.message.contains("constraint"), "\(label): \(problem)")
                tally.count(problem.message)
            }
            for record in result.verified + result.unverified {
                // What the person's tools show of a card: each must be representable.
                _ = (record.relevantDate, record.issuedDate, record.expirationDate, record.subject.fullName, record.itemNames,
                     record.recordTypes, record.issuerIdentifier, record.jwsRepresentation.count)
                _ = record.description
            }
            return result
        } catch {
            ImporterFuzzTests.checkError(error, label)
            tally.refused(error)
            return nil
        }
    }

    static func person(trusting issuer: Issuer) throws -> (HealthPerson, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-fuzz-shc-\(UUID().uuidString)")
        let person = try HealthPerson(storeDirectory: folder)
        try person.trustIssuer(issuer.url, keys: issuer.jwks)
        return (person, folder)
    }

    @Test func hostilePayloadsSignedByATrustedIssuerAreStoredOrRejectedWithTheirReason() throws {
        var random = SplitMix64(state: ImporterFuzzTests.seed &+ 3)
        let issuer = Issuer()
        let (person, folder) = try Self.person(trusting: issuer)
        defer { try? FileManager.default.removeItem(at: folder) }
        let tally = ImporterFuzzTests.Tally()
        defer { print(tally.line("SMART Health Cards, signed hostile payloads")) }
        let ours = Array(String(decoding: Self.payload, as: UTF8.self).replacingOccurrences(of: Self.exampleIssuer, with: issuer.url).utf8)
        let claims = ["nbf", "exp"]
        for index in 0..<ImporterFuzzTests.cases {
            var bytes = ours, mutations: [String] = []
            for _ in 0..<Int.random(in: 1...2, using: &random) {
                if Int.random(in: 0..<4, using: &random) == 0 {
                    // The times the verifier compares: extremes a JSON number can carry.
                    let claim = claims.randomElement(using: &random)!
                    let value = ["1e400", "-1e400", "1e300", "-1e300", "9223372036854775808", "0", "-1", "253402300800", "1e15", "\"soon\"", "null",
                                 "[]"].randomElement(using: &random)!
                    var text = String(decoding: bytes, as: UTF8.self)
                    if let range = text.range(of: #""\#(claim)":[^,}]*"#, options: .regularExpression) {
                        text.replaceSubrange(range, with: #""\#(claim)":\#(value)"#)
                    } else {
                        text = text.replacingOccurrences(of: #"{"iss""#, with: #"{"\#(claim)":\#(value),"iss""#)
                    }
                    bytes = Array(text.utf8)
                    mutations.append("\(claim) := \(value)")
                } else {
                    let (mutated, description) = ImporterFuzzTests.mutateJSON(bytes, &random)
                    bytes = mutated
                    mutations.append(description)
                }
            }
            let jws = try issuer.sign(Data(bytes))
            let form = Form.allCases.randomElement(using: &random)!
            let label = "signed card \(index) (seed \(ImporterFuzzTests.seed &+ 3)) as \(form): \(mutations.joined(separator: "; "))"
            _ = Self.importing(Self.text(of: jws, as: form, &random), into: person, cards: 1, label, tally: tally)
        }
        // Whatever was stored can be listed, as `health cards list` does.
        _ = try person.verifiableClinicalRecords().map { "\($0.record)" }
    }

    @Test func cardsDamagedAfterSigningAreNeverVerified() throws {
        var random = SplitMix64(state: ImporterFuzzTests.seed &+ 4)
        let issuer = Issuer()
        let (person, folder) = try Self.person(trusting: issuer)
        defer { try? FileManager.default.removeItem(at: folder) }
        let tally = ImporterFuzzTests.Tally()
        defer { print(tally.line("SMART Health Cards, damaged after signing")) }
        let original = try issuer.sign(Data(String(decoding: Self.payload, as: UTF8.self).replacingOccurrences(of: Self.exampleIssuer, with: issuer.url).utf8))
        let extremes = ["0", "-1", "00", "4294967297", "9223372036854775807", "9223372036854775808", "99999999999", "", "x", "1.5"]
        for index in 0..<ImporterFuzzTests.cases {
            let form = Form.allCases.randomElement(using: &random)!
            var text = Array(Self.text(of: original, as: form, &random).utf8)
            var mutations: [String] = []
            for _ in 0..<Int.random(in: 1...2, using: &random) {
                switch Int.random(in: 0..<5, using: &random) {
                case 0, 1:
                    let at = Int.random(in: 0..<text.count, using: &random), bit = Int.random(in: 0..<8, using: &random)
                    text[at] ^= UInt8(1 << bit)
                    mutations.append("flip bit \(bit) of byte \(at)")
                case 2:
                    let at = Int.random(in: 0..<text.count, using: &random)
                    text.removeSubrange(at...)
                    mutations.append("cut at \(at)")
                case 3:
                    // A chunk header's index or count (or a digit pair of the QR) set to an extreme.
                    var lines = String(decoding: text, as: UTF8.self).components(separatedBy: "\n")
                    let line = Int.random(in: 0..<lines.count, using: &random)
                    var parts = lines[line].components(separatedBy: "/")
                    guard parts.count >= 2 else { continue }
                    let part = Int.random(in: 1..<parts.count, using: &random), value = extremes.randomElement(using: &random)!
                    parts[part] = value
                    lines[line] = parts.joined(separator: "/")
                    text = Array(lines.joined(separator: "\n").utf8)
                    mutations.append("line \(line) part \(part) := \(value.debugDescription)")
                default:
                    let at = Int.random(in: 0...text.count, using: &random)
                    let insert = ["9", "0", ".", "\n", "shc:/", "\"", "==", "\u{0}", "é"].randomElement(using: &random)!
                    text.insert(contentsOf: Array(insert.utf8), at: at)
                    mutations.append("insert \(insert.debugDescription) at \(at)")
                }
            }
            let label = "damaged card \(index) (seed \(ImporterFuzzTests.seed &+ 4)) as \(form): \(mutations.joined(separator: "; "))"
            guard let result = Self.importing(String(decoding: text, as: UTF8.self), into: person, cards: 1, label, tally: tally) else { continue }
            for record in result.verified {
                let jws = String(decoding: record.jwsRepresentation, as: UTF8.self)
                #expect(Self.signedContent(jws) == Self.signedContent(original), "\(label): verified a card whose signed content changed")
            }
        }
    }
}
