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

    /// Found by the health-card fuzz: a chunk header claiming billions of chunks made the decoder list every missing
    /// one (10 GB and counting); the count is now held against the lines given.
    @Test func aChunkCountPastTheLinesGivenIsRefusedAtOnce() throws {
        let started = Date()
        #expect(throws: HKError.invalidArgument("the shc:/ code has 99999999999 chunks, but 2 were given")) {
            try SmartHealthCardDecoder.jwsList(from: Data("shc:/1/99999999999/5676\nshc:/2/99999999999/5676".utf8))
        }
        #expect(Date().timeIntervalSince(started) < 10, "bounded, though the machine be loaded")
    }
}

@Suite("SMART Health Cards: the person's import and apps' queries")
struct VerifiableRecordTests {
    /// A person whose store trusts the spec's example issuer (keys and revocation list).
    func trustingPerson(in folder: URL = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-\(UUID().uuidString)")) throws -> HealthPerson {
        let person = try HealthPerson(storeDirectory: folder)
        let issuer = fhirFixtures.appendingPathComponent("shc/issuer/.well-known")
        let kid = "3Kfdg-XwP-7gXyywtUfUADwBumDOPKMQx-iELL11W9s"
        try person.trustIssuer("https://spec.smarthealth.cards/examples/issuer", keys: Data(contentsOf: issuer.appendingPathComponent("jwks.json")),
                               revocationLists: [kid: Data(contentsOf: issuer.appendingPathComponent("crl/\(kid).json"))])
        return person
    }

    @Test func cardsImportVerifiedOnceAndBadOnesAreRefusedWithTheirReason() throws {
        let person = try trustingPerson()
        let first = try person.importHealthCards(at: shcExamples.appendingPathComponent("example-00-e-file.smart-health-card"))
        #expect(first.verified.count == 1 && first.rejected.isEmpty)
        let record = try #require(first.verified.first)
        #expect(record.subject.fullName == "John B. Anyperson")
        #expect(record.subject.dateOfBirthComponents == DateComponents(year: 1951, month: 1, day: 20))
        #expect(record.issuerIdentifier == "https://spec.smarthealth.cards/examples/issuer")
        #expect(record.recordTypes == ["https://smarthealth.cards#health-card", "https://smarthealth.cards#immunization",
                                       "https://smarthealth.cards#covid19"])
        #expect(record.itemNames.count == 3 && record.itemNames[0].hasSuffix("(Moderna)"))
        #expect(record.relevantDate == Date(timeIntervalSince1970: 1_662_336_000))  // 2022-09-05, the last dose
        #expect(record.issuedDate == Date(timeIntervalSince1970: 1_687_450_764.656))
        #expect(record.sourceType == .smartHealthCard)
        #expect(String(decoding: record.dataRepresentation, as: UTF8.self) == String(decoding: try example("example-00-d-jws.txt"), as: UTF8.self)
                    .trimmingCharacters(in: .whitespacesAndNewlines))

        #expect(try person.importHealthCards(at: shcExamples.appendingPathComponent("example-00-f-qr-code-numeric-value-0.txt")).alreadyStored == 1)
        let chunks = try (0..<3).map { String(decoding: try example("example-02-f-qr-code-numeric-value-\($0).txt"), as: UTF8.self) }
        let labs = try person.importHealthCards(Data(chunks.joined(separator: "\n").utf8))
        #expect(labs.verified.first?.recordTypes.contains("https://smarthealth.cards#laboratory") == true)

        let revoked = try person.importHealthCards(at: shcExamples.appendingPathComponent("example-03-e-file.smart-health-card"))
        #expect(revoked.verified.isEmpty && revoked.rejected.first?.message.contains("revoked") == true)
        #expect(try person.verifiableClinicalRecords().count == 2)
    }

    @Test func aCardFromAnUnknownIssuerIsKeptOnlyWhenThePersonSaysSo() throws {
        let person = try HealthPerson(storeDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("ohk-\(UUID().uuidString)"))
        let card = shcExamples.appendingPathComponent("example-01-e-file.smart-health-card")
        let refused = try person.importHealthCards(at: card)
        #expect(refused.rejected.first?.message.contains("not among the trusted issuers") == true)
        #expect(try person.verifiableClinicalRecords().isEmpty)
        let kept = try person.importHealthCards(at: card, allowUnverified: true)
        #expect(kept.unverified.count == 1)
        #expect(try person.verifiableClinicalRecords().map(\.verified) == [false])
    }

    @Test func appsGetOnlyTheRecordsThePersonChoosesToShare() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-\(UUID().uuidString)")
        let person = try trustingPerson(in: folder)
        _ = try person.importHealthCards(at: shcExamples.appendingPathComponent("example-00-e-file.smart-health-card"))
        _ = try person.importHealthCards(at: shcExamples.appendingPathComponent("example-02-e-file.smart-health-card"))
        var app = AppManifest.stepsApp
        app.clinicalUsageDescription = "Checks your vaccination record."

        let presenter = ScriptedPresenter(.init(default: .deny, shareRecords: .allow))
        let store = HKHealthStore(configuration: .init(storeDirectory: folder, app: app, presenter: presenter))
        let immunizations = try await HKVerifiableClinicalRecordQueryDescriptor(recordTypes: [.immunization], sourceTypes: [.smartHealthCard])
            .result(for: store)
        #expect(immunizations.map(\.subject.fullName) == ["John B. Anyperson"])
        #expect(presenter.presentedRecordSheets.count == 1 && presenter.presentedRecordSheets[0].records.allSatisfy(\.verified))
        let found: [HKVerifiableClinicalRecord] = try await withCheckedThrowingContinuation { continuation in
            store.execute(HKVerifiableClinicalRecordQuery(recordTypes: ["https://smarthealth.cards#health-card"], predicate: nil) { _, records, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: records ?? []) }
            })
        }
        #expect(found.count == 2)
        let in2022 = HKQuery.predicateForVerifiableClinicalRecords(withRelevantDateWithin: DateInterval(
            start: Date(timeIntervalSince1970: 1_640_995_200), end: Date(timeIntervalSince1970: 1_672_531_199)))
        let recent = try await HKVerifiableClinicalRecordQueryDescriptor(recordTypes: [.immunization, .laboratory], sourceTypes: [], predicate: in2022)
            .result(for: store)
        #expect(recent.map(\.issuerIdentifier).count == 1 && recent[0].recordTypes.contains("https://smarthealth.cards#immunization"))

        // The person shares nothing, or closes the sheet.
        let declining = HKHealthStore(configuration: .init(storeDirectory: folder, app: app, presenter: ScriptedPresenter(.init(shareRecords: .deny))))
        #expect(try await HKVerifiableClinicalRecordQueryDescriptor(recordTypes: [.immunization], sourceTypes: []).result(for: declining).isEmpty)
        let closing = HKHealthStore(configuration: .init(storeDirectory: folder, app: app, presenter: ScriptedPresenter(.init(dismiss: true))))
        do {
            _ = try await HKVerifiableClinicalRecordQueryDescriptor(recordTypes: [.immunization], sourceTypes: []).result(for: closing)
            Issue.record("a closed sheet shared records")
        } catch let error as HKError {
            #expect(error.code == .errorUserCanceled)
        }
        // An app without a clinical usage description may not ask.
        let undeclared = HKHealthStore(configuration: .init(storeDirectory: folder, app: .stepsApp, presenter: presenter))
        await #expect(throws: HKError.self) {
            try await HKVerifiableClinicalRecordQueryDescriptor(recordTypes: [.immunization], sourceTypes: []).result(for: undeclared)
        }
    }
}
