public import Foundation

/// Why the daemon would not start: each names the folder, file or process at fault and what to do.
public enum DaemonError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The store folder (or a file in it) can be read or written by others than its owner.
    case storeNotPrivate(path: String, mode: Int)
    /// The store folder belongs to another user.
    case storeNotOwned(path: String, owner: UInt32)
    /// Another daemon serves this store; `pid` is the process that holds the lock (nil when unknown).
    case alreadyServed(store: String, pid: Int32?)
    /// The socket or lock file could not be made.
    case cannotPrepare(path: String, reason: String)

    public var description: String {
        switch self {
        case .storeNotPrivate(let path, let mode):
            "\(path) is readable or writable by others (mode \(String(mode & 0o777, radix: 8))); "
                + "the daemon serves only a store private to its user: chmod -R go-rwx \(path)"
        case .storeNotOwned(let path, let owner):
            "\(path) belongs to user \(owner), not to the user running the daemon (\(geteuid()))"
        case .alreadyServed(let store, let pid):
            "\(store) is already served by another health serve" + (pid.map { " (process \($0))" } ?? "")
        case .cannotPrepare(let path, let reason):
            "cannot prepare \(path): \(reason)"
        }
    }

    public var errorDescription: String? { description }
}
