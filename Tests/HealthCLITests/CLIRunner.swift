import Foundation
import TestSupport

/// What one run of the `health` binary did.
struct CLIRun: Sendable {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// The built `health` executable, beside the test bundle in the build products folder.
let healthExecutable: URL = {
    var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("health").path), dir.path != "/" {
        dir.deleteLastPathComponent()
    }
    return dir.appendingPathComponent("health")
}()


/// Runs `health` as a user would: with these arguments, this text on standard input, in `directory`; with
/// `memoryLimit` (kilobytes of address space, `ulimit -v`) a run that would take more fails instead; `unprivileged`,
/// as a user file permissions apply to (see `runsAsNobody`); `executable`, a copy installed elsewhere.
/// Started from the test's own task; the test waits on a thread of its own (see `runToEnd`).
func runHealth(_ arguments: [String], input: String = "", in directory: URL? = nil, environment extra: [String: String] = [:],
               memoryLimit: Int? = nil, unprivileged: Bool = false, executable: URL = healthExecutable) async throws -> CLIRun {
    let process = ChildProcess()
    if unprivileged, runsAsNobody {
        (process.executableURL, process.arguments) = asNobody(executable, arguments)
    } else if let memoryLimit {
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "ulimit -v \(memoryLimit) && exec \"$0\" \"$@\"", executable.path] + arguments
    } else {
        process.executableURL = executable
        process.arguments = arguments
    }
    if let directory { process.currentDirectoryURL = directory }
    process.environment = healthEnvironment(dataHome: directory, extra)
    let out = Pipe(), err = Pipe(), stdin = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = stdin
    try process.run()
    let (writing, outReading, errReading) = (stdin.fileHandleForWriting, out.fileHandleForReading, err.fileHandleForReading)
    return try await onOwnThread {
        writing.write(Data(input.utf8))
        try writing.close()
        let stdout = outReading.readAll()
        let stderr = errReading.readAll()
        process.waitUntilExit()
        return CLIRun(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }
}

/// The environment `health` runs in under test: this process's, without a store chosen by the environment, with the
/// per-user data folder (the default store) in `dataHome` (a fresh temporary folder when nil), and `extra` added.
func healthEnvironment(dataHome: URL?, _ extra: [String: String] = [:]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["OPENHEALTHKIT_STORE"] = nil
    environment["XDG_DATA_HOME"] = (dataHome ?? FileManager.default.temporaryDirectory.appendingPathComponent("ohk-data-\(UUID().uuidString)")).path
    environment.merge(extra) { $1 }
    return environment
}

/// Runs a shell `command` with standard output on a real pseudo-terminal (util-linux `script`), or on a pipe, and
/// returns what it printed; `environment` adds to this process's. The test waits on a thread of its own.
func runShell(_ command: String, onTerminal: Bool, environment extra: [String: String] = [:]) async throws -> String {
    let process = ChildProcess()
    if onTerminal {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
    } else {
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
    }
    var environment = ProcessInfo.processInfo.environment
    environment.merge(extra) { $1 }
    process.environment = environment
    let out = Pipe()
    process.standardOutput = out
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let reading = out.fileHandleForReading
    return await onOwnThread {
        let data = reading.readAll()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
