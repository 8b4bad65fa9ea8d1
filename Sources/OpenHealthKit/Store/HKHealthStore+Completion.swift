import Foundation


extension HKHealthStore {
    /// Runs `work` off the caller's thread and reports `(true, nil)` or `(false, error)`, as HealthKit's
    /// `(Bool, Error?)` completion handlers do.
    func completeDetached(
        _ completion: @escaping @Sendable (Bool, (any Error)?) -> Void, _ work: @escaping @Sendable () async throws -> Void
    ) {
        Task.detached {
            do {
                try await work()
                completion(true, nil)
            } catch {
                completion(false, error)
            }
        }
    }
}

/// Carries an array of objects into a detached task; HKObject is immutable, so sharing it is safe.
struct SendableBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
