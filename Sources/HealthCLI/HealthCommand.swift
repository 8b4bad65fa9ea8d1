import ArgumentParser
import Foundation
import OpenHealthKit

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
            TimeZoneCommand.self, ServeCommand.self, AccessLogCommand.self, DeliveriesCommand.self,
            InitCommand.self, EncryptCommand.self, PassphraseCommand.self, LockCommand.self, UnlockCommand.self,
            TrustCommand.self, SignaturesCommand.self, MedicationsCommand.self,
        ]
    )

    /// ArgumentParser's `main`, with the errors a person should never see raw made into one sentence first
    /// (`CommandFailure.sentence(for:)`): an `NSCocoaErrorDomain … UserInfo={…}` dump says nothing to them. Negative
    /// numbers are arguments, not options (`NumberArgument`).
    static func main() async {
        // A program started from a thread that blocks signals inherits its mask (Dispatch's worker threads block most,
        // and Foundation's Process passes the mask on): SIGTERM and SIGINT would then never stop `health`. Start clean.
        var none = sigset_t()
        sigemptyset(&none)
        sigprocmask(SIG_SETMASK, &none, nil)
        do {
            var command = try parseAsRoot(CommandLine.arguments.dropFirst().map(NumberArgument.protectingNegative))
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: CommandFailure.sentence(for: error))
        }
    }
}

/// A failure the user caused at run time (a bad unit string, incompatible units): printed as
/// "Error: <message>" with exit status 1, without the usage text a malformed command line gets.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }

    /// `error` as a person should read it: an `HKError` by its message, a Foundation file or JSON error as the file
    /// and what is wrong with it ("cannot use /tmp/x: permission denied"); ArgumentParser's own errors unchanged.
    static func sentence(for error: any Error) -> any Error {
        if let error = error as? HKError { return CommandFailure(error.message) }
        if error is DecodingError { return CommandFailure("the data is not what was expected: \(FileProblem(error))") }
        let domain = (error as NSError).domain
        guard domain == NSCocoaErrorDomain || domain == NSPOSIXErrorDomain else { return error }
        let problem = FileProblem(error)
        return CommandFailure(problem.path.map { "cannot use \($0): \(problem)" } ?? "a file could not be used: \(problem)")
    }
}
