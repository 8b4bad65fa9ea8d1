import Foundation

/// One daemon per store: an exclusive `flock` on `healthd.lock` in the store folder, which names the process holding
/// it. The kernel releases the lock when the process ends, however it ends, so a crashed daemon never blocks the next.
final class StoreLock: Sendable {
    private let descriptor: Int32

    /// Takes the lock, or throws ``DaemonError/alreadyServed(store:pid:)`` naming the holder.
    init(_ directory: URL) throws {
        let path = directory.appendingPathComponent("healthd.lock").path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw DaemonError.cannotPrepare(path: path, reason: String(cString: strerror(errno))) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = Self.readPID(descriptor)
            close(descriptor)
            throw DaemonError.alreadyServed(store: directory.path, pid: holder)
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        self.descriptor = descriptor
    }

    deinit {
        _ = ftruncate(descriptor, 0)
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    private static func readPID(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int32(String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
