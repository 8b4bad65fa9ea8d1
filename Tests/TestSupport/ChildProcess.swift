public import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import TestSupportC

/// A program the tests run: Foundation's `Process`, as far as the tests use it, started with posix_spawn and every
/// descriptor above 2 closed in the child by the C library (see Spawn.c).
///
/// Foundation's `Process.run()` on Linux (Swift 6.3) lists /proc/self/fd to find those descriptors and reads past
/// readdir's buffer while it does (swift-corelibs-foundation #5472); with the thousands of descriptors a full test run
/// holds, that crashed the whole test process. Set the executable, arguments, environment, folder and standard streams,
/// then `run()`; a `Pipe` given as a stream has the child's end closed here once the child has its copy, as
/// `Process` does, so reading a pipe to its end ends when the child does.
public final class ChildProcess: Sendable {
    /// Why the child ended, as `Process.TerminationReason`.
    public enum TerminationReason: Sendable {
        case exit
        case uncaughtSignal
    }

    /// A standard stream of the child: this process's, a pipe, or a file handle (`FileHandle.nullDevice`: /dev/null).
    private enum Stream: Sendable {
        case pipe(Pipe)
        case handle(FileHandle)

        init?(_ value: Any?) {
            switch value {
            case nil: return nil
            case let pipe as Pipe: self = .pipe(pipe)
            case let handle as FileHandle: self = .handle(handle)
            case let other?: preconditionFailure("a standard stream is a Pipe or a FileHandle, not \(type(of: other))")
            }
        }

        var value: Any {
            switch self {
            case .pipe(let pipe): pipe
            case .handle(let handle): handle
            }
        }
    }

    private struct Setup: Sendable {
        var executableURL: URL?
        var arguments: [String] = []
        var environment: [String: String]?
        var currentDirectoryURL: URL?
        var standardInput: Stream?
        var standardOutput: Stream?
        var standardError: Stream?
    }

    private struct State: Sendable {
        var pid: pid_t?
        /// What waitpid(2) said when the child was reaped; nil while it runs.
        var waitStatus: Int32?
    }

    private let setup = Mutex(Setup())
    private let state = Mutex(State())

    public init() {}

    /// The program; `arguments` follow its path as argv.
    public var executableURL: URL? {
        get { setup.withLock { $0.executableURL } }
        set { setup.withLock { $0.executableURL = newValue } }
    }

    public var arguments: [String]? {
        get { setup.withLock { $0.arguments } }
        set { setup.withLock { $0.arguments = newValue ?? [] } }
    }

    /// The child's whole environment; this process's when nil.
    public var environment: [String: String]? {
        get { setup.withLock { $0.environment } }
        set { setup.withLock { $0.environment = newValue } }
    }

    /// The folder the child starts in; this process's when nil.
    public var currentDirectoryURL: URL? {
        get { setup.withLock { $0.currentDirectoryURL } }
        set { setup.withLock { $0.currentDirectoryURL = newValue } }
    }

    public var standardInput: Any? {
        get { setup.withLock { $0.standardInput?.value } }
        set { let stream = Stream(newValue); setup.withLock { $0.standardInput = stream } }
    }

    public var standardOutput: Any? {
        get { setup.withLock { $0.standardOutput?.value } }
        set { let stream = Stream(newValue); setup.withLock { $0.standardOutput = stream } }
    }

    public var standardError: Any? {
        get { setup.withLock { $0.standardError?.value } }
        set { let stream = Stream(newValue); setup.withLock { $0.standardError = stream } }
    }

    /// The child's pid once it started; 0 before.
    public var processIdentifier: Int32 { state.withLock { $0.pid ?? 0 } }

