import Foundation

/// A store's side of workout-session mirroring: while ``HKHealthStore/workoutSessionMirroringStartHandler`` is set, it
/// listens (as one endpoint of ``WorkoutSessionRelay``) for the app's sessions that start mirroring elsewhere, makes a
/// mirrored ``HKWorkoutSession`` of each for the handler, and routes their primaries' messages to them.
package final class WorkoutMirroring: @unchecked Sendable {
    // @unchecked: every mutable value is behind `lock`.
    private final class WeakSession {
        weak var session: HKWorkoutSession?
        init(_ session: HKWorkoutSession) { self.session = session }
    }

    /// The store's endpoint: mirrored sessions send as it.
    package let endpoint = UUID()
    private let lock = NSLock()
    private var handler: (@Sendable (HKWorkoutSession) -> Void)?
    private var listener: Task<Void, Never>?
    private var isListening = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var sessions: [UUID: WeakSession] = [:]

    package init() {}

    deinit {
        listener?.cancel()
        for waiter in waiting { waiter.resume() }
    }

    package var currentHandler: (@Sendable (HKWorkoutSession) -> Void)? {
        lock.withLock { handler }
    }

    /// Sets the handler: a handler starts listening (once), nil stops it — the store then hears no mirrored session
    /// start, and its mirrored sessions no longer hear their primaries.
    package func setHandler(_ newHandler: (@Sendable (HKWorkoutSession) -> Void)?, store: HKHealthStore) {
        let (stopped, orphans): (Task<Void, Never>?, [HKWorkoutSession]) = lock.withLock {
            handler = newHandler
            guard newHandler == nil else { return (nil, []) }
            defer { listener = nil; isListening = false; sessions = [:] }
            return (listener, sessions.values.compactMap(\.session))
        }
        stopped?.cancel()
        for session in orphans { session.disconnect(nil) }
        guard newHandler != nil, let backend = try? store.backend() else { return }
        lock.withLock {
            guard listener == nil else { return }
            let endpoint = endpoint
            listener = Task { [weak self, weak store] in
                do {
                    for try await message in backend.workoutSessionMessages(endpoint: endpoint, session: nil) {
                        guard let self else { return }
                        guard let message else { self.listening(); continue }
                        self.route(message, store: store, backend: backend)
                    }
                } catch {
                    guard let self, !Task.isCancelled else { return }
                    let sessions = self.lock.withLock { self.sessions.values.compactMap(\.session) }
                    for session in sessions { session.disconnect(error) }
                }
            }
        }
    }

    /// Waits until the store listens (its endpoint is registered with the relay), so that a session starting to
    /// mirror now reaches it.
    package func waitUntilListening() async {
        await withCheckedContinuation { waiter in
            let now = lock.withLock {
                if isListening || listener == nil { return true }
                waiting.append(waiter)
                return false
            }
            if now { waiter.resume() }
        }
    }

    private func listening() {
        let waiters = lock.withLock {
            isListening = true
            defer { waiting = [] }
            return waiting
        }
        for waiter in waiters { waiter.resume() }
    }

    private func route(_ message: WorkoutSessionMessage, store: HKHealthStore?, backend: any HealthBackend) {
        guard message.kind == .mirroringStarted else {
            let session = lock.withLock { sessions[message.session]?.session }
            session?.receive(fromPrimary: message)
            return
        }
        guard let store, let handler = currentHandler,
              let session = HKWorkoutSession(mirroring: message, healthStore: store, backend: backend, listener: endpoint) else { return }
        lock.withLock {
            sessions = sessions.filter { $0.value.session != nil }
            sessions[message.session] = WeakSession(session)
        }
        handler(session)
    }
}
