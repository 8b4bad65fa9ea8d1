import Foundation
import Testing

/// `health medications`: the person tracks medications and logs doses from the terminal, on a real store; bad input is
/// one sentence naming it, and nothing is written.
@Suite("health CLI: medications")
struct MedicationsCommandTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-meds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func health(_ arguments: String...) async throws -> CLIRun {
        try await runHealth(arguments, in: folder, environment: ["OPENHEALTHKIT_STORE": folder.appendingPathComponent("store").path])
    }

    @Test func addLogArchiveAndRemoveAMedication() async throws {
        let added = try await health("medications", "add", "Ibuprofen 200 MG Oral Tablet", "--form", "tablet", "--rxnorm", "310965",
                                     "--nickname", "Headache pills")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout == "tracking Ibuprofen 200 MG Oral Tablet (“Headache pills”), tablet as 310965\n")
        let logged = try await health("medications", "log", "310965", "--dose", "2", "--at", "2026-11-23T08:00:00Z")
        #expect(logged.stdout == "logged taken for 310965 at 2026-11-23T08:00:00Z\n", "\(logged.stderr)")
        #expect(try await health("medications", "archive", "310965").status == 0)
        #expect(try await health("medications").stdout == "310965  Ibuprofen 200 MG Oral Tablet (“Headache pills”), tablet, archived\n")
        let removed = try await health("medications", "remove", "310965")
        #expect(removed.stdout == "removed 310965 and its 1 logged dose\n", "\(removed.stderr)")
        #expect(try await health("medications", "list").stdout == "You track no medications.\n")
    }

    @Test func badInputIsOneSentenceAndWritesNothing() async throws {
        let form = try await health("medications", "add", "Aspirin", "--form", "pill")
        #expect(form.status != 0 && form.stderr.contains("--form pill is not a medication form; use one of capsule, cream"), "\(form.stderr)")
        #expect(try await health("medications", "add", "Aspirin", "--rxnorm", "1191").status == 0)
        let twice = try await health("medications", "add", "Aspirin again", "--rxnorm", "1191")
        #expect(twice.status != 0 && twice.stderr.contains("medication 1191 is tracked already"), "\(twice.stderr)")
        let unknown = try await health("medications", "log", "999")
        #expect(unknown.status != 0 && unknown.stderr.contains("medication 999, which is not tracked"), "\(unknown.stderr)")
        let status = try await health("medications", "log", "1191", "--status", "eaten")
        #expect(status.status != 0 && status.stderr.contains("--status eaten is not a dose status"), "\(status.stderr)")
        let negative = try await health("medications", "log", "1191", "--dose", "-1")
        #expect(negative.status != 0 && negative.stderr.contains("must be a number of at least 0"), "\(negative.stderr)")
        let half = try await health("medications", "log", "1191", "--scheduled-at", "2026-11-23T08:00:00Z")
        #expect(half.status != 0 && half.stderr.contains("a scheduled dose needs its scheduled date and scheduled dose"), "\(half.stderr)")
        #expect(try await health("medications", "remove", "1191").stdout == "removed 1191 and its 0 logged doses\n")
    }
}
