public import Foundation
package import HealthStore

/// The access point to the person's health data, as in HealthKit: one app's view of one person's store.
///
/// Give it the store folder, the app's manifest and the presenter that asks the person, or let
/// ``init()`` read them from the environment (see ``Configuration/fromEnvironment()``):
///
/// ```swift
/// let store = HKHealthStore(configuration: .init(
///     storeDirectory: URL(fileURLWithPath: "health-store"),
///     app: AppManifest(bundleIdentifier: "com.example.steps", name: "Steps",
///                      shareUsageDescription: "Charts your steps.", updateUsageDescription: "Logs walks."),
///     presenter: ScriptedPresenter(.allowAll)))
/// try await store.requestAuthorization(toShare: [HKQuantityType(.stepCount)], read: [HKQuantityType(.stepCount)])
/// store.authorizationStatus(for: HKQuantityType(.stepCount))   // .sharingAuthorized
/// ```
///
/// It is an open class, as HealthKit's is: a test double subclasses it and overrides what the code under test calls.
/// As in HealthKit, where the two are one Objective-C method, overriding either the completion-handler or the `async`
/// form of a method reaches callers of both.
open class HKHealthStore: NSObject, @unchecked Sendable {
    // @unchecked: every stored property is an immutable `let` of a Sendable value; subclasses (test doubles) keep
    // their own state safe.
    /// Where the store lives, which app is asking, and who answers authorization requests — or, with ``server``, the
    /// daemon that owns the person's store and the app's credential for it.
    public struct Configuration: Sendable {
        public var storeDirectory: URL
        public var app: AppManifest
        public var presenter: any HKAuthorizationPresenter
        /// How statistics merge overlapping sources: `.exact` (Health Connect's sweep, the default) or
        /// `.appleGrid900` (HealthKit's observed 15-minute grid; experimental).
        public var statisticsMergeMode: HKStatisticsMergeMode
        /// The daemon to call instead of opening `storeDirectory` (`health serve`): the app is then the one its token
        /// names, and the person answers its authorization requests where the daemon asks them.
        public var server: Server?

        public init(storeDirectory: URL, app: AppManifest, presenter: any HKAuthorizationPresenter,
                    statisticsMergeMode: HKStatisticsMergeMode = .exact) {
            self.storeDirectory = storeDirectory
            self.app = app
            self.presenter = presenter
            self.statisticsMergeMode = statisticsMergeMode
        }

        /// The store a daemon serves: every call goes to `server` as the app its token names. `app` is for the app's
        /// own reference (its name); the daemon knows the app by its token.
        public init(server: Server, app: AppManifest = AppManifest(bundleIdentifier: "", name: "")) {
            self.init(storeDirectory: URL(fileURLWithPath: "/nonexistent"), app: app, presenter: ScriptedPresenter(.denyAll))
            self.server = server
        }
    }

    /// A daemon serving the person's store (`health serve`), and the app's credential for it.
    public struct Server: Sendable, Hashable {
        /// The daemon's Unix socket (an absolute path, as `health serve` prints it) or its URL (`http://127.0.0.1:8765`,
        /// `https://…`).
        public var address: String
        /// The bearer token the app received once the person approved it.
        public var token: String

        public init(address: String, token: String) {
            self.address = address
            self.token = token
        }
    }

    public let configuration: Configuration
    /// The opened store, or why it could not be opened (every call then fails with that error).
    private let opened: Result<any HealthBackend, HKError>
    /// Listens for the app's workout sessions mirrored to this store (``workoutSessionMirroringStartHandler``).
    package let workoutMirroring = WorkoutMirroring()

    /// Opens the store described by `configuration`. Opening failures surface as
    /// `HKError(.errorDatabaseInaccessible)` from each call, since HealthKit's initializer cannot throw.
    public init(configuration: Configuration) {
        self.configuration = configuration
        opened = Self.open(configuration, registering: true)
        super.init()
    }

