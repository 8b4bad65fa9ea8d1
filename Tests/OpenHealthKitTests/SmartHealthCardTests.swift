import Foundation
import Testing
@testable import HealthExport
@testable import HealthModel
@testable import OpenHealthKit

let shcExamples = fhirFixtures.appendingPathComponent("shc/examples")

/// A trust directory holding the spec's example issuer, as the person would lay it out.
func exampleTrust() throws -> SmartHealthCardTrust {
    let trust = FileManager.default.temporaryDirectory.appendingPathComponent("trust-\(UUID().uuidString)")
    let folder = trust.appendingPathComponent("spec.smarthealth.cards/examples")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: fhirFixtures.appendingPathComponent("shc/issuer"), to: folder.appendingPathComponent("issuer"))
    return SmartHealthCardTrust(directory: trust)
}

func example(_ name: String) throws -> Data { try Data(contentsOf: shcExamples.appendingPathComponent(name)) }

@Suite("SMART Health Cards: decoding and verification")
struct SmartHealthCardVerifierTests {
    @Test(arguments: ["00", "01", "02"])
    func eachSpecVectorVerifiesInEveryForm(_ number: String) throws {
        let verifier = SmartHealthCardVerifier(trust: try exampleTrust())
        let jws = String(decoding: try example("example-\(number)-d-jws.txt"), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let qrFiles = try FileManager.default.contentsOfDirectory(atPath: shcExamples.path)
            .filter { $0.hasPrefix("example-\(number)-f-qr-code-numeric-value-") }.sorted().reversed()  // chunks out of order
        let qr = try qrFiles.map { String(decoding: try example($0), as: UTF8.self) }.joined(separator: "\n")
        let forms: [Data] = [Data(jws.utf8), try example("example-\(number)-e-file.smart-health-card"), Data(qr.utf8)]
        for form in forms {
            let decoded = try SmartHealthCardDecoder.jwsList(from: form)
            #expect(decoded == [jws])
            guard case .verified(let card) = try verifier.verify(decoded[0]) else { Issue.record("not verified"); continue }
            #expect(card.issuer == "https://spec.smarthealth.cards/examples/issuer")
            let minified = try JSONSerialization.jsonObject(with: try example("example-\(number)-c-jws-payload-minified.json")) as! [String: Any]
            #expect(card.issued.timeIntervalSince1970 == (minified["nbf"] as! NSNumber).doubleValue)
            let subject = (minified["vc"] as! [String: Any])["credentialSubject"] as! [String: Any]
            #expect(try JSONSerialization.data(withJSONObject: subject["fhirBundle"]!, options: [.sortedKeys]) == card.bundle)
        }
        #expect(qrFiles.count == (number == "02" ? 3 : 1))
    }

    @Test func aFlippedByteAndTheRevokedCardAreRejectedWithTheirReason() throws {
        let verifier = SmartHealthCardVerifier(trust: try exampleTrust())
        let jws = String(decoding: try example("example-00-d-jws.txt"), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        var bytes = Array(jws.utf8)
        let last = bytes.count - 5
        bytes[last] = bytes[last] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(throws: HKError.self) { try verifier.verify(String(decoding: bytes, as: UTF8.self)) }
        do { _ = try verifier.verify(String(decoding: bytes, as: UTF8.self)) } catch let error as HKError {
            #expect(error.message.contains("signature does not verify"))
        }
        let revoked = String(decoding: try example("example-03-d-jws.txt"), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        do {
            _ = try verifier.verify(revoked)
            Issue.record("the revoked card verified")
        } catch let error as HKError {
            #expect(error.message.contains("revoked") && error.message.contains("vwAjHdarZuc"), "\(error.message)")
        }
        // Before the card's nbf, it is not valid yet.
        do {
            _ = try verifier.verify(jws, now: Date(timeIntervalSince1970: 1_600_000_000))
            Issue.record("a card used before its nbf verified")
        } catch let error as HKError {
            #expect(error.message.contains("not valid before"))
        }
    }

    @Test func anUnknownIssuerIsReportedAsSuchAndMalformedTextIsAnError() throws {
        let empty = SmartHealthCardVerifier(trust: SmartHealthCardTrust(directory: FileManager.default.temporaryDirectory.appendingPathComponent("none")))
        let jws = String(decoding: try example("example-00-d-jws.txt"), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard case .unknownIssuer(let card) = try empty.verify(jws) else { Issue.record("an unknown issuer verified"); return }
        #expect(card.revocationID == "MKyCxh7p6uQ")
        #expect(throws: HKError.self) { try SmartHealthCardDecoder.jwsList(from: Data("shc:/1/2/5676".utf8)) }  // chunk 2 missing
        #expect(throws: HKError.self) { try SmartHealthCardDecoder.jwsList(from: Data("shc:/567".utf8)) }      // odd digits
        #expect(throws: HKError.self) { try SmartHealthCardDecoder.jwsList(from: Data("hello".utf8)) }
    }
}
