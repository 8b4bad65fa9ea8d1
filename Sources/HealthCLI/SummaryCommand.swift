import ArgumentParser
import Foundation
import OpenHealthKit

/// `health summary`: what the store holds.
struct SummaryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summary",
        abstract: "What the store holds: per type, how many samples, from when to when, from which sources.")

    @OptionGroup var store: StoreOptions

    func run() throws {
        try Self.show(try store.person(creating: false))
    }

    /// Prints what `person`'s store holds, a line per type.
    static func show(_ person: HealthPerson) throws {
        let (lines, summaries, records) = try reporting { try person.contents() }
        guard !lines.isEmpty || records > 0 || summaries > 0 else { return print("The store is empty.") }
        let day = Date.ISO8601FormatStyle(timeZone: try reporting { try person.timeZone() }).year().month().day()
        for line in lines {
            let name = line.type is HKWorkoutType ? "Workouts" : TerminalPresenter.displayName(line.type.identifier)
            let sources = line.sources.prefix(3).joined(separator: ", ") + (line.sources.count > 3 ? ", …" : "")
            print("\(String(line.count).padding(toLength: 9, withPad: " ", startingAt: 0)) \(name.padding(toLength: 34, withPad: " ", startingAt: 0)) "
                  + "\(line.first.formatted(day)) – \(line.last.formatted(day))  \(sources)")
        }
        if summaries > 0 { print("\(String(summaries).padding(toLength: 9, withPad: " ", startingAt: 0)) activity summaries (daily rings)") }
        if records > 0 { print("\(String(records).padding(toLength: 9, withPad: " ", startingAt: 0)) health records") }
    }
}
