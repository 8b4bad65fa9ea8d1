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
            """)

    @Option(help: "The app's manifest (JSON with Info.plist keys).")
    var app: String

    @Option(name: .customLong("write"), parsing: .upToNextOption, help: "Types the app asks to write.")
    var writeTypes: [String] = []

    @Option(name: .customLong("read"), parsing: .upToNextOption, help: "Types the app asks to read.")
    var readTypes: [String] = []

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let manifest = try loadManifest(app)
        var share = Set<HKSampleType>()
        for name in writeTypes {
            guard let type = try objectType(named: name) as? HKSampleType else { throw CommandFailure("\(name) cannot be written by apps") }
            share.insert(type)
        }
        let read = Set(try readTypes.map(objectType(named:)))
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
}
