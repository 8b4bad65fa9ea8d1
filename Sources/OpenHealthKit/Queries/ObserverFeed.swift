import Foundation
package import HealthStore

/// What an observer query hears from the store, for one app: first that it started, then — after each save or delete
/// that changes what the app may see of the plan's types — which of them changed, each with the store position it
/// holds up to. The same feed drives an embedded `HKObserverQuery` and the daemon's observer stream, whose event ids
/// are these positions sealed for the app.
package enum ObserverFeed {
    /// One update: `changed` is nil for the start, else the type identifiers that changed; `position` is the newest
    /// row of the plan the app may see (never shown to the app but sealed), where a resumed feed counts from.
    package struct Update: Sendable {
        package let changed: Set<String>?
        package let position: AnchorPosition
    }

    /// The updates from now (a start update first), or from `position` (an update at once for anything the app may
    /// see that changed after it, and no start update): the resumption of an earlier feed.
    package static func updates(_ plan: AnchoredPlan, samples: SampleStore, app: String, after position: AnchorPosition?)
        -> AsyncThrowingStream<Update, any Error>
    {
        let (stream, continuation) = AsyncThrowingStream<Update, any Error>.makeStream()
        let task = Task.detached {
            do {
                // Subscribed before the position is read: a change in between is heard, not lost.
                let changes = samples.changes.subscribe()
                let queries = plan.queries.map { ($0.type, $0.filter) }
                // `current` is the store's newest position, where the next check counts from; `shown`, the newest
                // row the app may see, is what an update carries (a stream's id): it moves only with what the app may
                // read, so two ids tell the app nothing of other writes to the store.
                var current: AnchorPosition, shown: AnchorPosition
                if let position {
                    let (changed, newest, visible) = try samples.observe(queries, visibleTo: app, after: position, shown: position)
                    (current, shown) = (newest, visible ?? position)
                    if !changed.isEmpty { continuation.yield(Update(changed: changed, position: shown)) }
                } else {
                    let (_, newest, visible) = try samples.observe(queries, visibleTo: app, after: nil, shown: .start)
                    (current, shown) = (newest, visible ?? .start)
                    continuation.yield(Update(changed: nil, position: shown))
                }
                for await change in changes where !change.touched(among: plan.typeIdentifiers).isEmpty {
                    // What the app may see changed, type by type, up to now: not the types the notification names
                    // (another app's hidden save may arrive with, or just before, a visible one).
                    let (changed, newest, visible) = try samples.observe(queries, visibleTo: app, after: current, shown: shown)
                    (current, shown) = (newest, visible ?? shown)
                    guard !changed.isEmpty, !Task.isCancelled else { continue }
                    continuation.yield(Update(changed: changed, position: shown))
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
