public import Foundation

/// A workout in progress, as in HealthKit: its state (not started, prepared, running, paused, stopped, ended), its
/// activities, and — the reason it exists on this platform — *mirroring*. HealthKit mirrors a session from Apple Watch to
/// the companion iPhone app; here the companion is another instance of the same app on the same store (another
/// ``HKHealthStore`` of the app in this process, or another process of the app reaching the same daemon) that set
/// ``HKHealthStore/workoutSessionMirroringStartHandler``:
///
/// ```swift
/// // The instance that records the workout:
/// let session = try HKWorkoutSession(healthStore: store, configuration: configuration)
/// session.delegate = recorder
/// session.startActivity(with: .now)
/// try await session.startMirroringToCompanionDevice()
/// try await session.sendToRemoteWorkoutSession(data: Data("lap 1".utf8))
///
/// // The companion instance:
/// companionStore.workoutSessionMirroringStartHandler = { mirrored in
///     mirrored.delegate = display          // hears state changes, activities, events and data
///     mirrored.pause()                     // asks the primary to pause
/// }
/// ```
///
/// The primary owns the state: its changes, activities and events reach every mirror; a mirror's `pause()`,
/// `resume()`, `stopActivity(with:)` and `end()` ask the primary, and its state follows when the primary's does. Data
/// goes both ways (at most 64 KiB a message). Only instances of the same app hear each other: the relay is per store and
/// app, and through the daemon per app credential. A call the session's state does not allow reaches the delegate as
/// `workoutSession(_:didFailWithError:)` with `errorInvalidArgument` saying why, and changes nothing. Sessions live in
/// memory: nothing of them is saved (the app saves its workout with ``HKWorkoutBuilder``).
open class HKWorkoutSession: NSObject, @unchecked Sendable {
    // @unchecked: the mutable state lives in `current`, behind `lock`; delegate calls run one at a time on `callbacks`.

    private struct ActivityInProgress {
        var configuration: HKWorkoutConfiguration
        var uuid: UUID
        var start: Date
        var metadata: [String: HKMetadataValue]?
    }

    private struct SessionState {
        var state: HKWorkoutSessionState = .notStarted
        var startDate: Date?
        var endDate: Date?
        /// The activity begun with `beginNewActivity` and not ended yet.
        var activity: ActivityInProgress?
        weak var delegate: (any HKWorkoutSessionDelegate)?
        /// Delegate calls that came before a mirrored session had a delegate (the handler sets it after the session
        /// starts hearing its primary).
        var pending: [@Sendable (any HKWorkoutSessionDelegate) -> Void] = []
        /// The primary's stream of messages from its mirrors, while it mirrors.
        var mirroring: Task<Void, Never>?
        /// A mirrored session whose primary stopped mirroring (or could not be reached).
        var disconnected = false
    }

    /// A message on its way out, with who waits for how many endpoints it reached.
    private struct Outgoing: Sendable {
        var message: WorkoutSessionMessage
        var reply: (@Sendable (Result<Int, any Error>) -> Void)?
    }

    private let healthStore: HKHealthStore
    private let configuration: HKWorkoutConfiguration
    private let sessionType: HKWorkoutSessionType
    /// The session's identity between its instances.
    package let identifier: UUID
    /// Who this session sends as: its own endpoint (a primary), or its store's listener (a mirrored session).
    private let endpoint: UUID
    private let createdAt = Date()
    private let lock = NSLock()
    private var current = SessionState()
    private let callbacks = DispatchQueue(label: "OpenHealthKit.HKWorkoutSession.delegate")
    /// Messages are sent in the order the session makes them, one at a time.
    private let outbox: AsyncStream<Outgoing>.Continuation

    /// A primary session for a workout configured as `workoutConfiguration` (copied), in the app of `healthStore`.
    /// Throws `errorInvalidArgument` for a configuration HealthKit would refuse (a lap length that is not a positive
    /// length, a lap length or swimming location for an activity other than swimming) and the store's error when it
    /// cannot be opened.
    public init(healthStore: HKHealthStore, configuration workoutConfiguration: HKWorkoutConfiguration) throws {
        try Self.check(workoutConfiguration)
        let backend = try healthStore.backend()
        self.healthStore = healthStore
        configuration = workoutConfiguration.copy()
        sessionType = .primary
        identifier = UUID()
        endpoint = UUID()
        let (messages, outbox) = AsyncStream<Outgoing>.makeStream()
        self.outbox = outbox
        super.init()
        deliver(messages, through: backend)
    }

