import Foundation

/// The store folder as the daemon requires it: owned by the user running the daemon and private to that user (folder
/// 0700, files 0600). A missing folder is created so; an existing one that others can read or write is refused, never
/// silently changed: the person decides who else had access.
enum StoreFolder {
    /// Creates `directory` (0700) when missing, then checks it and every file in it.
    static func prepare(_ directory: URL) throws {
        let path = directory.path
        if !FileManager.default.fileExists(atPath: path) {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw DaemonError.cannotPrepare(path: path, reason: "\(error.localizedDescription)")
            }
        }
        try check(path)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        for name in names.sorted() { try check(directory.appendingPathComponent(name).path) }
    }

    private static func check(_ path: String) throws {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            throw DaemonError.cannotPrepare(path: path, reason: String(cString: strerror(errno)))
        }
        guard status.st_uid == geteuid() else { throw DaemonError.storeNotOwned(path: path, owner: status.st_uid) }
        guard Int(status.st_mode) & 0o077 == 0 else { throw DaemonError.storeNotPrivate(path: path, mode: Int(status.st_mode)) }
    }
}
