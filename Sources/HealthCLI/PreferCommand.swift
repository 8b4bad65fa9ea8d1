import ArgumentParser
import Foundation
import OpenHealthKit

/// `health prefer`: the units the person sees each type in (Health's Settings → Units).
struct PreferCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prefer",
        abstract: "Show or set the unit a type is shown in (apps get it from preferredUnits(for:)).",
        usage: "health prefer [TYPE [UNIT]]",
        discussion: """
            Without arguments, lists the units set so far: yours, and those learned from an imported export (Apple's \\
            export writes values in your preferred units). health query and health stats show values in them.
            """)

    @Argument(help: "A quantity type (bodyMass, HKQuantityTypeIdentifierHeartRate).")
    var type: String?

    @Argument(help: "A unit string (lb, kg, count/min, degF).")
    var unit: String?

    @OptionGroup var store: StoreOptions

    func run() throws {
        let person = try store.person()
        guard let type else {
            let settings = try reporting { try person.preferredUnitSettings() }
            guard !settings.isEmpty else { return print("No preferred units set: every type shows in the usual unit where you live.") }
            for setting in settings {
                let name = TerminalPresenter.displayName(setting.type.identifier).padding(toLength: 34, withPad: " ", startingAt: 0)
                print("\(name) \(setting.unit.unitString.padding(toLength: 12, withPad: " ", startingAt: 0)) \(setting.byPerson ? "yours" : "from your export")")
            }
            return
        }
        guard let quantityType = try objectType(named: type) as? HKQuantityType else {
            throw CommandFailure("\(type) is not a quantity type: only quantities have units")
        }
        guard let unit else {
            return print("\(quantityType.identifier): \(try reporting { try person.preferredUnit(for: quantityType) }.unitString)")
        }
        let parsed = try reporting { try HKUnit.parse(unit) }
        try reporting { try person.setPreferredUnit(parsed, for: quantityType) }
        print("\(quantityType.identifier): \(parsed.unitString)")
    }
}