    /// A mirrored session of the primary that `message` (a `mirroringStarted`) announces; nil when it does not describe
    /// one. It sends as its store's `listener` endpoint.
    package init?(mirroring message: WorkoutSessionMessage, healthStore: HKHealthStore, backend: any HealthBackend, listener: UUID) {
        guard message.kind == .mirroringStarted, let configuration = message.configuration?.workoutConfiguration,
              let state = message.state.flatMap(HKWorkoutSessionState.init(rawValue:)) else { return nil }
        self.healthStore = healthStore
        self.configuration = configuration
        sessionType = .mirrored
        identifier = message.session
        endpoint = listener
        let (messages, outbox) = AsyncStream<Outgoing>.makeStream()
        self.outbox = outbox
        current.state = state
        current.startDate = message.startDate
        current.endDate = state == .stopped || state == .ended ? message.date : nil
        super.init()
        deliver(messages, through: backend)
    }

    /// Sends the outbox's messages in order, each once the one before it was relayed, until the session goes.
    private func deliver(_ messages: AsyncStream<Outgoing>, through backend: any HealthBackend) {
        let endpoint = endpoint
        Task { [weak self] in
            for await outgoing in messages {
                do {
                    let reached = try await backend.sendWorkoutSessionMessage(outgoing.message, from: endpoint)
                    outgoing.reply?(.success(reached))
                } catch {
                    if let reply = outgoing.reply { reply(.failure(error)) } else { self?.fail(error) }
                }
            }
        }
    }

    deinit {
        outbox.finish()
        current.mirroring?.cancel()
    }

    private static func check(_ configuration: HKWorkoutConfiguration) throws {
        if let lap = configuration.lapLength {
            guard lap.is(compatibleWith: .meter()), lap.doubleValue(for: .meter()).isFinite, lap.doubleValue(for: .meter()) > 0 else {
                throw HKError.invalidArgument("the configuration's lapLength must be a positive length, not \(lap)")
            }
        }
        if configuration.activityType != .swimming,
           configuration.lapLength != nil || configuration.swimmingLocationType != .unknown {
            throw HKError.invalidArgument("lapLength and swimmingLocationType are for swimming workouts; this one is \(configuration.activityType.exportName)")
        }
    }