    /// The person's own view (`HealthPerson.healthStore`): its reader identity is never registered as an app, and
    /// registering it through the public initializer fails.
    package init(configuration: Configuration, registering: Bool) {
        self.configuration = configuration
        opened = Self.open(configuration, registering: registering)
        super.init()
    }

    /// One app's view of a store already open (the daemon's, shared by every app it serves). The app is not
    /// registered here: the daemon registers an app when the person approves it.
    package init(configuration: Configuration, database: HealthDatabase) {
        self.configuration = configuration
        opened = .success(EmbeddedBackend(samples: SampleStore(database: database), app: configuration.app, presenter: configuration.presenter))
        super.init()
    }

    /// Opens the store the environment describes, so unmodified HealthKit code runs:
    /// `OPENHEALTHKIT_STORE` (store folder), `OPENHEALTHKIT_APP` (manifest JSON file) and
    /// `OPENHEALTHKIT_PERSON` (scripted person JSON file). See ``Configuration/fromEnvironment()``.
    /// A test double subclassing `HKHealthStore` calls this `super.init()` (or inherits it).
    public override init() {
        switch Configuration.fromEnvironment() {
        case .success(let configuration):
            self.configuration = configuration
            opened = Self.open(configuration, registering: true)
            if case .success(let backend as EmbeddedBackend) = opened, let person = configuration.presenter as? ScriptedPresenter,
               let guest = person.script.guestMode {
                try? backend.samples.authorization.setGuestMode(guest)
            }
        case .failure(let error):
            configuration = Configuration(storeDirectory: URL(fileURLWithPath: "/nonexistent"),
                                          app: AppManifest(bundleIdentifier: "", name: ""), presenter: ScriptedPresenter(.denyAll))
            opened = .failure(error)
        }
        super.init()
    }

    deinit {
        PreferenceChanges.forget(self)
    }

    private static func open(_ configuration: Configuration, registering: Bool) -> Result<any HealthBackend, HKError> {
        if let server = configuration.server { return .success(RemoteBackend(server: server)) }
        do {
            let samples = SampleStore(database: try HealthDatabase(directory: configuration.storeDirectory))
            if registering { try samples.authorization.register(configuration.app) }
            return .success(EmbeddedBackend(samples: samples, app: configuration.app, presenter: configuration.presenter))
        } catch let error as HKError {
            return .failure(error)
        } catch {
            return .failure(HKError(.errorDatabaseInaccessible, "\(error)"))
        }
    }

    /// What this store's calls go to: the engine in this process or the daemon.
    package func backend() throws -> any HealthBackend {
        try opened.get()
    }

    /// The engine, for what only a store opened in this process has: the person's side (authorization decisions,
    /// characteristics) and tests. Every call of the public API goes through the backend; through a daemon these fail,
    /// saying so.
    private func embedded() throws -> EmbeddedBackend {
        guard let embedded = try opened.get() as? EmbeddedBackend else {
            throw HKError(.errorHealthDataUnavailable, "this store talks to the health daemon (OPENHEALTHKIT_SERVER): "
                + "the store's own database is the daemon's, and only a store opened in this process reaches it")
        }
        return embedded
    }

    /// The authorization database of the opened store.
    package func service() throws -> AuthorizationService {
        try embedded().samples.authorization
    }

    /// The samples of the opened store.
    package func sampleStore() throws -> SampleStore {
        try embedded().samples
    }

    /// The characteristics of the opened store.
    package func characteristicStore() throws -> CharacteristicStore {
        CharacteristicStore(database: try embedded().samples.database)
    }

    /// Whether health data is available: always, on this platform.
    open class func isHealthDataAvailable() -> Bool { true }

    /// Whether this store can hold clinical records: it can.
    open func supportsHealthRecords() -> Bool { true }

    // MARK: - Authorization

    /// The app's permission to save objects of `type`. Read permission is never revealed, as in HealthKit.
    /// A store that cannot be opened reports `.notDetermined`.
    open func authorizationStatus(for type: HKObjectType) -> HKAuthorizationStatus {
        (try? backend().authorizationStatus(for: type)) ?? .notDetermined
    }

