import ArgumentParser
import Foundation
import OpenHealthKit

/// `health cards`: SMART Health Cards — trust issuers, import cards, list them.
struct CardsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cards",
        abstract: "Import SMART Health Cards (verified against issuers you trust) and list them.",
        subcommands: [Trust.self, Import.self, List.self])

    struct Trust: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Trust an issuer: keep its published keys (and revocation lists) for offline verification.",
            discussion: """
                Example:
                  health cards trust https://spec.smarthealth.cards/examples/issuer --jwks jwks.json --crl 3Kfdg-XwP-….json
                A revocation list's file name is its key id (<kid>.json), as issuers publish them.
                """)

        @Argument(help: "The issuer's URL (the iss of its cards).")
        var issuer: String

        @Option(help: "The issuer's JWKS file (what it publishes at <issuer>/.well-known/jwks.json).")
        var jwks: String

        @Option(help: "A revocation list file, named <kid>.json; repeat for several keys.")
        var crl: [String] = []

        @OptionGroup var store: StoreOptions

        func run() throws {
            let person = try store.person()
            var lists: [String: Data] = [:]
            for path in crl {
                let url = URL(fileURLWithPath: path)
                guard let data = try? Data(contentsOf: url) else { throw CommandFailure("cannot read \(path)") }
                lists[url.deletingPathExtension().lastPathComponent] = data
            }
            guard let keys = try? Data(contentsOf: URL(fileURLWithPath: jwks)) else { throw CommandFailure("cannot read \(jwks)") }
            try reporting { try person.trustIssuer(issuer, keys: keys, revocationLists: lists) }
            print("Trusted \(issuer) (\(lists.count) revocation list\(lists.count == 1 ? "" : "s")).")
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import cards: shc:/ QR text (all chunks of a chunked code), a .smart-health-card file, or a JWS.")

        @Argument(help: "The file holding the card(s).")
        var path: String

        @Flag(name: .customLong("allow-unverified"), help: "Keep a card whose issuer you do not trust, marked unverified.")
        var allowUnverified = false

        @OptionGroup var store: StoreOptions

        func run() throws {
            let person = try store.person()
            let summary = try reporting { try person.importHealthCards(at: URL(fileURLWithPath: path), allowUnverified: allowUnverified) }
            for record in summary.verified { print("verified: \(CardsCommand.line(record))") }
            for record in summary.unverified { print("kept unverified: \(CardsCommand.line(record))") }
            if summary.alreadyStored > 0 { print("\(summary.alreadyStored) already in the store") }
            for problem in summary.rejected { print("rejected: \(problem)") }
            if summary.verified.isEmpty && summary.unverified.isEmpty && summary.alreadyStored == 0 {
                throw CommandFailure(summary.rejected.count == 1
                    ? "the card in \(path) was not imported: \(summary.rejected[0].message)"
                    : "none of the \(summary.rejected.count) cards in \(path) was imported (the reasons are above)")
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the cards in the store, by relevant date.")

        @OptionGroup var store: StoreOptions

        func run() throws {
            let records = try reporting { try store.person().verifiableClinicalRecords() }
            guard !records.isEmpty else { return print("No health cards.") }
            for (record, verified) in records { print("\(verified ? "verified  " : "UNVERIFIED") \(CardsCommand.line(record))") }
        }
    }

    static func line(_ record: HKVerifiableClinicalRecord) -> String {
        let day = record.relevantDate.formatted(.iso8601.year().month().day())
        return "\(record.subject.fullName), \(day), \(record.itemNames.count) item\(record.itemNames.count == 1 ? "" : "s") from \(record.issuerIdentifier)"
    }
}
