import Foundation
package import HealthStore

/// What an ``HKHealthStore`` asks of the store behind it, for one app: the embedded engine in this process
/// (``EmbeddedBackend``) or the daemon that owns the person's store (``RemoteBackend``, `health serve`). The facade
/// turns HealthKit's calls into these and both answer alike, so an app cannot tell them apart but by speed.
package protocol HealthBackend: Sendable {
    /// The app's permission to save objects of `type`. Synchronous, as HealthKit's `authorizationStatus(for:)` is.
    func authorizationStatus(for type: HKObjectType) throws -> HKAuthorizationStatus
    /// Asks the person about the types not decided yet, and waits for the answer.
    func requestAuthorization(toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>) async throws
    /// Asks the person which objects of `type` (read object by object) that match `filter` the app may read, and waits.
    func requestPerObjectReadAuthorization(for type: HKObjectType, matching filter: SampleFilter?) async throws
    /// Whether requesting these types would show the person anything.
    func requestStatus(toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>) async throws
        -> HKAuthorizationRequestStatus
    /// Saves objects, all or none.
    func save(_ objects: [HKObject]) async throws
    /// Associates samples with a workout the app saved, saving those not in the store yet, all or none; with
    /// `savingWorkout`, saves the workout in the same transaction (`HKWorkoutBuilder.finishWorkout()`).
    func add(_ samples: [HKSample], to workout: HKWorkout, savingWorkout: Bool) async throws
    /// Saves a quantity series (`HKQuantitySeriesSampleBuilder.finishSeries`) as one sample with its quantities, as the
    /// app; returns the sample.
    func saveQuantitySeries(_ draft: QuantitySeriesDraft) async throws -> HKQuantitySample
    /// Relates a workout effort score to a workout (or one of its activities), saving the score when it is not in the
    /// store yet (`relateWorkoutEffortSample`).
    func relateWorkoutEffort(_ sample: HKSample, workout: UUID, activity: UUID?) async throws
    /// Ends the relationship of the app's effort score `sample` with a workout (or one of its activities).
    func unrelateWorkoutEffort(_ sample: UUID, workout: UUID, activity: UUID?) async throws
    /// Deletes objects the app saved, all or none.
    func delete(_ objects: [HKObject]) async throws
    /// Deletes the app's own objects of `type` that match `filter`; returns how many.
    func deleteObjects(of type: HKObjectType, matching filter: SampleFilter) async throws -> Int
    /// The samples of `type` the app may see that match `filter`, in `order` (start date ascending when empty), at
    /// most `limit` (nil: all).
    func samples(of type: HKSampleType, matching filter: SampleFilter?, order: [SampleOrder], limit: Int?) async throws -> [HKSample]
    /// What changed after `anchor` (from the start when nil) among what the app may see, with the anchor that follows.
    func anchoredChanges(_ plan: AnchoredPlan, after anchor: HKQueryAnchor?) async throws -> AnchoredPlan.Answer
    /// A long-running anchored query: what changed after `anchor` (the plan's limit applies), then — after each save or
    /// delete the app can see among the plan's types — what changed since the last answer, unlimited. Ends when the
    /// consumer stops, or with the error the query reports.
    func anchoredUpdates(_ plan: AnchoredPlan, after anchor: HKQueryAnchor?) -> AsyncThrowingStream<AnchoredPlan.Answer, any Error>
    /// An observer query's updates: `nil` once it started, then the identifiers of the plan's types with changes the app
    /// may see, as they happen (one update may stand for several changes). Ends when the consumer stops, or with the
    /// error the query reports.
    func observerUpdates(_ plan: AnchoredPlan) -> AsyncThrowingStream<Set<String>?, any Error>
    /// The sources (apps and devices) of the samples of `type` the app may see that match `filter`; an app that may not
    /// read the type learns of no source but itself.
    func sources(of type: HKSampleType, matching filter: SampleFilter?) async throws -> [HKSource]
    /// The person's activity summaries that match `filter` (activity summary predicates only), in day order: none when
    /// the app may not read them.
    func activitySummaries(matching filter: SampleFilter?) async throws -> [HKActivitySummary]
    /// The medications the person tracks that the app may read and that match (archived and schedule conditions), in the
    /// order they were added, at most `limit`.
    func userAnnotatedMedications(matching filter: SampleFilter?, limit: Int?) async throws -> [HKUserAnnotatedMedication]
    /// A characteristic as stored (`yyyy-MM-dd` for the date of birth, the enum's raw value otherwise); nil when not
    /// entered or when the app may not read it, which look the same. Synchronous, as HealthKit's characteristic calls are.
    func characteristic(_ type: HKCharacteristicTypeIdentifier) throws -> String?
    /// The units the person prefers for these types; the app must have asked for read or share access to each first.
    func preferredUnits(for types: Set<HKQuantityType>) async throws -> [HKQuantityType: HKUnit]
    /// The units (strings, by type identifier) of the quantity types the app may ask about, as they are now and after
    /// each change of them by anyone (another process included), until the consumer stops.
    func preferredUnitUpdates() -> AsyncThrowingStream<[String: String], any Error>
    /// Wakes the app's observer queries of `type` at most this often (`enableBackgroundDelivery`); kept in the store.
    func enableBackgroundDelivery(for type: HKObjectType, frequency: HKUpdateFrequency) async throws
    /// Stops background delivery for `type`, or for every type when nil.
    func disableBackgroundDelivery(for type: HKObjectType?) async throws
    /// The frequency the app enabled for the type, nil when none (its observers are woken for every change).
    func backgroundDeliveryFrequency(for type: String) async throws -> HKUpdateFrequency?
    /// The activity summaries the app may read that match `filter` (the first element, possibly empty), then the new or
    /// changed ones after each change (never empty), until the consumer stops.
    func activitySummaryUpdates(matching filter: SampleFilter?) -> AsyncThrowingStream<[HKActivitySummary], any Error>
    /// The voltages (microvolts, in order) of electrocardiogram `uuid` and its stored sampling frequency (hertz), when
    /// the app may see it; `errorNoData` otherwise, the same whether it is hidden or absent.
    func electrocardiogramVoltages(of uuid: UUID) async throws -> (samplingFrequency: Double?, microvolts: [Double])
    /// The beats of heartbeat series `uuid`, in order, when the app may see it; `errorNoData` otherwise.
    func heartbeats(of uuid: UUID) async throws -> [HeartbeatSeriesBeat]
    /// What the signature of sample `uuid` of `type` says, as stored, against the certificates the person trusts, when
    /// the app may see the sample; `errorNoData` otherwise, the same whether it is hidden or absent.
    func signatureVerification(of uuid: UUID, type: HKSampleType) async throws -> SampleSignatureVerification
    /// The locations of workout route `uuid` (those timestamped in `interval`, when given), in order, when the app may
    /// see it; `errorNoData` otherwise.
    func routeLocations(of uuid: UUID, in interval: DateInterval?) async throws -> [CLLocation]
    /// The quantities, each with its interval and its value in the sample's unit, of those of the series samples `uuids`
    /// of `type` the app may see; a UUID it may not see, or of a sample holding one quantity, is left out.
    func quantitySeries(of uuids: [UUID], type: HKQuantityType) async throws -> [UUID: [(interval: DateInterval, value: Double)]]
    /// The verifiable records with one of `recordTypes`, of one of `sourceTypes` (all when empty), matching `filter`,
    /// that the person chooses to share with the app on a record-sharing sheet (shown even when nothing matches, so
    /// the app cannot learn whether the person has such records); `errorUserCanceled` when the person closes it.
    func verifiableRecords(types recordTypes: [String], sourceTypes: [String], matching filter: SampleFilter?) async throws
        -> [HKVerifiableClinicalRecord]
    /// The statistics of what the app may see that `plan` selects (`nil`: no such sample), sources merged by `mergeMode`.
    func statistics(_ plan: StatisticsPlan, mergeMode: HKStatisticsMergeMode) async throws -> HKStatistics?
    /// The same per interval: a statistics collection.
    func statisticsCollection(_ plan: StatisticsPlan, intervals: StatisticsIntervals, mergeMode: HKStatisticsMergeMode) async throws
        -> HKStatisticsCollectionQuery.Computed
    /// The workout-session messages to `endpoint` from the app's other instances on this store (``WorkoutSessionRelay``),
    /// as a listener for mirrored sessions (`session` nil) or as primary session `session`: `nil` once the endpoint is
    /// registered, then each message, until the consumer stops.
    func workoutSessionMessages(endpoint: UUID, session: UUID?) -> AsyncThrowingStream<WorkoutSessionMessage?, any Error>
    /// Sends a workout-session message from `endpoint` to the app's other instances on this store; returns how many
    /// endpoints it reached.
    func sendWorkoutSessionMessage(_ message: WorkoutSessionMessage, from endpoint: UUID) async throws -> Int
}
