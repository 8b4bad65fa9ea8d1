import ArgumentParser

/// `health`: OpenHealthKit's command-line tool.
@main
struct HealthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "health",
        abstract: "OpenHealthKit's command-line tool: HealthKit's catalog and units, and the person's side of a store.",
        subcommands: [
            TypesCommand.self, ConvertCommand.self, UnitCommand.self,
            AuthorizeCommand.self, AddCommand.self, AppsCommand.self, PermissionCommand.self, GuestCommand.self,
            CharacteristicCommand.self, PriorityCommand.self, PreferCommand.self, GenerateCommand.self, RecordsCommand.self, CardsCommand.self,
            ImportCommand.self, ExportCommand.self, SummaryCommand.self, SourcesCommand.self, QueryCommand.self, StatsCommand.self,
            TimeZoneCommand.self,
        ]
    )
}

/// A failure the user caused at run time (a bad unit string, incompatible units): printed as
/// "Error: <message>" with exit status 1, without the usage text a malformed command line gets.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}