    /// Starts the child. Throws the `POSIXError` posix_spawn gave (say, `ENOENT` for a program that is not there).
    public func run() throws {
        let setup = setup.withLock { $0 }
        precondition(state.withLock { $0.pid } == nil, "a ChildProcess runs once")
        guard let executable = setup.executableURL else { throw POSIXError(.ENOENT) }
        var opened: [Int32] = []
        defer { for descriptor in opened { Glibc.close(descriptor) } }
        func descriptor(_ stream: Stream?, childReads: Bool) throws -> Int32 {
            switch stream {
            case nil:
                return -1
            case .pipe(let pipe):
                return childReads ? pipe.fileHandleForReading.fileDescriptor : pipe.fileHandleForWriting.fileDescriptor
            case .handle(let handle):
                if handle.fileDescriptor >= 0 { return handle.fileDescriptor }
                // FileHandle.nullDevice has no descriptor of its own.
                let null = Glibc.open("/dev/null", O_RDWR | O_CLOEXEC)
                guard null >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                opened.append(null)
                return null
            }
        }
        let input = try descriptor(setup.standardInput, childReads: true)
        let output = try descriptor(setup.standardOutput, childReads: false)
        let error = try descriptor(setup.standardError, childReads: false)
        let environment = (setup.environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        let argv = ([executable.path] + setup.arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let result = ohk_spawn(&pid, executable.path, argv, envp, setup.currentDirectoryURL?.path, input, output, error)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
        state.withLock { $0.pid = pid }
        if case .pipe(let pipe) = setup.standardInput { try? pipe.fileHandleForReading.close() }
        if case .pipe(let pipe) = setup.standardOutput { try? pipe.fileHandleForWriting.close() }
        if case .pipe(let pipe) = setup.standardError { try? pipe.fileHandleForWriting.close() }
    }

    /// Whether the child started and has not ended (reaps it when it has).
    public var isRunning: Bool {
        state.withLock { state in
            guard let pid = state.pid, state.waitStatus == nil else { return false }
            return !Self.reap(pid, into: &state)
        }
    }

    /// Blocks until the child ended. Waits without reaping (waitid, WNOWAIT), so that any number of threads may wait
    /// and `isRunning` may be asked meanwhile; the child is reaped under the lock.
    public func waitUntilExit() {
        guard let pid = state.withLock({ $0.pid }) else { return }
        while state.withLock({ $0.waitStatus == nil }) {
            var info = siginfo_t()
            if waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1, errno == EINTR { continue }
            state.withLock { state in
                if state.waitStatus == nil { _ = Self.reap(pid, into: &state) }
            }
        }
    }

    /// The exit status, or the number of the signal that ended the child (see `terminationReason`).
    public var terminationStatus: Int32 {
        let status = state.withLock { $0.waitStatus }
        guard let status else { preconditionFailure("the child has not ended") }
        return status & 0x7f == 0 ? (status >> 8) & 0xff : status & 0x7f
    }

    public var terminationReason: TerminationReason {
        let status = state.withLock { $0.waitStatus }
        guard let status else { preconditionFailure("the child has not ended") }
        return status & 0x7f == 0 ? .exit : .uncaughtSignal
    }

    /// Sends SIGTERM to the child if it has not been reaped (so never to a pid reused since).
    public func terminate() { signal(SIGTERM) }

    /// Sends SIGINT to the child if it has not been reaped.
    public func interrupt() { signal(SIGINT) }

    /// Waits until the child ends on a thread of its own (see `onOwnThread`).
    public func ended() async {
        await onOwnThread { self.waitUntilExit() }
    }

    private func signal(_ number: Int32) {
        state.withLock { state in
            if let pid = state.pid, state.waitStatus == nil { kill(pid, number) }
        }
    }

    /// Reaps `pid` if it ended; whether it had.
    private static func reap(_ pid: pid_t, into state: inout State) -> Bool {
        while true {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                state.waitStatus = status
                return true
            }
            if result == 0 { return false }
            if errno == EINTR { continue }
            // ECHILD: something else in the test process reaped it; its end is lost, and waiting would never end.
            preconditionFailure("child \(pid) was reaped by someone else (errno \(errno))")
        }
    }
}
