public import Foundation
import HealthStore
import Synchronization

/// What an observer's update handler calls when it has dealt with an update.
public typealias HKObserverQueryCompletionHandler = @Sendable () -> Void

/// A long-running query that says *that* samples of its types changed (saved or deleted), not what changed —
/// pair it with an anchored query to fetch the changes. It fires once when it starts, then after each save or
/// delete the app can see that matches its predicate.
///
/// ```swift
/// let query = HKObserverQuery(sampleType: HKQuantityType(.stepCount), predicate: nil) { _, completionHandler, error in
///     refresh()               // e.g. run an HKAnchoredObjectQuery
///     completionHandler()     // ready for the next update
/// }
/// store.execute(query)
/// ```
///
/// Delivery: the next update waits until the handler called its completion handler (changes meanwhile are
/// coalesced into one update), and, when the app enabled background delivery for the type with `.hourly`,
/// `.daily` or `.weekly`, until that period has passed since the last update. Privacy: changes the app may not
/// see (another source's samples of a type it may not read) never fire it.
open class HKObserverQuery: HKQuery, @unchecked Sendable {
    // @unchecked: set-once properties; the handler is @Sendable; mutable state is behind Mutexes.

    public typealias UpdateHandler = @Sendable (HKObserverQuery, @escaping HKObserverQueryCompletionHandler, (any Error)?) -> Void
    public typealias DescriptorsUpdateHandler =
        @Sendable (HKObserverQuery, Set<HKSampleType>?, @escaping HKObserverQueryCompletionHandler, (any Error)?) -> Void

    private let parts: [(HKSampleType, NSPredicate?)]
    private let deliver: DescriptorsUpdateHandler
    private let tasks = Mutex<[Task<Void, Never>]>([])

    public init(sampleType: HKSampleType, predicate: NSPredicate?, updateHandler: @escaping UpdateHandler) {
        parts = [(sampleType, predicate)]
        deliver = { query, _, completion, error in updateHandler(query, completion, error) }
        super.init(objectType: sampleType, predicate: predicate)
    }

    /// Observes several types at once; the handler receives the types that changed (nil on the first call).
    public init(queryDescriptors: [HKQueryDescriptor], updateHandler: @escaping DescriptorsUpdateHandler) {
        parts = queryDescriptors.map { ($0.sampleType, $0.predicate) }
        deliver = updateHandler
        super.init(objectType: queryDescriptors.first?.sampleType, predicate: queryDescriptors.first?.predicate)
    }
}

extension HKObserverQuery: ExecutableQuery {
    func start(on store: HKHealthStore) {
        let plan = Result { try AnchoredPlan(parts, limit: HKObjectQueryNoLimit) }
        // Changes seen but not yet delivered (type identifiers), and the signals between the two tasks.
        let pending = PendingChanges()
        let (wakeups, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let (completions, completed) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))

        // The backend's updates: from the engine in this process, or streamed by the daemon.
        let listener = Task.detached { [self] in
            do {
                for try await update in try store.backend().observerUpdates(try plan.get()) {
                    guard !Task.isCancelled else { return }
                    guard let changed = update else {
                        deliver(self, nil, { completed.yield() }, nil)
                        continue
                    }
                    pending.types.withLock { $0 = ($0 ?? []).union(changed) }
                    wake.yield()
                }
            } catch {
                guard !Task.isCancelled else { return }
                deliver(self, nil, {}, error)
            }
        }
        let deliverer = Task.detached { [self] in
            var completionsIterator = completions.makeAsyncIterator()
            var outstanding = true  // the first call's completion
            var lastDelivery: ContinuousClock.Instant?
            for await _ in wakeups {
                if outstanding {
                    guard await completionsIterator.next() != nil else { return }
                    outstanding = false
                }
                let types = pending.types.withLock { $0 } ?? []
                var period: Duration?
                for type in types {
                    if let each = try? await store.deliveryPeriod(for: type) { period = min(period ?? each, each) }
                }
                if let period, let lastDelivery {
                    try? await Task.sleep(until: lastDelivery + period, clock: .continuous)
                }
                let taken: Set<String>? = pending.types.withLock { value in
                    defer { value = nil }
                    return value
                }
                guard !Task.isCancelled, let changed = taken else { continue }
                lastDelivery = .now
                outstanding = true
                let sampleTypes = Set(((try? plan.get())?.queries ?? []).map(\.type).filter { changed.contains($0.identifier) })
                deliver(self, sampleTypes, { completed.yield() }, nil)
            }
        }
        tasks.withLock { $0 = [listener, deliverer] }
    }

    func stop() {
        tasks.withLock { tasks in tasks.forEach { $0.cancel() } }
    }
}

/// The types whose changes an observer has seen but not delivered yet (nil: none).
private final class PendingChanges: Sendable {
    let types = Mutex<Set<String>?>(nil)
}
