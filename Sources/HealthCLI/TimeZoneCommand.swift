import ArgumentParser
import Foundation
import OpenHealthKit

/// `health timezone`: the time zone the person's days are counted in.
struct TimeZoneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timezone",
        abstract: "Show or set the time zone your days, weeks and months begin in (health stats, health query).",
        usage: "health timezone [ZONE | --clear]",
        discussion: """
            The rule: --time-zone on the command, else the zone set here, else the one your last imported export was \\
            recorded in (its HKTimeZone metadata), else this machine's (TZ). So the same store gives the same daily \\
            totals on your laptop and on a server in UTC.
            """)

    @Argument(help: "An IANA time zone name (Europe/Paris, America/Los_Angeles, UTC).")
    var zone: String?

    @Flag(help: "Forget the zone set here: the one learned from an export, or the machine's, applies again.")
    var clear = false

    @OptionGroup var store: StoreOptions

    func validate() throws {
        if clear && zone != nil { throw ValidationError("give a zone or --clear, not both") }
    }

    func run() throws {
        let person = try store.person()
        if clear {
            try reporting { try person.setTimeZone(nil) }
        } else if let zone {
            guard let parsed = TimeZone(identifier: zone) else {
                throw CommandFailure("\"\(zone)\" is not a time zone; give an IANA name such as Europe/Paris or UTC")
            }
            try reporting { try person.setTimeZone(parsed) }
        }
        if let setting = try reporting({ try person.timeZoneSetting() }) {
            print("\(setting.zone.identifier) (\(setting.byPerson ? "yours" : "from your export"))")
        } else {
            print("\(TimeZone.current.identifier) (this machine's: none set, none learned from an export)")
        }
    }
}
