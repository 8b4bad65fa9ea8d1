import ArgumentParser
import Foundation
import HealthStore
import OpenHealthKit

/// `health apps`: the apps that asked for access, the types each asked for and what the person decided; and the apps
/// that asked to connect to the daemon (`health serve`), which the person approves, denies or revokes.
struct AppsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps",
        abstract: "List the apps that asked for access; approve, deny or revoke the apps that connect to `health serve`.",
        subcommands: [AppsListCommand.self, AppsDecisionCommand<Approve>.self, AppsDecisionCommand<Deny>.self, AppsDecisionCommand<Revoke>.self],
        defaultSubcommand: AppsListCommand.self)

    static func word(_ decision: Bool?) -> String {
        switch decision {
        case true?: "allowed"
        case false?: "denied"
        case nil: "not decided"
        }
    }
}

/// `health apps` (`health apps list`).
struct AppsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the apps that asked for access, the person's decisions per type, and the daemon's registrations.")

    @OptionGroup var store: StoreOptions

    func run() throws {
        let person = try store.person(creating: false)
        let apps = try reporting { try person.apps() }
        let registrations = try reporting { try person.registrations() }
        if !registrations.isEmpty {
            print("Registrations with health serve:")
            let formatter = ISO8601DateFormatter()
            for registration in registrations {
                let credential = registration.credentialIssued ? ", credential issued" : ""
                print("  \(registration.id)  \(registration.state.rawValue)\(credential)  \(registration.manifest.name) "
                      + "(\(registration.manifest.bundleIdentifier))  asked \(formatter.string(from: registration.createdAt))")
            }
            if registrations.contains(where: { $0.state == .pending }) {
                print("  Decide with: health apps approve <id> (or deny <id>)")
            }
            if !apps.isEmpty { print("") }
        }
        guard !apps.isEmpty else {
            if registrations.isEmpty { print("No app has registered with this store.") }
            return
        }
        for access in apps {
            print("\(access.app.name) (\(access.app.bundleIdentifier)\(access.app.version.map { " \($0)" } ?? ""))")
            if access.types.isEmpty { print("  asked for nothing yet") }
            let width = access.types.map(\.typeIdentifier.count).max() ?? 0
            for type in access.types {
                let write = type.shareRequested || type.share != nil ? "write \(AppsCommand.word(type.share))" : ""
                let read = type.readRequested || type.read != nil ? "read \(AppsCommand.word(type.read))" : ""
                print("  \(type.typeIdentifier.padding(toLength: width, withPad: " ", startingAt: 0))  "
                      + [write, read].filter { !$0.isEmpty }.joined(separator: ", "))
            }
        }
    }
}

/// `health apps approve|deny|revoke <registration>`.
struct AppsDecisionCommand<Decision: RegistrationDecision>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: Decision.verb, abstract: Decision.abstract)
    }

    @OptionGroup var store: StoreOptions
    @Argument(help: "The registration: its id (from `health apps`), or the app's bundle identifier.")
    var registration: String

    func run() throws {
        let decided = try reporting { try store.person(creating: false).decideRegistration(registration, Decision.state) }
        print("\(decided.manifest.name) (\(decided.manifest.bundleIdentifier)), registration \(decided.id): \(Decision.outcome)")
    }
}

protocol RegistrationDecision {
    static var verb: String { get }
    static var abstract: String { get }
    static var state: AppRegistrations.State { get }
    static var outcome: String { get }
}

enum Approve: RegistrationDecision {
    static let verb = "approve"
    static let abstract = "Let an app that registered with `health serve` connect: it may then claim its credential, once."
    static let state = AppRegistrations.State.approved
    static let outcome = "approved; the app may now claim its credential, once"
}

enum Deny: RegistrationDecision {
    static let verb = "deny"
    static let abstract = "Refuse an app that registered with `health serve`."
    static let state = AppRegistrations.State.denied
    static let outcome = "denied"
}

enum Revoke: RegistrationDecision {
    static let verb = "revoke"
    static let abstract = "Disconnect an approved app: its credential stops working at the daemon's next request."
    static let state = AppRegistrations.State.revoked
    static let outcome = "revoked; its credential no longer works"
}
