import ArgumentParser
import Foundation
import OpenHealthKit

/// `health records`: import health records (FHIR) and list them.
struct RecordsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "records",
        abstract: "Import health records (FHIR resources) and list them.",
        subcommands: [Import.self, List.self])

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import FHIR JSON: a resource, a Bundle, a folder of them, or an Apple Health export.",
            discussion: """
                Examples:
                  health records import apple_health_export                       institutions, versions and dates from export.xml
                  health records import patient.json --provider "City Clinic"     plain FHIR: name the institution
                  health records import bundle.json --provider "City Clinic" --url https://fhir.city.example/R4 --fhir-version 4.0.1
                Importing the same records again adds nothing; a newer version of a resource replaces the old one.
                """)

        @Argument(help: "A FHIR JSON file, a folder, an Apple Health export folder or its export.xml.")
        var path: String

        @Option(help: "The institution the records come from (needed for plain FHIR files).")
        var provider: String?

        @Option(help: "The institution's FHIR base URL.")
        var url: String?

        @Option(name: .customLong("fhir-version"), help: "The FHIR version of the files (1.0.2 for DSTU2, 4.0.1 for R4) when their shape does not tell.")
        var fhirVersion: String?

        @Flag(help: "Print every ignored resource too, not only the rejected ones.")
        var verbose = false

        @OptionGroup var store: StoreOptions

        func run() throws {
            let person = try store.person()
            let summary = try reporting {
                try person.importClinicalRecords(at: URL(fileURLWithPath: path), provider: provider, providerURL: url.flatMap(URL.init(string:)),
                                                 fhirVersion: fhirVersion)
            }
            print("\(summary.files) file\(summary.files == 1 ? "" : "s"): \(summary.added) records added, \(summary.updated) updated, \(summary.unchanged) unchanged, "
                  + "\(summary.patients) patient resources kept, \(summary.ignored.count) ignored, \(summary.rejected.count) rejected")
            for problem in summary.rejected { print("rejected: \(TerminalText("\(problem)"))") }
            if verbose { for problem in summary.ignored { print("ignored: \(TerminalText("\(problem)"))") } }
            // Nothing taken and something refused is a failed import, not a quiet success.
            if summary.added + summary.updated + summary.unchanged == 0, !summary.rejected.isEmpty {
                throw CommandFailure("no health record was imported: all \(summary.rejected.count) were rejected (see above)")
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the health records, oldest received first.")

        @Option(help: "Only this clinical type (labResultRecord, medicationRecord, …).")
        var type: String?

        @OptionGroup var store: StoreOptions

        func run() throws {
            var clinicalType: HKClinicalType?
            if let type {
                guard let found = try objectType(named: type) as? HKClinicalType else { throw CommandFailure("\(type) is not a clinical type") }
                clinicalType = found
            }
            let records = try reporting { try store.person().clinicalRecords(of: clinicalType) }
            guard !records.isEmpty else { return print("No health records.") }
            let short = "HKClinicalTypeIdentifier"
            for record in records {
                let kind = record.clinicalType.identifier.hasPrefix(short) ? String(record.clinicalType.identifier.dropFirst(short.count)) : record.clinicalType.identifier
                let resource = record.fhirResource.map { "\($0.resourceType.rawValue)/\($0.identifier) FHIR \($0.fhirVersion.stringRepresentation)" } ?? ""
                print("\(record.startDate.formatted(.iso8601))  \(kind.padding(toLength: 19, withPad: " ", startingAt: 0)) \(record.displayName)  [\(record.sourceRevision.source.name): \(resource)]")
            }
        }
    }
}