    /// Asks the person for access to the types not decided yet, through the configured presenter.
    /// Completes at once without asking when every type is already decided, or in guest mode.
    open func requestAuthorization(toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>) async throws {
        try await viaCompletion("requestAuthorization", work: {
            try await self.backend().requestAuthorization(toShare: typesToShare, read: typesToRead)
        }) { self.requestAuthorization(toShare: typesToShare, read: typesToRead, completion: $0) }
    }

    /// Completion-handler form of ``requestAuthorization(toShare:read:)``; the handler runs off the caller's thread.
    open func requestAuthorization(
        toShare typesToShare: Set<HKSampleType>?, read typesToRead: Set<HKObjectType>?,
        completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        answer("requestAuthorization", completion, work: {
            try await self.backend().requestAuthorization(toShare: typesToShare ?? [], read: typesToRead ?? [])
        }, viaAsync: { try await self.requestAuthorization(toShare: typesToShare ?? [], read: typesToRead ?? []) })
    }

    /// Asks the person which objects of `objectType` — a type read object by object, such as
    /// `HKObjectType.visionPrescriptionType()` — the app may read: every object matching `predicate` goes on a sheet
    /// (always shown, even when nothing matches), each switch as it is now (on for those the app saved, unless the person
    /// turned them off), and the person's choices replace the earlier ones for those objects. Reads of the type then
    /// return exactly the objects allowed. Fails with
    /// `errorInvalidArgument` for a type authorized whole, and `errorUserCanceled` when the person closes the sheet.
    open func requestPerObjectReadAuthorization(for objectType: HKObjectType, predicate: NSPredicate?) async throws {
        let boxed = SendableBox(predicate)
        try await viaCompletion("requestPerObjectReadAuthorization", work: {
            try await self.backend().requestPerObjectReadAuthorization(for: objectType, matching: try SampleFilter(optional: boxed.value))
        }) { self.requestPerObjectReadAuthorization(for: objectType, predicate: boxed.value, completion: $0) }
    }

    /// Completion-handler form of ``requestPerObjectReadAuthorization(for:predicate:)``: `true` once the person answered.
    open func requestPerObjectReadAuthorization(
        for objectType: HKObjectType, predicate: NSPredicate?, completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        let boxed = SendableBox(predicate)
        answer("requestPerObjectReadAuthorization", completion, work: {
            try await self.backend().requestPerObjectReadAuthorization(for: objectType, matching: try SampleFilter(optional: boxed.value))
        }, viaAsync: { try await self.requestPerObjectReadAuthorization(for: objectType, predicate: boxed.value) })
    }

    /// Whether requesting these types would show the person anything: `.shouldRequest` if any was never
    /// presented, `.unnecessary` otherwise.
    open func statusForAuthorizationRequest(toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>) async throws
        -> HKAuthorizationRequestStatus
    {
        try await viaCompletion("requestStatus", work: {
            try await self.backend().requestStatus(toShare: typesToShare, read: typesToRead)
        }) { self.getRequestStatusForAuthorization(toShare: typesToShare, read: typesToRead, completion: $0) }
    }

    /// Completion-handler form of ``statusForAuthorizationRequest(toShare:read:)``: `.unknown` with the error on failure.
    open func getRequestStatusForAuthorization(
        toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>,
        completion: @escaping @Sendable (HKAuthorizationRequestStatus, (any Error)?) -> Void
    ) {
        answer("requestStatus", completion, failure: .unknown, work: {
            try await self.backend().requestStatus(toShare: typesToShare, read: typesToRead)
        }, viaAsync: { try await self.statusForAuthorizationRequest(toShare: typesToShare, read: typesToRead) })
    }

    /// Handles an authorization request an app extension made, as the containing app does in HealthKit. Here an
    /// extension is an ordinary process with its own `HKHealthStore`, whose request is presented to the person where it
    /// is made: nothing is ever waiting for the app, so this completes at once with success.
    open func handleAuthorizationForExtension() async throws {}

