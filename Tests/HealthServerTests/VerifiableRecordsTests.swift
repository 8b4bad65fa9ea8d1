import Foundation
import HealthAPI
import OpenHealthKit
import Testing
import TestSupport

private let shc = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../Fixtures/fhir/shc").standardizedFileURL
private let immunization = "https://smarthealth.cards#immunization"

/// The person trusts the spec's example issuer (its keys and revocation list) and imports two of its cards: an
/// immunization card and a laboratory one.
private func importCards(into person: HealthPerson) throws {
    let issuer = shc.appendingPathComponent("issuer/.well-known")
    let kid = "3Kfdg-XwP-7gXyywtUfUADwBumDOPKMQx-iELL11W9s"
    try person.trustIssuer("https://spec.smarthealth.cards/examples/issuer", keys: Data(contentsOf: issuer.appendingPathComponent("jwks.json")),
                           revocationLists: [kid: Data(contentsOf: issuer.appendingPathComponent("crl/\(kid).json"))])
    for card in ["example-00-e-file.smart-health-card", "example-02-e-file.smart-health-card"] {
        #expect(try person.importHealthCards(at: shc.appendingPathComponent("examples/\(card)")).verified.count == 1)
    }
}

/// `HKVerifiableClinicalRecordQuery` on both backends: the matching records go before the person on a record-sharing
/// sheet — the app's presenter embedded, a sheet the daemon holds until the person answers through it — and the app
/// gets only what the person shared, the same records either way.
@Suite("Verifiable clinical records, embedded and through the daemon")
struct VerifiableRecordsTests {

    /// An app that declares why it asks for clinical records.
    private func cardsApp(_ bundleIdentifier: String) -> AppManifest {
        AppManifest(bundleIdentifier: bundleIdentifier, name: "Cards", version: "1.0", shareUsageDescription: "Shows your data.",
                    updateUsageDescription: "Logs your data.", clinicalUsageDescription: "Checks your vaccination record.")
    }

    @Test(arguments: Backend.allCases)
    func theAppGetsTheRecordsThePersonSharesWithEveryField(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            try importCards(into: session.person())
            let store = try await session.app(cardsApp("com.example.cards"), answering: .init(default: .deny, shareRecords: .allow))
            let shared = try await HKVerifiableClinicalRecordQueryDescriptor(recordTypes: [.immunization], sourceTypes: [.smartHealthCard])
                .result(for: store)
            let held = try #require(try session.person().verifiableClinicalRecords().first { $0.record.recordTypes.contains(immunization) }?.record)
            let record = try #require(shared.first)
            #expect(shared.count == 1)
            #expect(record.uuid == held.uuid && record.startDate == held.startDate && record.endDate == held.endDate)
            #expect(record.recordTypes == held.recordTypes && record.issuerIdentifier == held.issuerIdentifier)
            #expect(record.subject.fullName == "John B. Anyperson" && record.subject.dateOfBirthComponents == DateComponents(year: 1951, month: 1, day: 20))
            #expect(record.issuedDate == held.issuedDate && record.relevantDate == held.relevantDate && record.expirationDate == held.expirationDate)
            #expect(record.itemNames == held.itemNames && record.itemNames.count == 3 && record.sourceType == .smartHealthCard)
            #expect(record.dataRepresentation == held.dataRepresentation)
            let sheets = try #require(session.presenter(for: "com.example.cards")).presentedRecordSheets
            #expect(sheets.count == 1 && sheets.first?.records.count == 1 && sheets.first?.records.allSatisfy(\.verified) == true)

            // The completion-handler query, every health card; then a relevant-date predicate (2022) narrows it.
            let all: [HKVerifiableClinicalRecord] = try await withCheckedThrowingContinuation { continuation in
                store.execute(HKVerifiableClinicalRecordQuery(recordTypes: ["https://smarthealth.cards#health-card"], predicate: nil) { _, records, error in
                    if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: records ?? []) }
                })
            }
            #expect(all.count == 2 && all.map(\.relevantDate) == all.map(\.relevantDate).sorted())
            let in2022 = HKQuery.predicateForVerifiableClinicalRecords(withRelevantDateWithin: DateInterval(
                start: Date(timeIntervalSince1970: 1_640_995_200), end: Date(timeIntervalSince1970: 1_672_531_199)))
            let recent = try await HKVerifiableClinicalRecordQueryDescriptor(recordTypes: [.immunization, .laboratory], sourceTypes: [], predicate: in2022)
                .result(for: store)
            #expect(recent.count == 1 && recent.first?.uuid == held.uuid)
        }
    }

    @Test(arguments: Backend.allCases)
    func sharingNoneClosingTheSheetNothingMatchingAndNoUsageDescription(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            try importCards(into: session.person())
            let declining = try await session.app(cardsApp("com.example.declining"), answering: .init(shareRecords: .deny))
            #expect(try await HKVerifiableClinicalRecordQueryDescriptor(recordTypes: [.immunization], sourceTypes: []).result(for: declining).isEmpty)

            let closing = try await session.app(cardsApp("com.example.closing"), answering: .init(dismiss: true))
            let closed = await #expect(throws: HKError.self) {
                try await HKVerifiableClinicalRecordQueryDescriptor(recordTypes: [.immunization], sourceTypes: []).result(for: closing)
            }
            #expect(closed?.code == .errorUserCanceled)

            // Nothing matching: no records, after the person saw an empty sheet (answering at once would tell the app
            // the person has no such records).
            let sharing = try await session.app(cardsApp("com.example.sharing"), answering: .init(shareRecords: .allow))
            let nothing = try await HKVerifiableClinicalRecordQueryDescriptor(recordTypes: [.init(rawValue: "https://smarthealth.cards#none")],
                                                                              sourceTypes: []).result(for: sharing)
            let sheets = session.presenter(for: "com.example.sharing")?.presentedRecordSheets
            #expect(nothing.isEmpty && sheets?.count == 1 && sheets?.first?.records.isEmpty == true)
            let noTypes = await #expect(throws: HKError.self) {
                try await HKVerifiableClinicalRecordQueryDescriptor(recordTypes: [], sourceTypes: []).result(for: sharing)
            }
            #expect(noTypes?.code == .errorInvalidArgument)

            // An app without a clinical usage description may not ask; no sheet is shown.
            let undeclared = try await session.app(.steps, answering: .init(shareRecords: .allow))
            let refused = await #expect(throws: HKError.self) {
                try await HKVerifiableClinicalRecordQueryDescriptor(recordTypes: [.immunization], sourceTypes: []).result(for: undeclared)
            }
            #expect(refused?.code == .errorInvalidArgument && refused?.message.contains("NSHealthClinicalHealthRecordsShareUsageDescription") == true)
            #expect(session.presenter(for: AppManifest.steps.bundleIdentifier)?.presentedRecordSheets.isEmpty == true)
        }
    }
}

