import ArgumentParser
import Foundation
import OpenHealthKit

/// `health medications`: the medications the person tracks and the doses they log, as the Health app's Medications.
/// Apps read them only once the person shares them (`requestPerObjectReadAuthorization`, answered with
/// `health authorize --pending` or in the web app).
struct MedicationsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "medications",
        abstract: "List, add, change and remove the medications you track, and log their doses.",
        discussion: """
            Examples:
              health medications add "Ibuprofen 200 MG Oral Tablet" --form tablet --rxnorm 310965 --nickname "Headache pills"
              health medications log 310965 --status taken --dose 2 --unit count --at 2026-11-23T08:00:00Z
              health medications archive 310965
            A medication is named by its identifier (its RxNorm code when it has one), as `health medications` lists it.
            """,
        subcommands: [List.self, Add.self, Log.self, Archive.self, Unarchive.self, Remove.self],
        defaultSubcommand: List.self)

    /// `health medications list`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the medications you track, with their identifiers.")
        @OptionGroup var store: StoreOptions

        func run() throws {
            let medications = try reporting { try store.person(creating: false).medications() }
            if medications.isEmpty { print("You track no medications.") }
            for medication in medications {
                let schedule = medication.hasSchedule ? ", scheduled" : ""
                print("\(medication.medication.identifier.underlyingIdentifier)  \(medication.summary)\(schedule)")
            }
        }
    }

    /// `health medications add`.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Start tracking a medication.")
        @Argument(help: "Its name, as you want to read it.")
        var name: String
        @Option(help: "Its form: \(HKMedicationGeneralForm.all.map(\.name).joined(separator: ", ")).")
        var form = "unknown"
        @Option(help: "Its RxNorm code (then also its identifier).")
        var rxnorm: String?
        @Option(help: "Your nickname for it.")
        var nickname: String?
        @Flag(help: "It has a reminder schedule.")
        var scheduled = false
        @OptionGroup var store: StoreOptions

        func run() throws {
            guard let generalForm = HKMedicationGeneralForm.named(form) else {
                throw CommandFailure("--form \(form) is not a medication form; use one of \(HKMedicationGeneralForm.all.map(\.name).joined(separator: ", "))")
            }
            let codings: Set<HKClinicalCoding> = rxnorm.map { [HKClinicalCoding(system: HKClinicalCoding.rxNormSystem, version: nil, code: $0)] } ?? []
            let person = try store.person()
            let added = try reporting { try person.addMedication(named: name, form: generalForm, codings: codings, nickname: nickname, hasSchedule: scheduled) }
            print("tracking \(added.summary) as \(added.medication.identifier.underlyingIdentifier)")
        }
    }

    /// `health medications log`.
    struct Log: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Log a dose of a medication you track.")
        @Argument(help: "The medication's identifier (health medications lists them).")
        var medication: String
        @Option(help: "taken, skipped, snoozed, not-interacted, notification-not-sent or not-logged.")
        var status = "taken"
        @Option(help: "The dose taken.")
        var dose: NumberArgument?
        @Option(help: "The unit of the doses, in HealthKit's grammar (count, mg, IU).")
        var unit = "count"
        @Option(help: "When (ISO 8601); now by default.")
        var at: String?
        @Option(help: "For a scheduled dose: when it was due (ISO 8601).")
        var scheduledAt: String?
        @Option(help: "For a scheduled dose: the dose due.")
        var scheduledDose: NumberArgument?
        @OptionGroup var store: StoreOptions

        static let statuses: [String: HKMedicationDoseEvent.LogStatus] = [
            "taken": .taken, "skipped": .skipped, "snoozed": .snoozed, "not-interacted": .notInteracted,
            "notification-not-sent": .notificationNotSent, "not-logged": .notLogged,
        ]

        func run() throws {
            guard let logStatus = Self.statuses[status] else {
                throw CommandFailure("--status \(status) is not a dose status; use one of \(Self.statuses.keys.sorted().joined(separator: ", "))")
            }
            let date = try at.map { try DateArgument.instant($0, option: "--at") } ?? Date()
            let due = try scheduledAt.map { try DateArgument.instant($0, option: "--scheduled-at") }
            let doseUnit = try reporting { try HKUnit.parse(unit) }
            let person = try store.person()
            let event = try reporting {
                try person.logDose(of: .medication(medication), status: logStatus, at: date, dose: dose?.double, unit: doseUnit,
                                   scheduledDate: due, scheduledDose: scheduledDose?.double)
            }
            print("logged \(status) for \(medication) at \(event.startDate.formatted(.iso8601))")
        }
    }

    /// `health medications archive`.
    struct Archive: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Move a medication to the archived ones.")
        @Argument(help: "The medication's identifier.") var medication: String
        @OptionGroup var store: StoreOptions
        func run() throws {
            try reporting { try store.person(creating: false).updateMedication(.medication(medication), isArchived: true) }
            print("archived \(medication)")
        }
    }

    /// `health medications unarchive`.
    struct Unarchive: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Bring an archived medication back.")
        @Argument(help: "The medication's identifier.") var medication: String
        @OptionGroup var store: StoreOptions
        func run() throws {
            try reporting { try store.person(creating: false).updateMedication(.medication(medication), isArchived: false) }
            print("unarchived \(medication)")
        }
    }

    /// `health medications remove`.
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop tracking a medication; its logged doses are deleted.")
        @Argument(help: "The medication's identifier.") var medication: String
        @OptionGroup var store: StoreOptions
        func run() throws {
            let doses = try reporting { try store.person(creating: false).removeMedication(.medication(medication)) }
            print("removed \(medication) and its \(doses) logged dose\(doses == 1 ? "" : "s")")
        }
    }
}