    /// Completion-handler form of ``handleAuthorizationForExtension()``.
    open func handleAuthorizationForExtension(completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        completeDetached(completion) { try await self.handleAuthorizationForExtension() }
    }

    // MARK: - Saving and deleting

    /// Saves an object. Fails with `errorAuthorizationNotDetermined` or `errorAuthorizationDenied` when the
    /// app may not share its type, and `errorNotPermissibleForGuestUserMode` in guest mode.
    open func save(_ object: HKObject) async throws {
        try await viaCompletion("saveOne", work: { try await self.backend().save([object]) }) {
            self.save(object, withCompletion: $0)
        }
    }

    /// Saves objects atomically: all of them, or none when any is refused.
    open func save(_ objects: [HKObject]) async throws {
        let batch = SendableBox(objects)
        try await viaCompletion("saveMany", work: { try await self.backend().save(batch.value) }) {
            self.save(batch.value, withCompletion: $0)
        }
    }

    /// Completion-handler form of ``save(_:)-(HKObject)``; the handler runs off the caller's thread.
    open func save(_ object: HKObject, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        answer("saveOne", completion, work: { try await self.backend().save([object]) },
               viaAsync: { try await self.save(object) })
    }

    /// Completion-handler form of ``save(_:)-([HKObject])``; the handler runs off the caller's thread.
    open func save(_ objects: [HKObject], withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        let batch = SendableBox(objects)
        answer("saveMany", completion, work: { try await self.backend().save(batch.value) },
               viaAsync: { try await self.save(batch.value) })
    }

    /// Deletes an object the app saved. Deleting another source's object fails with `errorAuthorizationDenied`.
    open func delete(_ object: HKObject) async throws {
        try await viaCompletion("deleteOne", work: { try await self.backend().delete([object]) }) {
            self.delete(object, withCompletion: $0)
        }
    }

    /// Deletes objects the app saved, atomically.
    open func delete(_ objects: [HKObject]) async throws {
        let batch = SendableBox(objects)
        try await viaCompletion("deleteMany", work: { try await self.backend().delete(batch.value) }) {
            self.delete(batch.value, withCompletion: $0)
        }
    }

    /// Completion-handler form of ``delete(_:)-(HKObject)``; the handler runs off the caller's thread.
    open func delete(_ object: HKObject, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        answer("deleteOne", completion, work: { try await self.backend().delete([object]) },
               viaAsync: { try await self.delete(object) })
    }

    /// Completion-handler form of ``delete(_:)-([HKObject])``; the handler runs off the caller's thread.
    open func delete(_ objects: [HKObject], withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        let batch = SendableBox(objects)
        answer("deleteMany", completion, work: { try await self.backend().delete(batch.value) },
               viaAsync: { try await self.delete(batch.value) })
    }

    /// Deletes every object of `objectType` that this app saved and that matches `predicate` (made by
    /// `HKQuery.predicateFor…`, possibly combined with `NSCompoundPredicate`), and returns how many. Other
    /// sources' objects are left alone. A predicate OpenHealthKit cannot compile is `errorInvalidArgument`.
    open func deleteObjects(of objectType: HKObjectType, predicate: NSPredicate) async throws -> Int {
        let boxed = SendableBox(predicate)
        return try await viaCompletion("deleteObjects", work: {
            try await self.backend().deleteObjects(of: objectType, matching: try SampleFilter(boxed.value))
        }) { (done: @escaping @Sendable (Int, (any Error)?) -> Void) in
            self.deleteObjects(of: objectType, predicate: predicate) { _, count, error in done(count, error) }
        }
    }

    /// Completion-handler form of ``deleteObjects(of:predicate:)``; the handler gets success, the number
    /// deleted and the error, off the caller's thread.
    open func deleteObjects(
        of objectType: HKObjectType, predicate: NSPredicate, withCompletion completion: @escaping @Sendable (Bool, Int, (any Error)?) -> Void
    ) {
        let predicate = SendableBox(predicate)
        answer("deleteObjects", { count, error in completion(error == nil, count, error) }, failure: 0, work: {
            try await self.backend().deleteObjects(of: objectType, matching: try SampleFilter(predicate.value))
        }, viaAsync: { try await self.deleteObjects(of: objectType, predicate: predicate.value) })
    }