/// What only the daemon has: the sheet waits in the store for the person, who answers it at the terminal, and a sheet
/// nobody answers in time counts as closed.
@Suite("The daemon: record-sharing sheets")
struct RecordSharingSheetTests {
    @Test func healthAuthorizePendingSharesTheRecordsThePersonChooses() async throws {
        try await DaemonHarness.with { daemon in
            let person = try daemon.person()
            try importCards(into: person)
            let token = try await daemon.connect("com.example.cards", name: "Cards", clinical: "Checks your vaccination record.")
            let client = daemon.client(token: token)
            let query = Task {
                try await client.queryVerifiableRecords(body: .json(.init(recordTypes: ["https://smarthealth.cards#health-card"])))
            }
            while try person.pendingRecordSharingRequests().isEmpty { try await Task.sleep(for: .milliseconds(20)) }
            // The person shares the first card (by relevant date) and not the second.
            let shown = try await daemon.answerAtTheTerminal("y\nn\n")
            #expect(shown.hasPrefix("Cards (com.example.cards) asks for your verifiable health records.\n  Why: Checks your vaccination record.\n"), "\(shown)")
            #expect(shown.hasSuffix("Shared 1 of 2.\n"), "\(shown)")
            let records = try await query.value.ok.body.json.records
            let first = try #require(try person.verifiableClinicalRecords().map(\.record).min { $0.relevantDate < $1.relevantDate })
            #expect(records.count == 1 && records.first?.uuid == first.uuid.uuidString)
            // The access log counts what was shared, nothing of what was not.
            let logged = try await AccessLogTests.lines(daemon, count: 1).filter { $0.operation == "verifiableRecordQuery" }
            #expect(logged == [.init(app: "com.example.cards", operation: "verifiableRecordQuery", type: HKVerifiableClinicalRecord.sampleTypeIdentifier,
                                     count: 1, outcome: "allowed")], "\(logged)")
            #expect(try await ChildProcess.run(ServeCommandTests.executable, arguments: ["authorize", "--pending", "--store", daemon.store.path])
                        == "No app is waiting for an answer.\n")

            // Nothing matching still waits for the person, who is told there is nothing to share.
            let none = Task { try await client.queryVerifiableRecords(body: .json(.init(recordTypes: ["https://smarthealth.cards#none"]))) }
            while try person.pendingRecordSharingRequests().isEmpty { try await Task.sleep(for: .milliseconds(20)) }
            let told = try await daemon.answerAtTheTerminal("")
            #expect(told.contains("You have no records of the kinds it asks for; nothing is shared.\nShared nothing.\n"), "\(told)")
            #expect(try await none.value.ok.body.json.records.isEmpty)
        }
    }

    @Test(.timeLimit(.minutes(3)))
    func aSheetNobodyAnswersInTimeIs409UserCanceled() async throws {
        try await DaemonHarness.with { daemon in
            let person = try daemon.person()
            _ = try person.importHealthCards(at: shc.appendingPathComponent("examples/example-00-e-file.smart-health-card"), allowUnverified: true)
            let token = try await daemon.connect("com.example.cards", name: "Cards", clinical: "Checks your vaccination record.")
            let answer = try await daemon.raw(.POST, "/v1/queries/verifiable-records",
                                              body: #"{"recordTypes":["\#(immunization)"],"timeoutSeconds":1}"#, token: token)
            #expect(answer.status == 409 && answer.json["title"] as? String == "errorUserCanceled", "\(answer.body)")
            #expect(try person.pendingRecordSharingRequests().isEmpty, "the expired sheet no longer waits")
        }
    }
}
