import ArgumentParser
import Foundation
import OpenHealthKit

/// `health add`: save a quantity sample as an app, through `HKHealthStore` and its rules.
struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Save a quantity sample as an app (the app must be allowed to write the type).",
        discussion: """
            Example:
              health add --app steps.json stepCount 1200 count --start 2026-11-23T08:00:00Z --end 2026-11-23T09:00:00Z
            Dates are ISO 8601; both default to now.
            """)

    @Option(help: "The app's manifest (JSON with Info.plist keys).")
    var app: String

    @Argument(help: "The quantity type: an identifier or short name (stepCount).")
    var type: String

    @Argument(help: "The value (may be negative).")
    var value: NumberArgument

    @Argument(help: "The unit, in HealthKit's grammar (count, kg, count/min).")
    var unit: String

    @Option(help: "When the sample starts (ISO 8601).")
    var start: String?

    @Option(help: "When the sample ends (ISO 8601).")
    var end: String?

    @Option(help: "Save that many copies, one transaction each.")
    var times = 1

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let manifest = try loadManifest(app)
        guard let quantityType = try objectType(named: type) as? HKQuantityType else {
            throw CommandFailure("\(type) is not a quantity type")
        }
        let from = try start.map { try DateArgument.instant($0, option: "--start") } ?? Date()
        let to = try end.map { try DateArgument.instant($0, option: "--end") } ?? from
        try store.unlockIfEncrypted()
        let healthStore = HKHealthStore(configuration: .init(storeDirectory: store.directory, app: manifest, presenter: TerminalPresenter()))
        do {
            let quantity = HKQuantity(unit: try HKUnit.parse(unit), doubleValue: value.double)
            for _ in 0..<max(times, 1) {
                try await healthStore.save(try HKQuantitySample.validated(type: quantityType, quantity: quantity, start: from, end: to))
            }
        } catch let error as HKError {
            throw CommandFailure(error.message)
        }
        print("saved \(max(times, 1)) \(quantityType.identifier) sample\(times > 1 ? "s" : "")")
    }
}

/// An app manifest from a JSON file, or one sentence naming the file and what is wrong with it.
func loadManifest(_ path: String) throws -> AppManifest {
    let data: Data
    do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
        throw CommandFailure("cannot read the app manifest \(path): \(FileProblem(error))")
    }
    do {
        return try JSONDecoder().decode(AppManifest.self, from: data)
    } catch {
        throw CommandFailure("\(path) is not an app manifest (JSON with CFBundleIdentifier and CFBundleName): \(FileProblem(error, json: data))")
    }
}
