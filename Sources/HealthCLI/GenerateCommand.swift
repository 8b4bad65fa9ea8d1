import ArgumentParser
import Foundation
import OpenHealthKit

/// `health generate`: fill a store with a synthetic person.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Fill the store with a realistic synthetic person (phone and watch steps, heart rate, sleep, workouts, weight, medications).",
        discussion: """
            Examples:
              health generate                      a year, ending 2026-11-04
              health generate --days 30 --seed 7   a month, another person
            """)

    @Option(help: "How many days.")
    var days = 365

    @Option(help: "The random seed (the same seed gives the same data).")
    var seed: UInt64 = 1

    @Option(help: "Seconds between heart-rate readings while awake.")
    var heartRateInterval: Double = 5

    @OptionGroup var store: StoreOptions

    func run() throws {
        let person = try store.person()
        let started = Date()
        let plan = SyntheticPerson(days: days, seed: seed, heartRateInterval: heartRateInterval)
        let summary = try reporting {
            try person.generate(plan) { day in
                if day % 30 == 0 || day == plan.days {
                    FileHandle.standardError.write(Data("\rday \(day)/\(plan.days)".utf8))
                }
            }
        }
        FileHandle.standardError.write(Data("\n".utf8))
        let seconds = Date().timeIntervalSince(started)
        for (type, count) in summary.samplesByType.sorted(by: { $0.key < $1.key }) {
            print("\(String(count).padding(toLength: 9, withPad: " ", startingAt: 0)) \(type)")
        }
        print("\(String(summary.activitySummaries).padding(toLength: 9, withPad: " ", startingAt: 0)) activity summaries (daily rings)")
        print("\(String(summary.medications).padding(toLength: 9, withPad: " ", startingAt: 0)) medications tracked in the Health app, with their doses")
        print(String(format: "%d samples in %.1f s (%.0f/s), %@ to %@", summary.total, seconds, Double(summary.total) / max(seconds, 0.001),
                     summary.interval.start.formatted(.iso8601), summary.interval.end.formatted(.iso8601)))
    }
}
