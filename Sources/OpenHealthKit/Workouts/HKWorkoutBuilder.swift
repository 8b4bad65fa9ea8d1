public import Foundation
import HealthStore

/// Builds a workout step by step, as HealthKit's builder does (the usual way apps write workouts since iOS 12):
/// begin collection, add samples, events, metadata and activities, end collection, then finish.
///
/// ```swift
/// let configuration = HKWorkoutConfiguration()
/// configuration.activityType = .running
/// configuration.locationType = .outdoor
/// let builder = HKWorkoutBuilder(healthStore: store, configuration: configuration, device: .local())
/// try await builder.beginCollection(at: start)
/// try await builder.addSamples([distance, energy])
/// try await builder.endCollection(at: end)
/// let workout = try await builder.finishWorkout()   // saved, with its samples associated
/// workout?.totalDistance                            // the sum of the distance samples added
/// ```
///
/// The samples added are checked at once (only quantity and category samples, of types the app may share, inside
/// the collection) and kept by the builder; ``finishWorkout()`` saves the workout, the samples not yet in the store
/// and their association in one transaction, so a workout is never half saved. ``discardWorkout()`` keeps nothing.
/// The workout's statistics — totals such as `totalDistance`, and each activity's — are computed from the samples
/// added. The configuration's location type and swimming settings become the workout's `HKMetadataKeyIndoorWorkout`,
/// `HKMetadataKeySwimmingLocationType` and `HKMetadataKeyLapLength`, unless the app set them itself.
/// A misuse (adding before beginning, ending before the start, finishing twice) fails with `errorInvalidArgument`
/// and says why.
open class HKWorkoutBuilder: NSObject, @unchecked Sendable {
    // @unchecked: every mutable value lives in `state`, behind `lock`.

    private let healthStore: HKHealthStore
    private let configuration: HKWorkoutConfiguration
    private let lock = NSLock()
    private var state = BuilderState()

    /// The device the workout is recorded on, if known.
    public let device: HKDevice?

    /// A builder for a workout configured as `configuration` (copied: later changes to it are not seen), saved
    /// through `healthStore` as that store's app.
    public init(healthStore: HKHealthStore, configuration: HKWorkoutConfiguration, device: HKDevice?) {
        self.healthStore = healthStore
        self.configuration = configuration.copy()
        self.device = device
        super.init()
    }

    // MARK: - What the builder holds

    /// The workout's configuration (a copy).
    open var workoutConfiguration: HKWorkoutConfiguration { configuration.copy() }
    /// When collection began, once it has.
    open var startDate: Date? { withState { $0.start } }
    /// When collection ended, once it has.
    open var endDate: Date? { withState { $0.end } }
    /// The metadata added so far.
    open var metadata: [String: Any] { withState { $0.metadata.anyDictionary } }
    /// The events added so far, in the order added.
    open var workoutEvents: [HKWorkoutEvent] { withState { $0.events } }
    /// The activities added so far, with their current end dates.
    open var workoutActivities: [HKWorkoutActivity] { withState { $0.activities } }
    /// Statistics of every quantity type among the samples added so far.
    open var allStatistics: [HKQuantityType: HKStatistics] {
        let (samples, start, end) = withState { ($0.samples, $0.start, $0.end) }
        guard let start else { return [:] }
        return WorkoutStatistics.compute(samples, from: start, to: end ?? WorkoutStatistics.lastEnd(samples, after: start), store: healthStore)
    }

    /// Statistics of the samples of `quantityType` added so far, or nil when none was added.
    open func statistics(for quantityType: HKQuantityType) -> HKStatistics? { allStatistics[quantityType] }

    /// The workout's active time at `date`: from the start to `date` (or the end, if earlier), less the paused
    /// time the pause/resume events added so far describe. Zero before collection begins.
    open func elapsedTime(at date: Date) -> TimeInterval {
        let (start, end, events) = withState { ($0.start, $0.end, $0.events) }
        guard let start, date > start else { return 0 }
        let until = min(date, end ?? date)
        return HKWorkout.activeDuration(start: start, end: until, events: events.filter { $0.dateInterval.start <= until })
    }

    // MARK: - Collecting

    /// Sets the workout's start and begins collecting. The app must be allowed to share workouts.
    open func beginCollection(at startDate: Date) async throws {
        switch healthStore.authorizationStatus(for: HKObjectType.workoutType()) {
        case .sharingAuthorized: break
        case .notDetermined:
            throw HKError(.errorAuthorizationNotDetermined, "request authorization to share workouts before building one")
        case .sharingDenied:
            throw HKError(.errorAuthorizationDenied, "the person did not allow this app to share workouts")
        @unknown default:
            throw HKError(.errorAuthorizationDenied, "this app may not share workouts")
        }
        try mutate { state in
            try state.require(.created, to: "begin collection")
            state.start = startDate
            state.phase = .collecting
        }
    }

    /// Completion-handler form of ``beginCollection(at:)``.
    open func beginCollection(withStart startDate: Date, completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        completeDetached(completion) { try await self.beginCollection(at: startDate) }
    }

