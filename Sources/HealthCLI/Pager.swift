import Foundation

/// Where a command's long output goes: on a terminal, through a pager — `$PAGER`, else `less -FRX`, which quits at
/// once when the text fits on one screen and keeps colors — as git does; piped or redirected, straight to standard
/// output. Lines stream into the pager as they come, so a long query starts showing at once and takes no memory.
final class Pager {
    private var process: Process?
    private var pipe: FileHandle?
    private let command: [String]?
    private var started = false

    init(environment: [String: String] = ProcessInfo.processInfo.environment, isTerminal: Bool = isatty(STDOUT_FILENO) == 1) {
        command = Self.command(environment: environment, isTerminal: isTerminal)
    }

    /// The pager to run, or nil to write straight to standard output: not a terminal, `PAGER` empty or `cat`.
    static func command(environment: [String: String], isTerminal: Bool) -> [String]? {
        guard isTerminal else { return nil }
        let pager = (environment["PAGER"] ?? "less -FRX").trimmingCharacters(in: .whitespaces)
        guard !pager.isEmpty, pager != "cat" else { return nil }
        return ["/bin/sh", "-c", pager]
    }

    func print(_ line: String) {
        if !started { start() }
        guard let pipe else { return Swift.print(line) }
        do { try pipe.write(contentsOf: Data((line + "\n").utf8)) } catch {
            // The reader quit the pager (q): stop writing to it.
            self.pipe = nil
            self.process = nil
        }
    }

    private func start() {
        started = true
        guard let command else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        var environment = ProcessInfo.processInfo.environment
        if environment["LESS"] == nil { environment["LESS"] = "FRX" }
        process.environment = environment
        let input = Pipe()
        process.standardInput = input
        do {
            try process.run()
            signal(SIGPIPE, SIG_IGN)
            self.process = process
            pipe = input.fileHandleForWriting
        } catch {
            pipe = nil  // no pager to be had: plain output
        }
    }

    /// Ends the output and waits for the reader to leave the pager.
    func finish() {
        try? pipe?.close()
        process?.waitUntilExit()
    }
}
