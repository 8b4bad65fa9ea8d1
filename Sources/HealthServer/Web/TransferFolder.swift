import Foundation
import HealthStore
import HTTPTypes

/// Where the web app keeps an upload while it is imported, and an export while it is downloaded: a private folder (0700)
/// removed when done. For an encrypted store that folder is in memory — a tmpfs (`/dev/shm`), never the disk — since an
/// export holds the person's whole history in clear; without a tmpfs the transfer is refused rather than written to disk.
enum TransferFolder {
    /// The memory-backed file system used for an encrypted store's transfers.
    static let memoryBase = URL(fileURLWithPath: "/dev/shm")

    /// A new private folder named `prefix`-<uuid> for a transfer of the store in `directory`.
    static func make(_ prefix: String, for directory: URL) throws -> URL {
        let base: URL
        if StoreEncryption.isEncrypted(directory) {
            guard isMemoryBacked(memoryBase) else {
                throw WebRefusal(.serviceUnavailable,
                                 "This store is encrypted, and an upload or export would have to be written to disk in clear: this machine has no memory file system (/dev/shm) to keep it in. Use health import or health export instead.")
            }
            base = memoryBase
        } else {
            base = FileManager.default.temporaryDirectory
        }
        let folder = base.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return folder
    }

    /// Whether `url` is writable and on a tmpfs (held in memory): the file system of the longest mount point above it in
    /// `/proc/self/mounts`.
    static func isMemoryBacked(_ url: URL) -> Bool {
        guard access(url.path, W_OK) == 0, let mounts = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8) else { return false }
        let path = url.resolvingSymlinksInPath().path
        var best: (point: String, type: String)?
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 3 else { continue }
            let point = fields[1].replacingOccurrences(of: "\\040", with: " ")
            guard path == point || path.hasPrefix(point == "/" ? "/" : point + "/"), point.count >= (best?.point.count ?? 0) else { continue }
            best = (point, String(fields[2]))
        }
        return best?.type == "tmpfs"
    }
}
