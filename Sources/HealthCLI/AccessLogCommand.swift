import ArgumentParser
import Foundation
import OpenHealthKit

/// `health access-log`: what each app read and wrote through `health serve`, newest first.
struct AccessLogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "access-log",
        abstract: "Show what apps read and wrote through `health serve`: when, which app, which operation on which type, how many objects.",
        discussion: "Entries are kept 90 days (at most a million). HealthKit shows the person nothing like it.")

    @OptionGroup var store: StoreOptions
    @Option(help: "Only this app (its bundle identifier).")
    var app: String?
    @Option(help: "Only this type: an identifier or short name (stepCount).")
    var type: String?
    @Option(help: "Only from this time on (2026-11-23T08:00:00Z).")
    var since: String?
    @Option(help: "Only before this time.")
    var until: String?
    @Option(help: "At most this many entries.")
    var limit = 100

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit \(limit) must be at least 1") }
    }

    func run() throws {
        let typeIdentifier = try type.map { try objectType(named: $0).identifier }
        let from = try since.map { try DateArgument.instant($0, option: "--since") }
        let to = try until.map { try DateArgument.instant($0, option: "--until") }
        let entries = try reporting {
            try store.person(creating: false).accessLog(app: app, type: typeIdentifier, since: from, until: to, limit: limit)
        }
        guard !entries.isEmpty else { return print("No app has read or written anything through health serve\(app == nil && type == nil && since == nil && until == nil ? "" : " that matches").") }
        let formatter = ISO8601DateFormatter()
        let appWidth = entries.map(\.app.count).max() ?? 0, operationWidth = entries.map(\.operation.count).max() ?? 0
        let typeWidth = entries.map { ($0.type ?? "-").count }.max() ?? 0
        for entry in entries {
            print([formatter.string(from: entry.time), entry.app.padding(toLength: appWidth, withPad: " ", startingAt: 0),
                   entry.operation.padding(toLength: operationWidth, withPad: " ", startingAt: 0),
                   (entry.type ?? "-").padding(toLength: typeWidth, withPad: " ", startingAt: 0),
                   String(entry.count).leftPadded(to: 6), entry.outcome].joined(separator: "  "))
        }
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
