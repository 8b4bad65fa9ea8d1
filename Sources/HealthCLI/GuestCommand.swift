import ArgumentParser
import OpenHealthKit

/// `health guest`: enter or leave guest mode, or show it.
struct GuestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "guest",
        abstract: "Turn guest mode on or off (apps may read what they were allowed; nothing is saved or deleted).")

    enum Switch: String, ExpressibleByArgument { case on, off, status }

    @Argument(help: "on, off or status.")
    var mode: Switch = .status

    @OptionGroup var store: StoreOptions

    func run() throws {
        let person = try store.person()
        if mode != .status { try reporting { try person.setGuestMode(mode == .on) } }
        print("guest mode: \(try reporting { try person.isGuestMode() } ? "on" : "off")")
    }
}