    private func withLock<T>(_ body: (inout SessionState) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&current)
    }

    // MARK: - What the session is

    /// The object that hears the session's state changes, events, activities and remote data (held weakly).
    open var delegate: (any HKWorkoutSessionDelegate)? {
        get { withLock { $0.delegate } }
        set {
            let pending = withLock { current in
                current.delegate = newValue
                defer { current.pending = [] }
                return newValue == nil ? [] : current.pending
            }
            for call in pending { deliver(call) }
        }
    }

    /// Where the session is: not started, prepared, running, paused, stopped or ended.
    open var state: HKWorkoutSessionState { withLock { $0.state } }
    /// `.primary` for a session this app created; `.mirrored` for one ``HKHealthStore/workoutSessionMirroringStartHandler``
    /// received.
    open var type: HKWorkoutSessionType { sessionType }
    /// The session's configuration (a copy).
    open var workoutConfiguration: HKWorkoutConfiguration { configuration.copy() }
    /// When the session started running, once it has.
    open var startDate: Date? { withLock { $0.startDate } }
    /// When the session stopped or ended, once it has.
    open var endDate: Date? { withLock { $0.endDate } }

    /// The activity in progress: the one begun with ``beginNewActivity(configuration:date:metadata:)`` and not yet
    /// ended, otherwise the session's own (its configuration, from its start date).
    open var currentActivity: HKWorkoutActivity {
        let (activity, start, end) = withLock { ($0.activity, $0.startDate, $0.endDate) }
        if let activity {
            return HKWorkoutActivity(uuid: activity.uuid, configuration: activity.configuration.copy(), start: activity.start, end: nil,
                                     events: [], statistics: [:], metadata: activity.metadata)
        }
        return HKWorkoutActivity(uuid: identifier, configuration: configuration.copy(), start: start ?? createdAt, end: end, events: [],
                                 statistics: [:], metadata: nil)
    }

    // MARK: - Running the workout

    /// Gets the session ready to start: not started → prepared.
    open func prepare() {
        guard requirePrimary("prepare()") else { return }
        transition(to: .prepared, from: [.notStarted], call: "prepare()", date: Date())
    }

    /// Starts the session (not started or prepared → running) at `date`, now when nil; that is its start date.
    open func startActivity(with date: Date?) {
        guard requirePrimary("startActivity(with:)") else { return }
        let date = date ?? Date()
        transition(to: .running, from: [.notStarted, .prepared], call: "startActivity(with:)", date: date) { $0.startDate = date }
    }

    /// Pauses a running session, with a pause event. A mirrored session asks its primary.
    open func pause() {
        guard sessionType == .primary else { return ask(.pause) }
        transition(to: .paused, from: [.running], call: "pause()", date: Date(), event: .pause)
    }

    /// Resumes a paused session, with a resume event. A mirrored session asks its primary.
    open func resume() {
        guard sessionType == .primary else { return ask(.resume) }
        transition(to: .running, from: [.paused], call: "resume()", date: Date(), event: .resume)
    }

    /// Stops a running or paused session at `date` (now when nil), its end date. A mirrored session asks its primary.
    open func stopActivity(with date: Date?) {
        guard sessionType == .primary else { return ask(.stopActivity) }
        let date = date ?? Date()
        transition(to: .stopped, from: [.running, .paused], call: "stopActivity(with:)", date: date) { $0.endDate = date }
    }

    /// Ends the session, from any state; a mirroring primary then stops mirroring. A mirrored session asks its primary.
    open func end() {
        guard sessionType == .primary else { return ask(.end) }
        let date = Date()
        transition(to: .ended, from: [.notStarted, .prepared, .running, .paused, .stopped], call: "end()", date: date) {
            if $0.endDate == nil { $0.endDate = date }
        }
        Task { try? await self.stopMirroringToCompanionDevice() }
    }

    /// Begins an activity of the workout (a leg of a triathlon, an interval) at `date`, while the session runs or is
    /// paused and no other activity it began is in progress.
    open func beginNewActivity(configuration workoutConfiguration: HKWorkoutConfiguration, date: Date, metadata: [String: Any]?) {
        guard requirePrimary("beginNewActivity(configuration:date:metadata:)") else { return }
        let activityConfiguration: HKWorkoutConfiguration = workoutConfiguration.copy()
        let checked: [String: HKMetadataValue]?
        do {
            try Self.check(activityConfiguration)
            checked = try HKWorkoutActivity.validated(workoutConfiguration: activityConfiguration, start: date, end: nil, metadata: metadata)
                .metadataValues
        } catch {
            return fail(error)
        }
        let refusal: String? = withLock { current in
            guard current.state == .running || current.state == .paused else {
                return "beginNewActivity(configuration:date:metadata:) needs a running or paused session; this one is \(Self.name(current.state))"
            }
            if let activity = current.activity {
                return "an activity (\(activity.configuration.activityType.exportName)) is in progress: end it with endCurrentActivity(on:) first"
            }
            current.activity = ActivityInProgress(configuration: activityConfiguration, uuid: UUID(), start: date, metadata: checked)
            if current.mirroring != nil {
                send(.init(session: identifier, toPrimary: false, kind: .activityBegan, configuration: .init(activityConfiguration), date: date))
            }
            return nil
        }
        if let refusal { return fail(HKError.invalidArgument(refusal)) }
        let box = SendableBox(activityConfiguration)
        notify { $0.workoutSession(self, didBeginActivityWith: box.value.copy(), date: date) }
    }

    /// Ends the activity begun with ``beginNewActivity(configuration:date:metadata:)`` at `date`.
    open func endCurrentActivity(on date: Date) {
        guard requirePrimary("endCurrentActivity(on:)") else { return }
        let ended: ActivityInProgress? = withLock { current in
            guard let activity = current.activity, date >= activity.start else { return nil }
            current.activity = nil
            if current.mirroring != nil {
                send(.init(session: identifier, toPrimary: false, kind: .activityEnded, configuration: .init(activity.configuration), date: date))
            }
            return activity
        }
        guard let ended else {
            return fail(HKError.invalidArgument(withLock { $0.activity == nil }
                ? "endCurrentActivity(on:): no activity begun with beginNewActivity(configuration:date:metadata:) is in progress"
                : "endCurrentActivity(on:): the date is before the activity's start"))
        }
        let box = SendableBox(ended.configuration)
        notify { $0.workoutSession(self, didEndActivityWith: box.value.copy(), date: date) }
    }

    // MARK: - Mirroring

    /// Starts mirroring the session to the other instances of this app that listen for mirrored sessions (a
    /// ``HKHealthStore/workoutSessionMirroringStartHandler`` is set): each receives a `.mirrored` session, then hears
    /// this one's state changes, activities, events and data. `errorHealthDataUnavailable` when no instance listens.
    open func startMirroringToCompanionDevice() async throws {
        guard sessionType == .primary else {
            throw HKError.invalidArgument("startMirroringToCompanionDevice() is the primary session's; this one is mirrored")
        }
        guard withLock({ $0.mirroring == nil }) else { return }
        let backend = try healthStore.backend()
        let messages = backend.workoutSessionMessages(endpoint: endpoint, session: identifier)
        let (ready, readiness) = AsyncStream<(any Error)?>.makeStream()
        let task = Task { [weak self] in
            do {
                for try await message in messages {
                    guard let message else { readiness.yield(nil); continue }
                    self?.receive(fromMirror: message)
                }
                readiness.yield(HKError(.errorDatabaseInaccessible, "the store ended the session's message stream"))
            } catch {
                readiness.yield(error)
                if !Task.isCancelled { self?.lostMirrors(error) }
            }
            readiness.finish()
        }
        // The first outcome: nil once the endpoint is registered, or why it could not be.
        var failure: (any Error)? = CancellationError()
        for await outcome in ready {
            failure = outcome
            break
        }
        if let failure {
            task.cancel()
            throw failure
        }
        let reached: Int = try await withCheckedThrowingContinuation { waiting in
            let refusal: HKError? = withLock { current in
                guard current.state != .ended else { return HKError.invalidArgument("the session has ended; there is nothing to mirror") }
                guard current.mirroring == nil else {
                    // A call made meanwhile started mirroring: this one has nothing more to do.
                    task.cancel()
                    waiting.resume(returning: 1)
                    return nil
                }
                current.mirroring = task
                outbox.yield(Outgoing(
                    message: .init(session: identifier, toPrimary: false, kind: .mirroringStarted, configuration: .init(configuration),
                                   state: current.state.rawValue, date: current.endDate, startDate: current.startDate),
                    reply: { waiting.resume(with: $0) }))
                if let activity = current.activity {
                    send(.init(session: identifier, toPrimary: false, kind: .activityBegan, configuration: .init(activity.configuration),
                               date: activity.start))
                }
                return nil
            }
            if let refusal {
                task.cancel()
                waiting.resume(throwing: refusal)
            }
        }
        guard reached > 0 else {
            withLock { current in
                if current.mirroring == task { current.mirroring = nil }
            }
            task.cancel()
            let app = healthStore.configuration.app.bundleIdentifier
            throw HKError(.errorHealthDataUnavailable, "no other instance of \(app.isEmpty ? "this app" : app) listens for mirrored workout sessions "
                + "(set HKHealthStore.workoutSessionMirroringStartHandler there first)")
        }
    }

    /// Completion-handler form of ``startMirroringToCompanionDevice()``.
    open func startMirroringToCompanionDevice(completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        completeDetached(completion) { try await self.startMirroringToCompanionDevice() }
    }

    /// Stops mirroring: each mirror, and this session, hear `workoutSession(_:didDisconnectFromRemoteDeviceWithError:)`
    /// with no error. Nothing happens when the session is not mirroring.
    open func stopMirroringToCompanionDevice() async throws {
        guard sessionType == .primary else {
            throw HKError.invalidArgument("stopMirroringToCompanionDevice() is the primary session's; this one is mirrored")
        }
        let task: Task<Void, Never>? = withLock { current in
            defer { current.mirroring = nil }
            if current.mirroring != nil { send(.init(session: identifier, toPrimary: false, kind: .mirroringStopped)) }
            return current.mirroring
        }
        guard let task else { return }
        task.cancel()
        notify { $0.workoutSession(self, didDisconnectFromRemoteDeviceWithError: nil) }
    }

    /// Completion-handler form of ``stopMirroringToCompanionDevice()``.
    open func stopMirroringToCompanionDevice(completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        completeDetached(completion) { try await self.stopMirroringToCompanionDevice() }
    }

    /// Sends the app's `data` to the remote session: from the primary to its mirrors, from a mirror to its primary.
    /// `errorDataSizeExceeded` past 64 KiB; `errorInvalidArgument` for a primary that is not mirroring;
    /// `errorHealthDataUnavailable` when the remote session is gone.
    open func sendToRemoteWorkoutSession(data: Data) async throws {
        let message = WorkoutSessionMessage(session: identifier, toPrimary: sessionType == .mirrored, kind: .data, data: data)
        try message.check()   // its size, before anything else
        let (mirroring, disconnected) = withLock { ($0.mirroring != nil, $0.disconnected) }
        if sessionType == .primary, !mirroring {
            throw HKError.invalidArgument("the session is not mirroring: call startMirroringToCompanionDevice() before sending data")
        }
        if sessionType == .mirrored, disconnected {
            throw HKError(.errorHealthDataUnavailable, "the primary session stopped mirroring; this mirrored session no longer reaches it")
        }
        let reached = try await healthStore.backend().sendWorkoutSessionMessage(message, from: endpoint)
        if reached == 0 {
            throw HKError(.errorHealthDataUnavailable, sessionType == .mirrored
                ? "the primary session is gone; nothing received the data"
                : "no mirrored session listens any more; nothing received the data")
        }
    }

    /// Completion-handler form of ``sendToRemoteWorkoutSession(data:)``.
    open func sendToRemoteWorkoutSession(data: Data, completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        completeDetached(completion) { try await self.sendToRemoteWorkoutSession(data: data) }
    }

    // MARK: - Messages

    /// A message from a mirror to this primary: its data, or what it asks.
    private func receive(fromMirror message: WorkoutSessionMessage) {
        guard message.toPrimary, message.session == identifier else { return }
        switch message.kind {
        case .data:
            if let data = message.data { notify { $0.workoutSession(self, didReceiveDataFromRemoteWorkoutSession: [data]) } }
        case .request:
            switch message.request {
            case .pause?: pause()
            case .resume?: resume()
            case .stopActivity?: stopActivity(with: nil)
            case .end?: end()
            case nil: break
            }
        default:
            break
        }
    }

    /// A message from the primary to this mirrored session (its store's listener routes it here).
    package func receive(fromPrimary message: WorkoutSessionMessage) {
        guard sessionType == .mirrored, !message.toPrimary, message.session == identifier else { return }
        let date = message.date ?? Date()
        switch message.kind {
        case .stateChanged:
            guard let to = message.state.flatMap(HKWorkoutSessionState.init(rawValue:)) else { return }
            let from = withLock { current in
                defer {
                    current.state = to
                    if to == .running, current.startDate == nil { current.startDate = date }
                    if to == .stopped || to == .ended, current.endDate == nil { current.endDate = date }
                }
                return current.state
            }
            let reported = message.fromState.flatMap(HKWorkoutSessionState.init(rawValue:)) ?? from
            notify { $0.workoutSession(self, didChangeTo: to, from: reported, date: date) }
        case .activityBegan:
            guard let configuration = message.configuration?.workoutConfiguration else { return }
            withLock { $0.activity = ActivityInProgress(configuration: configuration, uuid: UUID(), start: date, metadata: nil) }
            let box = SendableBox(configuration)
            notify { $0.workoutSession(self, didBeginActivityWith: box.value.copy(), date: date) }
        case .activityEnded:
            guard let configuration = message.configuration?.workoutConfiguration else { return }
            withLock { $0.activity = nil }
            let box = SendableBox(configuration)
            notify { $0.workoutSession(self, didEndActivityWith: box.value.copy(), date: date) }
        case .event:
            guard let type = message.eventType.flatMap(HKWorkoutEventType.init(rawValue:)) else { return }
            let event = HKWorkoutEvent(type: type, date: date)
            notify { $0.workoutSession(self, didGenerate: event) }
        case .data:
            if let data = message.data { notify { $0.workoutSession(self, didReceiveDataFromRemoteWorkoutSession: [data]) } }
        case .mirroringStopped:
            disconnect(nil)
        case .mirroringStarted, .request:
            break
        }
    }

    /// This mirrored session no longer hears its primary: mirroring stopped (nil) or the connection failed.
    package func disconnect(_ error: (any Error)?) {
        let first = withLock { current in
            defer { current.disconnected = true }
            return !current.disconnected
        }
        if first { notify { $0.workoutSession(self, didDisconnectFromRemoteDeviceWithError: error) } }
    }

    /// The primary's stream from its mirrors failed: it stops mirroring, and says why.
    private func lostMirrors(_ error: any Error) {
        let wasMirroring = withLock { current in
            defer { current.mirroring = nil }
            return current.mirroring != nil
        }
        if wasMirroring { notify { $0.workoutSession(self, didDisconnectFromRemoteDeviceWithError: error) } }
    }

    // MARK: - Helpers

    /// Moves a primary session to `target` when its state is one of `allowed` (nothing when it is there already), tells
    /// the delegate and the mirrors, with `event` when given; otherwise tells the delegate why not.
    private func transition(to target: HKWorkoutSessionState, from allowed: Set<HKWorkoutSessionState>, call: String, date: Date,
                            event: HKWorkoutEventType? = nil, apply: (inout SessionState) -> Void = { _ in }) {
        let outcome: Result<HKWorkoutSessionState, HKError>? = withLock { current in
            let from = current.state
            if from == target { return nil }
            guard allowed.contains(from) else {
                return .failure(HKError.invalidArgument("\(call) cannot run on a session that is \(Self.name(from))"))
            }
            current.state = target
            apply(&current)
            if target == .stopped || target == .ended, let activity = current.activity {
                current.activity = nil
                if current.mirroring != nil {
                    send(.init(session: identifier, toPrimary: false, kind: .activityEnded, configuration: .init(activity.configuration), date: date))
                }
            }
            if current.mirroring != nil {
                send(.init(session: identifier, toPrimary: false, kind: .stateChanged, state: target.rawValue, fromState: from.rawValue, date: date))
                if let event {
                    send(.init(session: identifier, toPrimary: false, kind: .event, date: date, eventType: event.rawValue))
                }
            }
            return .success(from)
        }
        switch outcome {
        case .success(let from)?:
            notify { $0.workoutSession(self, didChangeTo: target, from: from, date: date) }
            if let event {
                let generated = HKWorkoutEvent(type: event, date: date)
                notify { $0.workoutSession(self, didGenerate: generated) }
            }
        case .failure(let error)?:
            fail(error)
        case nil:
            break
        }
    }

    /// Whether this is the primary; otherwise tells the delegate that `call` is the primary's.
    private func requirePrimary(_ call: String) -> Bool {
        guard sessionType == .mirrored else { return true }
        fail(HKError.invalidArgument("\(call) is the primary session's: a mirrored session follows its primary (it may ask it to pause, "
            + "resume, stop or end)"))
        return false
    }

    /// A mirrored session asks its primary to act.
    private func ask(_ request: WorkoutSessionMessage.Request) {
        guard !withLock({ $0.disconnected }) else {
            return fail(HKError(.errorHealthDataUnavailable, "the primary session stopped mirroring; this mirrored session no longer reaches it"))
        }
        outbox.yield(Outgoing(message: .init(session: identifier, toPrimary: true, kind: .request, request: request)) { [weak self] outcome in
            switch outcome {
            case .success(0): self?.fail(HKError(.errorHealthDataUnavailable, "the primary session is gone; it did not hear \(request.rawValue)"))
            case .success: break
            case .failure(let error): self?.fail(error)
            }
        })
    }

    /// Queues a message to the remote sessions, after those queued before it.
    private func send(_ message: WorkoutSessionMessage) {
        outbox.yield(Outgoing(message: message, reply: nil))
    }

    private func fail(_ error: any Error) {
        notify { $0.workoutSession(self, didFailWithError: error) }
    }

    /// Calls the delegate on the session's queue; a mirrored session keeps the calls made before it has a delegate.
    private func notify(_ call: @escaping @Sendable (any HKWorkoutSessionDelegate) -> Void) {
        let keep = sessionType == .mirrored
        let now: Bool = withLock { current in
            if current.delegate != nil { return true }
            if keep { current.pending.append(call) }
            return false
        }
        if now { deliver(call) }
    }

    private func deliver(_ call: @escaping @Sendable (any HKWorkoutSessionDelegate) -> Void) {
        callbacks.async { [self] in
            if let delegate = withLock({ $0.delegate }) { call(delegate) }
        }
    }

    private static func name(_ state: HKWorkoutSessionState) -> String {
        switch state {
        case .notStarted: "not started"
        case .running: "running"
        case .ended: "ended"
        case .paused: "paused"
        case .prepared: "prepared"
        case .stopped: "stopped"
        }
    }
}
