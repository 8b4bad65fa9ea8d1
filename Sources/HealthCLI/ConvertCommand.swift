import ArgumentParser
import Foundation
import HealthModel

/// `health convert`: converts a value between HealthKit units with the real unit engine.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a value between HealthKit units.",
        discussion: """
            Units use HealthKit's unit-string grammar. Examples:
              health convert 72 count/min count/s
              health convert 100 mg/dL "mmol<180.15588000005408>/L"
              health convert 98.6 degF degC
            """
    )

    @Argument(help: "The value to convert (may be negative).")
    var value: NumberArgument

    @Argument(help: "The unit the value is in, e.g. lb, count/min, kcal/(kg*hr).")
    var from: String

    @Argument(help: "The unit to convert to.")
    var to: String

    func run() throws {
        let source: HKUnit
        let target: HKUnit
        do {
            source = try HKUnit.parse(from)
            target = try HKUnit.parse(to)
        } catch let error as HKError {
            throw CommandFailure(error.message)
        }
        do {
            let converted = try HKQuantity(unit: source, doubleValue: value.double).value(in: target)
            print("\(format(value.double)) \(source.unitString) = \(format(converted)) \(target.unitString)")
        } catch let error as HKError {
            throw CommandFailure(error.message)
        }
    }
}

/// Prints a double without a trailing ".0" for whole numbers, with up to 15 significant digits.
func format(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    var text = String(format: "%.15g", value)
    if text.contains("e") { return text }
    while text.contains("."), text.last == "0" { text.removeLast() }
    return text
}
