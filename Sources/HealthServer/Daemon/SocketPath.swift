import Foundation

/// The socket's folder and file: the folder is made private to the user (0700) when the daemon creates it; a socket
/// file left by a daemon that ended is replaced, and one another daemon still answers on is refused, never stolen.
enum SocketPath {
    static func prepare(_ path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        guard path.utf8.count < 104 else {
            throw DaemonError.cannotPrepare(path: path, reason: "a Unix socket path must be under 104 bytes; choose a shorter --socket")
        }
        if !FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw DaemonError.cannotPrepare(path: folder, reason: error.localizedDescription)
            }
        }
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw DaemonError.cannotPrepare(path: path, reason: "a file that is not a socket is there; remove it or choose another --socket")
        }
        if answers(path) {
            throw DaemonError.cannotPrepare(path: path, reason: "another daemon is listening on this socket; choose another --socket")
        }
        unlink(path)
    }

    /// Whether something accepts connections on the socket at `path`.
    private static func answers(_ path: String) -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 }
        }
    }
}
