import Foundation

/// One message between a workout session and its mirrors: instances of the same app on the same store (in this process,
/// or reaching the daemon that owns it), which stand in for HealthKit's Apple Watch and its companion iPhone. The
/// primary tells its mirrors what happens to the session; a mirror sends the app's data and asks the primary to pause,
/// resume, stop or end it.
package struct WorkoutSessionMessage: Sendable, Hashable {
    package enum Kind: String, Sendable, CaseIterable {
        /// Primary → listeners: a mirrored session starts (`configuration`, `state`, `startDate`).
        case mirroringStarted
        /// Primary → mirrors: the session went from `fromState` to `state` at `date`.
        case stateChanged
        /// Primary → mirrors: an activity configured as `configuration` began at `date`.
        case activityBegan
        /// Primary → mirrors: the current activity (`configuration`) ended at `date`.
        case activityEnded
        /// Primary → mirrors: the session generated an event of `eventType` at `date` (pause, resume).
        case event
        /// Either way: the app's own `data`.
        case data
        /// Mirror → primary: the person asked the mirror to `request` the session.
        case request
        /// Primary → mirrors: mirroring stopped; the mirrors are disconnected.
        case mirroringStopped
    }

    /// What a mirror may ask its primary to do, as HealthKit's mirrored sessions may.
    package enum Request: String, Sendable, CaseIterable {
        case pause, resume, stopActivity, end
    }

    /// A workout configuration as plain values (no class to share across tasks).
    package struct Configuration: Sendable, Hashable {
        package var activityType: UInt
        package var locationType: Int
        package var swimmingLocationType: Int
        package var lapLengthMeters: Double?

        package init(activityType: UInt, locationType: Int, swimmingLocationType: Int, lapLengthMeters: Double?) {
            self.activityType = activityType
            self.locationType = locationType
            self.swimmingLocationType = swimmingLocationType
            self.lapLengthMeters = lapLengthMeters
        }

        package init(_ configuration: HKWorkoutConfiguration) {
            self.init(activityType: configuration.activityType.rawValue, locationType: configuration.locationType.rawValue,
                      swimmingLocationType: configuration.swimmingLocationType.rawValue,
                      lapLengthMeters: configuration.lapLength?.doubleValue(for: .meter()))
        }

        /// The configuration, or nil when a raw value is not one HealthKit defines.
        package var workoutConfiguration: HKWorkoutConfiguration? {
            guard let activity = HKWorkoutActivityType(rawValue: activityType),
                  let location = HKWorkoutSessionLocationType(rawValue: locationType),
                  let swimming = HKWorkoutSwimmingLocationType(rawValue: swimmingLocationType) else { return nil }
            let configuration = HKWorkoutConfiguration()
            configuration.activityType = activity
            configuration.locationType = location
            configuration.swimmingLocationType = swimming
            if let lapLengthMeters {
                guard lapLengthMeters.isFinite, lapLengthMeters > 0 else { return nil }
                configuration.lapLength = HKQuantity(unit: .meter(), doubleValue: lapLengthMeters)
            }
            return configuration
        }
    }

    /// The most data one message carries (`sendToRemoteWorkoutSession(data:)`); more is `errorDataSizeExceeded`.
    package static let maximumDataSize = 64 * 1024

    package var session: UUID
    /// To the primary (from a mirror), or to the mirrors (from the primary).
    package var toPrimary: Bool
    package var kind: Kind
    package var configuration: Configuration?
    /// An `HKWorkoutSessionState` raw value.
    package var state: Int?
    package var fromState: Int?
    package var date: Date?
    package var startDate: Date?
    /// An `HKWorkoutEventType` raw value.
    package var eventType: Int?
    package var data: Data?
    package var request: Request?

    package init(session: UUID, toPrimary: Bool, kind: Kind, configuration: Configuration? = nil, state: Int? = nil, fromState: Int? = nil,
                 date: Date? = nil, startDate: Date? = nil, eventType: Int? = nil, data: Data? = nil, request: Request? = nil) {
        self.session = session
        self.toPrimary = toPrimary
        self.kind = kind
        self.configuration = configuration
        self.state = state
        self.fromState = fromState
        self.date = date
        self.startDate = startDate
        self.eventType = eventType
        self.data = data
        self.request = request
    }

    /// Why this message cannot be relayed (a field it needs is missing or out of range), as a JSON pointer and a
    /// sentence; nil when it can.
    package var problem: (field: String, message: String)? {
        switch kind {
        case .mirroringStarted:
            if toPrimary { return ("/toPrimary", "a mirroringStarted message goes from the primary to its mirrors") }
            guard let configuration else { return ("/configuration", "a mirroringStarted message carries the session's configuration") }
            if configuration.workoutConfiguration == nil { return ("/configuration", "is not a valid workout configuration") }
            if state.flatMap(HKWorkoutSessionState.init(rawValue:)) == nil { return ("/state", "must be an HKWorkoutSessionState raw value (1–6)") }
        case .stateChanged:
            if toPrimary { return ("/toPrimary", "a stateChanged message goes from the primary to its mirrors") }
            if state.flatMap(HKWorkoutSessionState.init(rawValue:)) == nil { return ("/state", "must be an HKWorkoutSessionState raw value (1–6)") }
            if fromState.flatMap(HKWorkoutSessionState.init(rawValue:)) == nil {
                return ("/fromState", "must be an HKWorkoutSessionState raw value (1–6)")
            }
            if date == nil { return ("/date", "a stateChanged message carries its date") }
        case .activityBegan, .activityEnded:
            if toPrimary { return ("/toPrimary", "an activity message goes from the primary to its mirrors") }
            guard let configuration, configuration.workoutConfiguration != nil else {
                return ("/configuration", "an activity message carries a valid workout configuration")
            }
            if date == nil { return ("/date", "an activity message carries its date") }
        case .event:
            if toPrimary { return ("/toPrimary", "an event message goes from the primary to its mirrors") }
            if eventType.flatMap(HKWorkoutEventType.init(rawValue:)) == nil { return ("/eventType", "must be an HKWorkoutEventType raw value") }
            if date == nil { return ("/date", "an event message carries its date") }
        case .data:
            guard let data else { return ("/data", "a data message carries data") }
            if data.count > Self.maximumDataSize { return ("/data", "holds \(data.count) bytes; a message carries at most \(Self.maximumDataSize)") }
        case .request:
            if !toPrimary { return ("/toPrimary", "a request goes from a mirror to the primary") }
            if request == nil { return ("/request", "a request message says what it asks: pause, resume, stopActivity or end") }
        case .mirroringStopped:
            if toPrimary { return ("/toPrimary", "a mirroringStopped message goes from the primary to its mirrors") }
        }
        return nil
    }

    /// Throws the `HKError` for a message that cannot be relayed (``problem``): `errorDataSizeExceeded` for too much
    /// data, `errorInvalidArgument` otherwise.
    package func check() throws {
        guard let problem else { return }
        throw HKError(problem.field == "/data" && data != nil ? .errorDataSizeExceeded : .errorInvalidArgument,
                      "workout session message \(problem.field): \(problem.message)")
    }
}
