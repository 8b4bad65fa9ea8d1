import ArgumentParser
import OpenHealthKit

/// `health permission`: the person allows or denies an app a type, at once.
struct PermissionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "permission",
        abstract: "Allow or deny an app writing or reading a type; applies at once.",
        discussion: """
            Examples:
              health permission com.example.steps stepCount --write deny --read deny
              health permission com.example.steps --revoke-all
            """)

    enum Decision: String, ExpressibleByArgument { case allow, deny }

    @Argument(help: "The app's bundle identifier.")
    var app: String

    @Argument(help: "The type: an identifier or short name (stepCount).")
    var type: String?

    @Option(help: "allow or deny writing.")
    var write: Decision?

    @Option(help: "allow or deny reading.")
    var read: Decision?

    @Flag(help: "Deny every type the app was allowed.")
    var revokeAll = false

    @OptionGroup var store: StoreOptions

    func validate() throws {
        if revokeAll { guard type == nil, write == nil, read == nil else { throw ValidationError("--revoke-all takes no type or decision") } }
        else {
            guard type != nil else { throw ValidationError("give a type, or --revoke-all") }
            guard write != nil || read != nil else { throw ValidationError("give --write and/or --read") }
        }
    }

    func run() throws {
        let person = try store.person()
        if revokeAll {
            try reporting { try person.revokeAll(app: app) }
            return print("\(app): every permission revoked")
        }
        let objectType = try objectType(named: type!)
        try reporting {
            try person.setPermission(app: app, type: objectType, share: write.map { $0 == .allow }, read: read.map { $0 == .allow })
        }
        print("\(app) \(objectType.identifier): " + [write.map { "write \($0 == .allow ? "allowed" : "denied")" },
                                                     read.map { "read \($0 == .allow ? "allowed" : "denied")" }]
            .compactMap { $0 }.joined(separator: ", "))
    }
}
