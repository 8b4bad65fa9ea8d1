import ArgumentParser

/// `health`: OpenHealthKit's command-line tool.
@main
struct HealthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "health",
        abstract: "OpenHealthKit's command-line tool: HealthKit's catalog and units on Linux.",
        subcommands: [TypesCommand.self, ConvertCommand.self, UnitCommand.self]
    )
}
