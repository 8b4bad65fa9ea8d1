import ArgumentParser
import Foundation
import OpenHealthKit

/// `health authorize`: an app's authorization request, answered by the person at the terminal.
struct AuthorizeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "authorize",
        abstract: "Request access for an app and answer the authorization sheet in the terminal.",
        discussion: """
            The app is described by a manifest JSON file with Info.plist's keys (CFBundleIdentifier, CFBundleName,
            NSHealthShareUsageDescription, NSHealthUpdateUsageDescription...). Only types not decided yet are asked.
            Example:
              health authorize --app steps.json --write stepCount --read stepCount heartRate
            With --pending, answers instead what apps asked through `health serve` and wait for: authorization
            requests, then verifiable-record queries (which of the matching health cards to share), then per-object
            requests (which vision prescriptions an app may read).
            """)

    @Option(help: "The app's manifest (JSON with Info.plist keys).")
    var app: String?

    @Flag(help: "Answer the authorization requests, record-sharing and per-object sheets waiting in `health serve`, oldest first.")
    var pending = false

    @Option(name: .customLong("write"), parsing: .upToNextOption, help: "Types the app asks to write.")
    var writeTypes: [String] = []

    @Option(name: .customLong("read"), parsing: .upToNextOption, help: "Types the app asks to read.")
    var readTypes: [String] = []

    @OptionGroup var store: StoreOptions

    func validate() throws {
        if pending, app != nil || !writeTypes.isEmpty || !readTypes.isEmpty {
            throw ValidationError("--pending answers the apps' own requests; it takes no --app, --write or --read")
        }
        if !pending, app == nil { throw ValidationError("give the app's manifest with --app, or answer waiting requests with --pending") }
    }

    func run() async throws {
        guard let app else { return try await answerPending() }
        let manifest = try loadManifest(app)
        var share = Set<HKSampleType>()
        for name in writeTypes {
            guard let type = try objectType(named: name) as? HKSampleType else { throw CommandFailure("\(name) cannot be written by apps") }
            share.insert(type)
        }
        let read = Set(try readTypes.map(objectType(named:)))
        try store.unlockIfEncrypted()
        let healthStore = HKHealthStore(configuration: .init(storeDirectory: store.directory, app: manifest, presenter: TerminalPresenter()))
        do {
            try await healthStore.requestAuthorization(toShare: share, read: read)
        } catch let error as HKError {
            throw CommandFailure(error.message)
        }
        for type in share.sorted(by: { $0.identifier < $1.identifier }) {
            print("\(type.identifier): \(healthStore.authorizationStatus(for: type))")
        }
    }

    /// Each waiting request, put to the person in the terminal — authorization sheets, then record-sharing sheets —
    /// oldest first; the app waiting in the daemon gets the answer.
    private func answerPending() async throws {
        let person = try store.person(creating: false)
        let requests = try reporting { try person.pendingAuthorizationRequests() }
        let recordShares = try reporting { try person.pendingRecordSharingRequests() }
        let objectReads = try reporting { try person.pendingObjectReadRequests() }
        guard !requests.isEmpty || !recordShares.isEmpty || !objectReads.isEmpty else { return print("No app is waiting for an answer.") }
        let presenter = TerminalPresenter()
        for request in requests {
            let response = await presenter.present(request.sheet)
            let delivered = try reporting { try person.answerAuthorizationRequest(request.id, response) }
            print(delivered ? (response == .dismissed ? "Closed without deciding." : "Answered.")
                            : "\(request.sheet.app.name) stopped waiting before the answer; it will ask again.")
        }
        for request in recordShares {
            // Records the person deleted since the app asked are not offered.
            let response = await presenter.present(request.sheet)
            let delivered = try reporting { try person.answerRecordSharingRequest(request.id, response) }
            let answer = switch response {
            case .cancelled: "Closed without sharing."
            case .share(let chosen): chosen.isEmpty ? "Shared nothing." : "Shared \(chosen.count) of \(request.sheet.records.count)."
            }
            print(delivered ? answer : "\(request.sheet.app.name) stopped waiting before the answer; it will ask again.")
        }
        for request in objectReads {
            // Objects the person deleted since the app asked are not offered.
            let response = await presenter.present(request.sheet)
            let delivered = try reporting { try person.answerObjectReadRequest(request.id, response) }
            let answer = switch response {
            case .dismissed: "Closed without deciding."
            case .allow(let chosen): chosen.isEmpty ? "It may read none of them." : "It may read \(chosen.count) of \(request.sheet.objects.count)."
            }
            print(delivered ? answer : "\(request.sheet.app.name) stopped waiting before the answer; it will ask again.")
        }
    }
}
