import Foundation

/// Runs `work` off the caller's thread and reports `(true, nil)` or `(false, error)`, as HealthKit's `(Bool, Error?)`
/// completion handlers do (the store's and the builders' completion-handler forms).
func completeDetached(_ completion: @escaping @Sendable (Bool, (any Error)?) -> Void, _ work: @escaping @Sendable () async throws -> Void) {
    Task.detached {
        do {
            try await work()
            completion(true, nil)
        } catch {
            completion(false, error)
        }
    }
}

/// Carries an array of objects into a detached task; HKObject is immutable, so sharing it is safe.
struct SendableBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// How the two forms of a HealthKit method (an `async` method and its completion-handler twin) reach each other. In
/// HealthKit the two are one Objective-C method, so a test double that overrides either form catches callers of both.
/// Here the `async` default calls the completion-handler form (which a double may override), and the completion-handler
/// default, when someone else calls it, calls the `async` form (which a double may override); whichever default is
/// reached second does the work. These task-local marks say which pair is mid-way, so nothing runs twice — not even a
/// double that overrides one form and calls `super`.
enum CompletionBridge {
    /// The pair whose `async` default is calling its completion-handler form right now.
    @TaskLocal static var calling: String?
    /// The pair whose completion-handler default is calling its `async` form right now.
    @TaskLocal static var calledBack: String?
}

extension HKHealthStore {
    /// The default body of an `async` method: calls its completion-handler twin (which a test double may override) and
    /// waits for its answer — or, when that twin's default is the caller, does `work`.
    func viaCompletion(_ pair: String, work: @escaping @Sendable () async throws -> Void,
                       _ call: (@escaping @Sendable (Bool, (any Error)?) -> Void) -> Void) async throws {
        let _: Bool = try await viaCompletion(pair, work: { try await work(); return true }) {
            (done: @escaping @Sendable (Bool, (any Error)?) -> Void) in call(done)
        }
    }

    /// ``viaCompletion(_:work:_:)`` for a method returning a value.
    func viaCompletion<Value: Sendable>(_ pair: String, work: @escaping @Sendable () async throws -> Value,
                                        _ call: (@escaping @Sendable (Value, (any Error)?) -> Void) -> Void) async throws -> Value {
        if CompletionBridge.calledBack == pair { return try await CompletionBridge.$calledBack.withValue(nil) { try await work() } }
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
            CompletionBridge.$calling.withValue(pair) {
                call { value, error in
                    if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: value) }
                }
            }
        }
    }

    /// The default body of a completion-handler method: does `work` when its `async` twin's default called it, and
    /// otherwise calls the `async` twin (which a test double may override) through `viaAsync`. Either way the handler
    /// runs off the caller's thread.
    func answer(_ pair: String, _ completion: @escaping @Sendable (Bool, (any Error)?) -> Void,
                work: @escaping @Sendable () async throws -> Void, viaAsync: @escaping @Sendable () async throws -> Void) {
        answer(pair, { (_: Bool, error) in completion(error == nil, error) }, failure: false,
               work: { try await work(); return true }, viaAsync: { try await viaAsync(); return true })
    }

    /// ``answer(_:_:work:viaAsync:)`` for a handler that gets a value, or `failure` with the error.
    func answer<Value: Sendable>(_ pair: String, _ completion: @escaping @Sendable (Value, (any Error)?) -> Void, failure: Value,
                                 work: @escaping @Sendable () async throws -> Value, viaAsync: @escaping @Sendable () async throws -> Value) {
        let direct = CompletionBridge.calling == pair
        Task.detached {
            do {
                let value = direct ? try await work() : try await CompletionBridge.$calledBack.withValue(pair) { try await viaAsync() }
                completion(value, nil)
            } catch {
                completion(failure, error)
            }
        }
    }
}