    /// Adds quantity and category samples to the workout; they are saved with it when it finishes. Each must lie
    /// inside the collection (not before its start, nor after its end) and be of a type the app may share.
    open func addSamples(_ samples: [HKSample]) async throws {
        for sample in samples {
            guard sample is HKQuantitySample || sample is HKCategorySample else {
                throw HKError.invalidArgument("a workout builder takes quantity and category samples, not \(sample.sampleType.identifier)")
            }
        }
        for type in Set(samples.map(\.sampleType)) {
            guard healthStore.authorizationStatus(for: type) == .sharingAuthorized else {
                throw HKError(.errorAuthorizationDenied, "this app may not share \(type.identifier), so it cannot add such samples")
            }
        }
        try mutate { state in
            try state.require(.collecting, to: "add samples")
            for sample in samples {
                try state.checkInside(sample.startDate, sample.endDate, what: "sample \(sample.uuid)")
                guard state.sampleIDs.insert(sample.uuid).inserted else {
                    throw HKError.invalidArgument("sample \(sample.uuid) was already added to this workout")
                }
            }
            state.samples += samples
        }
    }

    /// Completion-handler form of ``addSamples(_:)``.
    open func add(_ samples: [HKSample], completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        let samples = SendableBox(samples)
        completeDetached(completion) { try await self.addSamples(samples.value) }
    }

    /// Adds events (pauses, resumes, laps, segments, markers) inside the collection.
    open func addWorkoutEvents(_ workoutEvents: [HKWorkoutEvent]) async throws {
        try mutate { state in
            try state.require(.collecting, to: "add events")
            for event in workoutEvents {
                try state.checkInside(event.dateInterval.start, event.dateInterval.end, what: "a \(event.type) event")
            }
            state.events += workoutEvents
        }
    }

    /// Completion-handler form of ``addWorkoutEvents(_:)``.
    open func addWorkoutEvents(_ workoutEvents: [HKWorkoutEvent], completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        completeDetached(completion) { try await self.addWorkoutEvents(workoutEvents) }
    }

    /// Adds metadata to the workout (checked as a sample's is); a key added again takes the new value. Allowed until
    /// the workout finishes.
    open func addMetadata(_ metadata: [String: Any]) async throws {
        let checked = try MetadataValidation.validate(metadata) ?? [:]
        try mutate { state in
            guard state.phase == .collecting || state.phase == .ended else {
                throw HKError.invalidArgument("cannot add metadata: the workout builder is \(state.phase)")
            }
            state.metadata.merge(checked) { _, new in new }
        }
    }

    /// Completion-handler form of ``addMetadata(_:)``.
    open func addMetadata(_ metadata: [String: Any], completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        let checked: [String: HKMetadataValue]
        do { checked = try MetadataValidation.validate(metadata) ?? [:] } catch {
            return completeDetached(completion) { throw error }
        }
        completeDetached(completion) { try await self.addMetadata(checked.anyDictionary) }
    }

    /// Adds an activity (one leg of a multisport workout, a swim interval): inside the collection, not overlapping
    /// another activity.
    open func addWorkoutActivity(_ workoutActivity: HKWorkoutActivity) async throws {
        try mutate { state in
            try state.require(.collecting, to: "add an activity")
            try state.checkInside(workoutActivity.startDate, workoutActivity.endDate ?? workoutActivity.startDate, what: "an activity")
            guard !state.activities.contains(where: { $0.uuid == workoutActivity.uuid }) else {
                throw HKError.invalidArgument("activity \(workoutActivity.uuid) was already added")
            }
            try state.checkNoOverlap(workoutActivity)
            state.activities.append(workoutActivity)
        }
    }

    /// Completion-handler form of ``addWorkoutActivity(_:)``.
    open func addWorkoutActivity(_ workoutActivity: HKWorkoutActivity, completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        completeDetached(completion) { try await self.addWorkoutActivity(workoutActivity) }
    }

    /// Sets the end of an activity added before.
    open func updateActivity(uuid: UUID, end endDate: Date) async throws {
        try mutate { state in
            try state.require(.collecting, to: "update an activity")
            let index = try state.activityIndex(uuid)
            let old = state.activities[index]
            guard endDate >= old.startDate else {
                throw HKError.invalidArgument("activity \(uuid) cannot end before it starts")
            }
            try state.checkInside(old.startDate, endDate, what: "activity \(uuid)")
            let updated = HKWorkoutActivity(uuid: old.uuid, configuration: old.workoutConfiguration, start: old.startDate, end: endDate,
                                            events: old.workoutEvents, metadata: old.metadataValues)
            state.activities.remove(at: index)
            try state.checkNoOverlap(updated)
            state.activities.insert(updated, at: index)
        }
    }

    /// Completion-handler form of ``updateActivity(uuid:end:)``.
    open func updateActivity(uuid: UUID, end endDate: Date, completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        completeDetached(completion) { try await self.updateActivity(uuid: uuid, end: endDate) }
    }

