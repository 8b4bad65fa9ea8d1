import ArgumentParser
import OpenHealthKit

/// `health priority`: show or set the order of a type's sources.
struct PriorityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "priority",
        abstract: "Show or set which sources win, per type, when their data overlaps.",
        discussion: """
            Examples:
              health priority stepCount                                    show the order
              health priority stepCount com.example.watch com.example.phone   put these first
            """)

    @Argument(help: "The type: an identifier or short name (stepCount).")
    var type: String

    @Argument(help: "Bundle identifiers, first wins.")
    var sources: [String] = []

    @OptionGroup var store: StoreOptions

    func run() throws {
        guard let sampleType = try objectType(named: type) as? HKSampleType else {
            throw CommandFailure("\(type) is not a sample type; only samples have sources")
        }
        let person = try store.person()
        if !sources.isEmpty { try reporting { try person.setSourcePriority(sources, for: sampleType) } }
        let order = try reporting { try person.sourcePriority(for: sampleType) }
        guard !order.isEmpty else { return print("No source has written \(sampleType.identifier).") }
        for (index, source) in order.enumerated() { print("\(index + 1). \(source.name) (\(source.bundleIdentifier))") }
    }
}