    /// Associates samples with a workout this app saved, saving those not yet in the store (share permission for
    /// their types needed), all or nothing. Find them again with `HKQuery.predicateForObjects(from: workout)`.
    /// Adding them changes none of the workout's own values.
    @available(*, deprecated, message: "HealthKit deprecated it in iOS 17 for HKWorkoutBuilder")
    open func addSamples(_ samples: [HKSample], to workout: HKWorkout) async throws {
        let batch = SendableBox(samples)
        try await viaCompletion("addSamples", work: { try await self.backend().add(batch.value, to: workout, savingWorkout: false) }) {
            self.add(batch.value, to: workout, completion: $0)
        }
    }

    /// Completion-handler form of ``addSamples(_:to:)``; the handler runs off the caller's thread.
    @available(*, deprecated, message: "HealthKit deprecated it in iOS 17 for HKWorkoutBuilder")
    open func add(_ samples: [HKSample], to workout: HKWorkout, completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        let batch = SendableBox(samples)
        answer("addSamples", completion, work: { try await self.backend().add(batch.value, to: workout, savingWorkout: false) },
               viaAsync: { try await self.addSamples(batch.value, to: workout) })
    }

    // MARK: Workout effort (iOS 18)
    // A `workoutEffortScore` or `estimatedWorkoutEffortScore` sample, from 0 to 10 `appleEffortScore`, rates a workout or
    // one of its activities. As in HealthKit, such a sample is saved only by relating it — `save(_:)` refuses it — and
    // `HKQuery.predicateForWorkoutEffortSamplesRelated(workout:activity:)` finds it.

    /// Relates `sample` to `workout` (to `activity` of it, when given), saving the sample when it is not in the store
    /// yet. The app must be allowed to share the sample's type, and the workout must be one it may see; a workout it may
    /// not see is answered as one that is not in the store (`errorInvalidArgument`). True when done.
    open func relateWorkoutEffortSample(_ sample: HKSample, with workout: HKWorkout, activity: HKWorkoutActivity?) async throws -> Bool {
        let sample = SendableBox(sample)
        try await viaCompletion("relateWorkoutEffortSample", work: {
            try await self.backend().relateWorkoutEffort(sample.value, workout: workout.uuid, activity: activity?.uuid)
        }) { self.relateWorkoutEffortSample(sample.value, with: workout, activity: activity, completion: $0) }
        return true
    }

    /// Completion-handler form of ``relateWorkoutEffortSample(_:with:activity:)``; the handler runs off the caller's thread.
    open func relateWorkoutEffortSample(_ sample: HKSample, with workout: HKWorkout, activity: HKWorkoutActivity?,
                                        completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        let sample = SendableBox(sample)
        answer("relateWorkoutEffortSample", completion, work: {
            try await self.backend().relateWorkoutEffort(sample.value, workout: workout.uuid, activity: activity?.uuid)
        }, viaAsync: { _ = try await self.relateWorkoutEffortSample(sample.value, with: workout, activity: activity) })
    }

    /// Ends the relationship of the app's own effort score `sample` with `workout` (and `activity`, when given); the
    /// sample stays in the store. A sample not related so is `errorInvalidArgument`. True when done.
    open func unrelateWorkoutEffortSample(_ sample: HKSample, from workout: HKWorkout, activity: HKWorkoutActivity?) async throws -> Bool {
        let uuid = sample.uuid
        try await viaCompletion("unrelateWorkoutEffortSample", work: {
            try await self.backend().unrelateWorkoutEffort(uuid, workout: workout.uuid, activity: activity?.uuid)
        }) { self.unrelateWorkoutEffortSample(sample, from: workout, activity: activity, completion: $0) }
        return true
    }

