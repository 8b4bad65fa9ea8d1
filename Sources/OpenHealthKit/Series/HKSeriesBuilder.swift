public import Foundation

/// The abstract base of the builders that make series samples (`HKHeartbeatSeriesBuilder`).
open class HKSeriesBuilder: NSObject, @unchecked Sendable {
    // @unchecked: subclasses keep their state behind a lock.

    /// Stops building and forgets what was added; nothing is saved.
    open func discard() {}
}
