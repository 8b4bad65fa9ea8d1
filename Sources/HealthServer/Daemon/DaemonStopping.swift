import Foundation
import ServiceLifecycle
import Synchronization

/// Daemons that began to stop, by store folder: a sheet parked for the person (``ParkedPresenter``) ends as a closed
/// sheet when its daemon stops, so a shutdown never waits for the person's answer (nor its five-minute timeout).
enum DaemonStopping {
    private static let stopping = Mutex<Set<String>>([])

    static func isStopping(_ directory: URL) -> Bool { stopping.withLock { $0.contains(directory.standardizedFileURL.path) } }
    static func begin(_ directory: URL) { _ = stopping.withLock { $0.insert(directory.standardizedFileURL.path) } }
    static func end(_ directory: URL) { _ = stopping.withLock { $0.remove(directory.standardizedFileURL.path) } }

    /// The service that says so: last in the daemon's group, it is the first to hear the graceful shutdown, before the
    /// listeners wait for their requests in flight (a parked sheet among them).
    struct Notice: Service {
        let directory: URL

        func run() async throws {
            try? await gracefulShutdown()
            DaemonStopping.begin(directory)
        }
    }
}
