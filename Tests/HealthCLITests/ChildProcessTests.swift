import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// The tests' own way to run programs (TestSupport's `ChildProcess`), which replaced Foundation's `Process` after
/// `Process.run()` crashed a full run holding thousands of descriptors.
@Suite("Tests' child processes")
struct ChildProcessTests {
    /// What `sh -c script` printed, run with `ChildProcess`.
    private func shell(_ script: String) async throws -> (status: Int32, output: String) {
        try await runToEnd(URL(fileURLWithPath: "/bin/sh"), ["-c", script])
    }

    @Test func aChildStartedWhileThousandsOfDescriptorsAreOpenInheritsNoneOfThem() async throws {
        // Without O_CLOEXEC, as Foundation's Pipe and many libraries open them: only closing them in the child keeps
        // them from it. 3,000 is beyond the ~1,350 at which Foundation's listing of /proc/self/fd ran off its buffer.
        let opened = (0..<3_000).map { _ in open("/dev/null", O_RDONLY) }
        defer { for descriptor in opened where descriptor >= 0 { close(descriptor) } }
        #expect(opened.allSatisfy { $0 >= 0 }, "this process may open 3,000 more descriptors")
        let run = try await shell("ls /proc/$$/fd")
        #expect(run.status == 0)
        let listed = Set(run.output.split(whereSeparator: \.isWhitespace).compactMap { Int32($0) })
        let inherited = listed.intersection(opened)
        #expect(inherited.count == 0, "inherited \(inherited.count), from \(inherited.min() ?? -1)")
        #expect(listed.isSuperset(of: [0, 1, 2]), "\(run.output)")
    }

    @Test func aSignalIgnoredHereIsAtItsDefaultInTheChild() async throws {
        // A daemon in this process may set a signal aside (SIGPIPE, SIGTERM); ignored signals survive exec.
        let previous = signal(SIGUSR2, SIG_IGN)
        defer { signal(SIGUSR2, previous) }
        let run = try await shell("grep '^SigIgn:' /proc/$$/status")
        let mask = UInt64(run.output.split(separator: "\t").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "", radix: 16)
        #expect(mask.map { $0 & (1 << (UInt64(SIGUSR2) - 1)) == 0 } == true, "\(run.output)")
    }

    @Test func howTheChildEndedIsItsExitStatusOrTheSignalThatEndedIt() async throws {
        let exits = ChildProcess()
        exits.executableURL = URL(fileURLWithPath: "/bin/sh")
        exits.arguments = ["-c", "exit 7"]
        try exits.run()
        await exits.ended()
        #expect(exits.terminationReason == .exit && exits.terminationStatus == 7)

        let killed = ChildProcess()
        killed.executableURL = URL(fileURLWithPath: "/bin/sleep")
        killed.arguments = ["60"]
        try killed.run()
        #expect(killed.isRunning)
        killed.terminate()
        await killed.ended()
        #expect(!killed.isRunning)
        #expect(killed.terminationReason == .uncaughtSignal && killed.terminationStatus == SIGTERM)
    }

    @Test func aProgramThatIsNotThereIsAnErrorFromRun() throws {
        let missing = ChildProcess()
        missing.executableURL = URL(fileURLWithPath: "/nonexistent/program")
        #expect(throws: POSIXError(.ENOENT)) { try missing.run() }
        #expect(!missing.isRunning && missing.processIdentifier == 0)
    }
}