    /// Adds metadata to an activity added before.
    open func updateActivity(uuid: UUID, adding metadata: [String: Any]) async throws {
        let checked = try MetadataValidation.validate(metadata) ?? [:]
        try mutate { state in
            try state.require(.collecting, to: "update an activity")
            let index = try state.activityIndex(uuid)
            let old = state.activities[index]
            state.activities[index] = HKWorkoutActivity(
                uuid: old.uuid, configuration: old.workoutConfiguration, start: old.startDate, end: old.endDate,
                events: old.workoutEvents, metadata: (old.metadataValues ?? [:]).merging(checked) { _, new in new })
        }
    }

    /// Completion-handler form of ``updateActivity(uuid:adding:)``.
    open func updateActivity(uuid: UUID, adding metadata: [String: Any], completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        let checked: [String: HKMetadataValue]
        do { checked = try MetadataValidation.validate(metadata) ?? [:] } catch {
            return completeDetached(completion) { throw error }
        }
        completeDetached(completion) { try await self.updateActivity(uuid: uuid, adding: checked.anyDictionary) }
    }

    /// Sets the workout's end and stops collecting: no sample, event or activity is taken after this. Activities
    /// still open end here.
    open func endCollection(at endDate: Date) async throws {
        try mutate { state in
            try state.require(.collecting, to: "end collection")
            guard let start = state.start, endDate >= start else {
                throw HKError.invalidArgument("the workout cannot end (\(endDate.formatted(.iso8601))) before it starts")
            }
            if let late = state.samples.first(where: { $0.endDate > endDate }) {
                throw HKError.invalidArgument("sample \(late.uuid) ends after \(endDate.formatted(.iso8601)), where the workout would end")
            }
            if let late = state.events.first(where: { $0.dateInterval.end > endDate }) {
                throw HKError.invalidArgument("a \(late.type) event lies after \(endDate.formatted(.iso8601)), where the workout would end")
            }
            state.end = endDate
            state.phase = .ended
        }
    }

    /// Completion-handler form of ``endCollection(at:)``.
    open func endCollection(withEnd endDate: Date, completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        completeDetached(completion) { try await self.endCollection(at: endDate) }
    }

    // MARK: - Finishing

    /// Makes the workout from what was added and saves it, with the samples and their association to it, in one
    /// transaction. Collection must have ended. The builder takes nothing more afterwards.
    open func finishWorkout() async throws -> HKWorkout? {
        let snapshot = try mutate { state -> BuilderState in
            try state.require(.ended, to: "finish the workout")
            state.phase = .finishing
            return state
        }
        do {
            let workout = try makeWorkout(snapshot)
            try await healthStore.backend().add(snapshot.samples, to: workout, savingWorkout: true)
            withState { $0.phase = .finished }
            return workout
        } catch {
            withState { $0.phase = .ended }
            throw error
        }
    }

    /// Completion-handler form of ``finishWorkout()``: the saved workout, or nil and the error.
    open func finishWorkout(completion: @escaping @Sendable (HKWorkout?, (any Error)?) -> Void) {
        Task.detached {
            do { completion(try await self.finishWorkout(), nil) } catch { completion(nil, error) }
        }
    }

    /// Stops collecting and forgets everything added; nothing is saved.
    open func discardWorkout() {
        withState { state in
            state = BuilderState()
            state.phase = .discarded
        }
    }

    private func makeWorkout(_ state: BuilderState) throws -> HKWorkout {
        guard let start = state.start, let end = state.end else { throw HKError.invalidArgument("the workout has no start or end") }
        var metadata = state.metadata
        switch configuration.locationType {
        case .indoor: metadata[HKMetadataKeyIndoorWorkout] = metadata[HKMetadataKeyIndoorWorkout] ?? .bool(true)
        case .outdoor: metadata[HKMetadataKeyIndoorWorkout] = metadata[HKMetadataKeyIndoorWorkout] ?? .bool(false)
        default: break
        }
        if configuration.swimmingLocationType != .unknown {
            metadata[HKMetadataKeySwimmingLocationType] = metadata[HKMetadataKeySwimmingLocationType]
                ?? .integer(configuration.swimmingLocationType.rawValue)
        }
        if let lap = configuration.lapLength {
            metadata[HKMetadataKeyLapLength] = metadata[HKMetadataKeyLapLength] ?? .quantity(lap)
        }
        let activities = state.activities.map { activity in
            let activityEnd = activity.endDate ?? end
            return HKWorkoutActivity(
                uuid: activity.uuid, configuration: activity.workoutConfiguration, start: activity.startDate, end: activityEnd,
                events: activity.workoutEvents,
                statistics: WorkoutStatistics.compute(state.samples, from: activity.startDate, to: activityEnd, store: healthStore),
                metadata: activity.metadataValues)
        }
        return HKWorkout(
            activityType: configuration.activityType, start: start, end: end,
            duration: HKWorkout.activeDuration(start: start, end: end, events: state.events),
            events: state.events, activities: activities,
            statistics: WorkoutStatistics.compute(state.samples, from: start, to: end, store: healthStore),
            metadata: metadata.isEmpty ? nil : metadata, device: device)
    }

    // MARK: - State

    private func withState<T>(_ body: (inout BuilderState) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }

    private func mutate<T>(_ body: (inout BuilderState) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        var copy = state
        let result = try body(&copy)
        state = copy
        return result
    }
}