    /// Completion-handler form of ``unrelateWorkoutEffortSample(_:from:activity:)``; the handler runs off the caller's thread.
    open func unrelateWorkoutEffortSample(_ sample: HKSample, from workout: HKWorkout, activity: HKWorkoutActivity?,
                                          completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        let box = SendableBox(sample)
        answer("unrelateWorkoutEffortSample", completion, work: {
            try await self.backend().unrelateWorkoutEffort(box.value.uuid, workout: workout.uuid, activity: activity?.uuid)
        }, viaAsync: { _ = try await self.unrelateWorkoutEffortSample(box.value, from: workout, activity: activity) })
    }

    /// The earliest date an app may save or read samples for: no limit here.
    open func earliestPermittedSampleDate() -> Date { .distantPast }

    /// Asks HealthKit to recalibrate the estimates it makes for `sampleType` (six-minute-walk distance) from `date`
    /// on, after an event that changes them (surgery, an injury). As in HealthKit, the type must allow it
    /// (`allowsRecalibrationForEstimates`, else `errorInvalidArgument`) and the app must be allowed to share it (else
    /// `errorAuthorizationDenied` or `errorAuthorizationNotDetermined`). OpenHealthKit makes no estimates of its own,
    /// so once checked there is nothing to recalibrate: the call succeeds.
    open func recalibrateEstimates(sampleType: HKSampleType, date: Date) async throws {
        guard sampleType.allowsRecalibrationForEstimates else {
            throw HKError.invalidArgument("\(sampleType.identifier) has no estimates to recalibrate (allowsRecalibrationForEstimates is false)")
        }
        switch authorizationStatus(for: sampleType) {
        case .sharingAuthorized: return
        case .notDetermined:
            throw HKError(.errorAuthorizationNotDetermined, "request authorization to share \(sampleType.identifier) before recalibrating it")
        default:
            throw HKError(.errorAuthorizationDenied, "this app may not share \(sampleType.identifier), so it may not recalibrate it")
        }
    }

    /// Completion-handler form of ``recalibrateEstimates(sampleType:date:)``.
    open func recalibrateEstimates(sampleType: HKSampleType, date: Date, completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        completeDetached(completion) { try await self.recalibrateEstimates(sampleType: sampleType, date: date) }
    }

    /// Splits a workout's total energy into active and resting energy. HealthKit stopped supporting it in iOS 11; so
    /// does OpenHealthKit: the handler always gets `errorInvalidArgument` saying so.
    @available(*, deprecated, message: "No longer supported")
    open func splitTotalEnergy(_ totalEnergy: HKQuantity, start startDate: Date, end endDate: Date,
                               resultsHandler: @escaping @Sendable (HKQuantity?, HKQuantity?, (any Error)?) -> Void) {
        Task.detached {
            resultsHandler(nil, nil, HKError.invalidArgument("splitTotalEnergy(_:start:end:resultsHandler:) is no longer supported, as in HealthKit since iOS 11"))
        }
    }

    /// Launches the workout app on the paired Apple Watch. No watch pairs with this platform:
    /// `errorHealthDataUnavailable`, saying so.
    open func startWatchApp(toHandle workoutConfiguration: HKWorkoutConfiguration) async throws {
        throw HKError(.errorHealthDataUnavailable, "no Apple Watch is paired with this computer; there is no watch app to start")
    }

    /// Completion-handler form of ``startWatchApp(toHandle:)``.
    open func startWatchApp(with workoutConfiguration: HKWorkoutConfiguration, completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        let configuration = SendableBox(workoutConfiguration.copy())
        completeDetached(completion) { try await self.startWatchApp(toHandle: configuration.value) }
    }

