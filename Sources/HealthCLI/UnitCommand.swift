import ArgumentParser
import Foundation
import HealthModel

/// `health unit`: shows how HealthKit reads a unit string.
struct UnitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unit",
        abstract: "Parse a HealthKit unit string and show its canonical form and dimension.",
        discussion: """
            Example:
              health unit "ml/(kg*min)"
            """
    )

    @Argument(help: "A HealthKit unit string.")
    var unitString: String

    func run() throws {
        do {
            let unit = try HKUnit.parse(unitString)
            print("unit:      \(unit.unitString)")
            print("dimension: \(unit.dimension)")
            let types = HealthCatalog.quantityTypes.filter { HKQuantityType(info: $0).is(compatibleWith: unit) }
            print("fits:      \(types.isEmpty ? "no quantity type" : types.map(\.swiftName).joined(separator: ", "))")
        } catch let error as HKError {
            throw CommandFailure(error.message)
        }
    }
}
