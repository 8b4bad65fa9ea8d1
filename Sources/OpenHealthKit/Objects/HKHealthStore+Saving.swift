public import Foundation

extension HKHealthStore {
    /// Saves an object. Fails with `errorAuthorizationNotDetermined` or `errorAuthorizationDenied` when the
    /// app may not share its type, and `errorNotPermissibleForGuestUserMode` in guest mode.
    public func save(_ object: HKObject) async throws {
        try sampleStore().save([object], app: configuration.app)
    }

    /// Saves objects atomically: all of them, or none when any is refused.
    public func save(_ objects: [HKObject]) async throws {
        try sampleStore().save(objects, app: configuration.app)
    }

    /// Completion-handler form of ``save(_:)-(HKObject)``; the handler runs off the caller's thread.
    public func save(_ object: HKObject, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        save([object], withCompletion: completion)
    }

    /// Completion-handler form of ``save(_:)-([HKObject])``; the handler runs off the caller's thread.
    public func save(_ objects: [HKObject], withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        let batch = SendableBox(objects)
        completeDetached(completion) { try await self.save(batch.value) }
    }

    /// Deletes an object the app saved. Deleting another source's object fails with `errorAuthorizationDenied`.
    public func delete(_ object: HKObject) async throws {
        try sampleStore().delete([object], app: configuration.app)
    }

    /// Deletes objects the app saved, atomically.
    public func delete(_ objects: [HKObject]) async throws {
        try sampleStore().delete(objects, app: configuration.app)
    }

    /// Completion-handler form of ``delete(_:)-(HKObject)``; the handler runs off the caller's thread.
    public func delete(_ object: HKObject, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        delete([object], withCompletion: completion)
    }

    /// Completion-handler form of ``delete(_:)-([HKObject])``; the handler runs off the caller's thread.
    public func delete(_ objects: [HKObject], withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        let batch = SendableBox(objects)
        completeDetached(completion) { try await self.delete(batch.value) }
    }

    /// Deletes every object of `objectType` that this app saved and that matches `predicate` (made by
    /// `HKQuery.predicateFor…`, possibly combined with `NSCompoundPredicate`), and returns how many. Other
    /// sources' objects are left alone. A predicate OpenHealthKit cannot compile is `errorInvalidArgument`.
    public func deleteObjects(of objectType: HKObjectType, predicate: NSPredicate) async throws -> Int {
        try sampleStore().deleteObjects(ofType: objectType, matching: try SampleFilter(predicate), app: configuration.app)
    }

    /// Completion-handler form of ``deleteObjects(of:predicate:)``; the handler gets success, the number
    /// deleted and the error, off the caller's thread.
    public func deleteObjects(
        of objectType: HKObjectType, predicate: NSPredicate, withCompletion completion: @escaping @Sendable (Bool, Int, (any Error)?) -> Void
    ) {
        let filter: SampleFilter
        do { filter = try SampleFilter(predicate) } catch {
            Task.detached { completion(false, 0, error) }
            return
        }
        Task.detached {
            do {
                let count = try self.sampleStore().deleteObjects(ofType: objectType, matching: filter, app: self.configuration.app)
                completion(true, count, nil)
            } catch {
                completion(false, 0, error)
            }
        }
    }

    /// Associates samples with a workout this app saved, saving those not yet in the store (share permission for
    /// their types needed), all or nothing. Find them again with `HKQuery.predicateForObjects(from: workout)`.
    /// Adding them changes none of the workout's own values.
    @available(*, deprecated, message: "HealthKit deprecated it in iOS 17 for HKWorkoutBuilder, which OpenHealthKit does not have yet")
    public func addSamples(_ samples: [HKSample], to workout: HKWorkout) async throws {
        try sampleStore().associate(samples, with: workout, app: configuration.app)
    }

    /// Completion-handler form of ``addSamples(_:to:)``; the handler runs off the caller's thread.
    @available(*, deprecated, message: "HealthKit deprecated it in iOS 17 for HKWorkoutBuilder, which OpenHealthKit does not have yet")
    public func add(_ samples: [HKSample], to workout: HKWorkout, completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        let batch = SendableBox(samples)
        completeDetached(completion) { try self.sampleStore().associate(batch.value, with: workout, app: self.configuration.app) }
    }

    /// The earliest date an app may save or read samples for: no limit here.
    public func earliestPermittedSampleDate() -> Date { .distantPast }
}

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
