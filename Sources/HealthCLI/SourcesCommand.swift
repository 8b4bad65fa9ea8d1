import ArgumentParser
import Foundation
import OpenHealthKit

/// `health sources`: who wrote the store's data.
struct SourcesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sources",
        abstract: "The sources in the store — devices, apps, institutions — with how many samples each wrote.",
        discussion: "For one type's order of precedence, see `health priority TYPE`.")

    @OptionGroup var store: StoreOptions

    func run() throws {
        let sources = try reporting { try store.person().sources() }
        guard !sources.isEmpty else { return print("No source has written anything.") }
        for (source, samples) in sources {
            print("\(String(samples).padding(toLength: 9, withPad: " ", startingAt: 0)) \(source.name) (\(source.bundleIdentifier))")
        }
    }
}
