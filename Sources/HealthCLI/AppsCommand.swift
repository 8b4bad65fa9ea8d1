import ArgumentParser
import OpenHealthKit

/// `health apps`: the apps that asked for access, the types each asked for and what the person decided.
struct AppsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps",
        abstract: "List the apps that asked for access, and the person's decisions per type.")

    @OptionGroup var store: StoreOptions

    func run() throws {
        let apps = try reporting { try store.person(creating: false).apps() }
        guard !apps.isEmpty else { return print("No app has registered with this store.") }
        for access in apps {
            print("\(access.app.name) (\(access.app.bundleIdentifier)\(access.app.version.map { " \($0)" } ?? ""))")
            if access.types.isEmpty { print("  asked for nothing yet") }
            let width = access.types.map(\.typeIdentifier.count).max() ?? 0
            for type in access.types {
                let write = type.shareRequested || type.share != nil ? "write \(Self.word(type.share))" : ""
                let read = type.readRequested || type.read != nil ? "read \(Self.word(type.read))" : ""
                print("  \(type.typeIdentifier.padding(toLength: width, withPad: " ", startingAt: 0))  "
                      + [write, read].filter { !$0.isEmpty }.joined(separator: ", "))
            }
        }
    }

    static func word(_ decision: Bool?) -> String {
        switch decision {
        case true?: "allowed"
        case false?: "denied"
        case nil: "not decided"
        }
    }
}
