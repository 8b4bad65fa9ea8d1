public import Foundation
import HealthStore
import Synchronization

/// The sources — apps and devices — that saved samples of a type matching a predicate.
///
/// ```swift
/// let query = HKSourceQuery(sampleType: HKQuantityType(.stepCount), samplePredicate: nil) { _, sources, error in
///     print(sources?.map(\.name) ?? [])
/// }
/// store.execute(query)
/// ```
///
/// Privacy: an app that may not read the type learns of no source but itself.
open class HKSourceQuery: HKQuery, @unchecked Sendable {
    // @unchecked: set-once properties; the handler is @Sendable; `task` is behind a Mutex.

    private let completionHandler: @Sendable (HKSourceQuery, Set<HKSource>?, (any Error)?) -> Void
    private let task = Mutex<Task<Void, Never>?>(nil)

    public init(sampleType: HKSampleType, samplePredicate: NSPredicate?,
                completionHandler: @escaping @Sendable (HKSourceQuery, Set<HKSource>?, (any Error)?) -> Void) {
        self.completionHandler = completionHandler
        super.init(objectType: sampleType, predicate: samplePredicate)
    }

    static func sources(type: HKSampleType, predicate: NSPredicate?, on store: HKHealthStore) async throws -> [HKSource] {
        try await store.backend().sources(of: type, matching: try SampleFilter(optional: predicate))
    }
}

extension HKSourceQuery: ExecutableQuery {
    func start(on store: HKHealthStore) {
        let type = objectType as! HKSampleType, predicate = UncheckedPredicate(predicate)
        let started = Task.detached { [self] in
            do {
                let sources = try await Self.sources(type: type, predicate: predicate.value, on: store)
                guard !Task.isCancelled else { return }
                completionHandler(self, Set(sources), nil)
            } catch {
                guard !Task.isCancelled else { return }
                completionHandler(self, nil, error)
            }
        }
        task.withLock { $0 = started }
    }

    func stop() {
        task.withLock { $0?.cancel() }
    }
}

/// Carries an NSPredicate (immutable once HKQuery made it) into a task.
struct UncheckedPredicate: @unchecked Sendable {
    let value: NSPredicate?
    init(_ value: NSPredicate?) { self.value = value }
}
