public import Foundation

/// Runs `body`, which blocks (waits for a child process, reads its pipes to the end, sleeps), on a new thread of its
/// own, and suspends the calling test until it returns.
///
/// Swift's cooperative pool has one thread per core — two on CI — and runs every test of the run and the daemons
/// some suites start in this process. A test that blocked a pool thread while a compiler or an import ran in its
/// child process left the others' daemons without a thread to answer on, and their requests timed out.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
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

extension Process {
    /// Waits until the process ends, on a thread of its own (see `onOwnThread`).
    public func ended() async {
        await onOwnThread { self.waitUntilExit() }
    }
}