    /// Called with each workout session that another instance of this app — on this store, in this process or through
    /// the same daemon — starts mirroring (`HKWorkoutSession.startMirroringToCompanionDevice()`), as HealthKit calls it
    /// on the iPhone when the Apple Watch app mirrors its session. The session is `.mirrored`: set its delegate to hear
    /// it. Set the handler early: a session that starts mirroring while no instance listens fails with
    /// `errorHealthDataUnavailable`. Setting it to nil stops listening (mirrored sessions received before are
    /// disconnected).
    open var workoutSessionMirroringStartHandler: (@Sendable (HKWorkoutSession) -> Void)? {
        get { workoutMirroring.currentHandler }
        set { workoutMirroring.setHandler(newValue, store: self) }
    }

    // MARK: - Queries

    /// Starts a query; its handler runs off the caller's thread. A kind of query OpenHealthKit cannot run yet
    /// is reported on standard error and never calls its handler.
    open func execute(_ query: HKQuery) {
        guard let query = query as? any ExecutableQuery else {
            FileHandle.standardError.write(Data("OpenHealthKit: \(type(of: query)) queries are not supported yet\n".utf8))
            return
        }
        query.start(on: self)
    }

    /// Stops a query: a one-shot query that has not answered yet never will; a long-running one stops updating.
    open func stop(_ query: HKQuery) {
        (query as? any ExecutableQuery)?.stop()
    }

    // MARK: - Characteristics

    /// The person's biological sex; `.notSet` when not entered or when the app may not read it.
    open func biologicalSex() throws -> HKBiologicalSexObject {
        HKBiologicalSexObject(biologicalSex: try characteristic(.biologicalSex).flatMap(HKBiologicalSex.init) ?? .notSet)
    }

    /// The person's blood type; `.notSet` when not entered or when the app may not read it.
    open func bloodType() throws -> HKBloodTypeObject {
        HKBloodTypeObject(bloodType: try characteristic(.bloodType).flatMap(HKBloodType.init) ?? .notSet)
    }

    /// The person's Fitzpatrick skin type; `.notSet` when not entered or when the app may not read it.
    open func fitzpatrickSkinType() throws -> HKFitzpatrickSkinTypeObject {
        HKFitzpatrickSkinTypeObject(skinType: try characteristic(.fitzpatrickSkinType).flatMap(HKFitzpatrickSkinType.init) ?? .notSet)
    }

    /// Whether the person uses a wheelchair; `.notSet` when not entered or when the app may not read it.
    open func wheelchairUse() throws -> HKWheelchairUseObject {
        HKWheelchairUseObject(wheelchairUse: try characteristic(.wheelchairUse).flatMap(HKWheelchairUse.init) ?? .notSet)
    }

    /// The person's Move ring mode; `.activeEnergy` when not entered or when the app may not read it.
    open func activityMoveMode() throws -> HKActivityMoveModeObject {
        HKActivityMoveModeObject(activityMoveMode: try characteristic(.activityMoveMode).flatMap(HKActivityMoveMode.init) ?? .activeEnergy)
    }

    /// The person's date of birth, at the start of that day in the Gregorian calendar; `errorNoData` when not entered
    /// or when the app may not read it.
    @available(*, deprecated, renamed: "dateOfBirthComponents()")
    open func dateOfBirth() throws -> Date {
        let components = try dateOfBirthComponents()
        guard let date = components.calendar?.date(from: components) else {
            throw HKError(.errorNoData, "no date of birth this app may read")
        }
        return date
    }

