public import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs `body`, which blocks (waits for a child process, reads its pipes to the end, sleeps), on a new thread of its
/// own, and suspends the calling test until it returns.
///
/// Swift's cooperative pool has one thread per core — two on CI — and runs every test of the run and the daemons
/// some suites start in this process. A test that blocked a pool thread while a compiler or an import ran in its
/// child process left the others' daemons without a thread to answer on, and their requests timed out.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    return try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}

/// `onOwnThread` for a body that cannot fail.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}

extension FileHandle {
    /// Everything up to the end of file. Read with read(2) and retried when a signal interrupts it: Foundation's
    /// `readDataToEndOfFile()` traps on EINTR, which a child process ending can cause on the reading thread.
    public func readAll() -> Data {
        var data = Data()
        while true {
            let chunk = readSome()
            if chunk.isEmpty { return data }
            data += chunk
        }
    }

    /// What one read(2) gives (empty at end of file), retried when a signal interrupts it; `availableData` without
    /// the trap.
    public func readSome() -> Data {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let descriptor = fileDescriptor
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count >= 0 { return Data(buffer[0..<count]) }
            if errno != EINTR { return Data() }
        }
    }
}

/// Runs `executable` to its end: its exit status and what it printed on standard output (with standard error too when
/// `withErrors`; else standard error is dropped).
///
/// Started from the calling task (see `ChildProcess`), waited for on a thread of its own.
public func runToEnd(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil, in directory: URL? = nil,
                     withErrors: Bool = true) async throws -> (status: Int32, output: String) {
    let process = ChildProcess(), output = Pipe()
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    if let directory { process.currentDirectoryURL = directory }
    process.standardOutput = output
    process.standardError = withErrors ? output : FileHandle.nullDevice
    try process.run()
    let reading = output.fileHandleForReading
    return await onOwnThread {
        let text = String(decoding: reading.readAll(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}

/// Whether tests can run a program as a user file permissions apply to: when they run as root (whom permissions do
/// not stop), as `nobody` through util-linux `setpriv`.
public let runsAsNobody = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")

/// The command that runs `executable` with `arguments` as `nobody` (see `runsAsNobody`).
public func asNobody(_ executable: URL, _ arguments: [String]) -> (executable: URL, arguments: [String]) {
    (URL(fileURLWithPath: "/usr/bin/setpriv"), ["--reuid=65534", "--regid=65534", "--clear-groups", executable.path] + arguments)
}
