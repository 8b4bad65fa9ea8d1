import ArgumentParser
import Foundation
import HealthStore
import OpenHealthKit

/// `health deliveries`: the background deliveries `health serve` made to apps' callback URLs, newest first, with the
/// failures and why.
struct DeliveriesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deliveries",
        abstract: "Show the background deliveries `health serve` made to apps' callback URLs: when, to which app, which types, whether they arrived.",
        discussion: """
            A delivery tells an app that types it enabled with enableBackgroundDelivery changed. It is kept until the \
            app's callback takes it, retried with growing waits, and survives a restart of the daemon; after 20 failed \
            attempts it is marked failed. Kept 30 days.
            """)

    @OptionGroup var store: StoreOptions
    @Option(help: "Only this app (its bundle identifier).")
    var app: String?
    @Option(help: "Only deliveries in this state: pending, delivered, failed or cancelled.")
    var state: String?
    @Option(help: "At most this many deliveries.")
    var limit = 100

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit \(limit) must be at least 1") }
        if let state, BackgroundDeliveryQueue.State(rawValue: state) == nil {
            throw ValidationError("--state \(state): not a state; use pending, delivered, failed or cancelled")
        }
    }

    func run() throws {
        let (callbacks, deliveries) = try reporting {
            let person = try store.person(creating: false)
            return (try person.deliveryCallbacks().filter { app == nil || $0.app == app },
                    try person.deliveries(app: app, state: state.flatMap(BackgroundDeliveryQueue.State.init(rawValue:)), limit: limit))
        }
        let formatter = ISO8601DateFormatter()
        if callbacks.isEmpty {
            print("No app has a callback URL\(app.map { " (\($0))" } ?? "").")
        } else {
            print("Callbacks:")
            for callback in callbacks { print("  \(callback.app)  \(callback.url.absoluteString)  since \(formatter.string(from: callback.registeredAt))") }
        }
        guard !deliveries.isEmpty else {
            return print("No deliveries\(app == nil && state == nil ? "" : " that match").")
        }
        print("Deliveries (newest first):")
        let appWidth = deliveries.map(\.app.count).max() ?? 0
        for delivery in deliveries {
            let types = delivery.types.map(Self.shortName).joined(separator: ",")
            var line = [formatter.string(from: delivery.createdAt), delivery.app.padding(toLength: appWidth, withPad: " ", startingAt: 0),
                        delivery.state.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0),
                        "\(delivery.attempts) attempt\(delivery.attempts == 1 ? "" : "s")", types].joined(separator: "  ")
            switch delivery.state {
            case .pending where delivery.lastError != nil:
                line += "  next at \(formatter.string(from: delivery.nextAttemptAt)): \(delivery.lastError!)"
            case .failed, .cancelled:
                line += delivery.lastError.map { "  \($0)" } ?? ""
            default: break
            }
            print(line)
        }
    }

    /// The catalog's short names (`stepCount` for `HKQuantityTypeIdentifierStepCount`), as `health types` lists them.
    static let shortNames = Dictionary(TypesCommand.rows().map { ($0.identifier, $0.swiftName) }, uniquingKeysWith: { first, _ in first })

    static func shortName(_ identifier: String) -> String { shortNames[identifier] ?? identifier }
}