    /// The person's date of birth as year, month and day (Gregorian). Empty components when not entered
    /// or when the app may not read it — the two look the same, as in HealthKit.
    open func dateOfBirthComponents() throws -> DateComponents {
        guard let text = try backend().characteristic(.dateOfBirth) else {
            return DateComponents()
        }
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return DateComponents() }
        return DateComponents(calendar: Calendar(identifier: .gregorian), year: parts[0], month: parts[1], day: parts[2])
    }

    // MARK: - Background delivery

    /// Asks to be woken for changes to `type` at most this often. The request is kept in the store (it outlives
    /// the process, as in HealthKit) and observer queries of this app honour it: with `.hourly`, `.daily` or
    /// `.weekly`, an observer fires at most once per period and holds later changes until the period ends;
    /// with `.immediate` (or nothing enabled) it fires for every change.
    open func enableBackgroundDelivery(for type: HKObjectType, frequency: HKUpdateFrequency) async throws {
        try await viaCompletion("enableBackgroundDelivery", work: {
            try await self.backend().enableBackgroundDelivery(for: type, frequency: frequency)
        }) { self.enableBackgroundDelivery(for: type, frequency: frequency, withCompletion: $0) }
    }

    /// Completion-handler form of ``enableBackgroundDelivery(for:frequency:)``.
    open func enableBackgroundDelivery(for type: HKObjectType, frequency: HKUpdateFrequency,
                                         withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        answer("enableBackgroundDelivery", completion, work: {
            try await self.backend().enableBackgroundDelivery(for: type, frequency: frequency)
        }, viaAsync: { try await self.enableBackgroundDelivery(for: type, frequency: frequency) })
    }

    /// Stops background delivery for `type`.
    open func disableBackgroundDelivery(for type: HKObjectType) async throws {
        try await viaCompletion("disableBackgroundDelivery", work: {
            try await self.backend().disableBackgroundDelivery(for: type)
        }) { self.disableBackgroundDelivery(for: type, withCompletion: $0) }
    }

    /// Completion-handler form of ``disableBackgroundDelivery(for:)``.
    open func disableBackgroundDelivery(for type: HKObjectType, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        answer("disableBackgroundDelivery", completion, work: {
            try await self.backend().disableBackgroundDelivery(for: type)
        }, viaAsync: { try await self.disableBackgroundDelivery(for: type) })
    }

    /// Stops background delivery for every type.
    open func disableAllBackgroundDelivery() async throws {
        try await viaCompletion("disableAllBackgroundDelivery", work: {
            try await self.backend().disableBackgroundDelivery(for: nil)
        }) { self.disableAllBackgroundDelivery(completion: $0) }
    }

    /// Completion-handler form of ``disableAllBackgroundDelivery()``.
    open func disableAllBackgroundDelivery(completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        answer("disableAllBackgroundDelivery", completion, work: {
            try await self.backend().disableBackgroundDelivery(for: nil)
        }, viaAsync: { try await self.disableAllBackgroundDelivery() })
    }

    // MARK: - Preferences

    /// The units the person prefers for these types: their own choice (`HealthPerson.setPreferredUnit(_:for:)`,
    /// `health prefer`), else the units of their last imported Apple Health export, else the usual units where they
    /// live (`count/min` for heart rate, km or mi, kg or lb, °C or °F). As in HealthKit, the app must have asked for
    /// read or share access to every type first: otherwise `errorAuthorizationNotDetermined`.
    open func preferredUnits(for quantityTypes: Set<HKQuantityType>) async throws -> [HKQuantityType: HKUnit] {
        try await viaCompletion("preferredUnits", work: { try await self.lookUpPreferredUnits(for: quantityTypes) }) {
            self.preferredUnits(for: quantityTypes, completion: $0)
        }
    }

    /// The work of ``preferredUnits(for:)``. The store starts watching the person's units then, and posts
    /// `HKUserPreferencesDidChange` from then on (see `PreferenceChanges`).
    private func lookUpPreferredUnits(for quantityTypes: Set<HKQuantityType>) async throws -> [HKQuantityType: HKUnit] {
        let backend = try backend()
        let units = try await backend.preferredUnits(for: quantityTypes)
        await PreferenceChanges.watch(self, through: backend)
        return units
    }

    /// Completion-handler form of ``preferredUnits(for:)``; the handler runs off the caller's thread.
    open func preferredUnits(
        for quantityTypes: Set<HKQuantityType>, completion: @escaping @Sendable ([HKQuantityType: HKUnit], (any Error)?) -> Void
    ) {
        answer("preferredUnits", completion, failure: [:], work: { try await self.lookUpPreferredUnits(for: quantityTypes) },
               viaAsync: { try await self.preferredUnits(for: quantityTypes) })
    }
}
