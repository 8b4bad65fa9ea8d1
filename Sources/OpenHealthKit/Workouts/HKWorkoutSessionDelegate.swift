public import Foundation

/// What a workout session tells its delegate, as in HealthKit: state changes and failures (which every delegate
/// handles), and — with default implementations that do nothing, as HealthKit's optional methods — events, activities,
/// the remote session's data and its disconnection. Calls come one at a time on a background queue of the session's.
public protocol HKWorkoutSessionDelegate: NSObjectProtocol {
    /// The session went from `fromState` to `toState` at `date`.
    func workoutSession(_ workoutSession: HKWorkoutSession, didChangeTo toState: HKWorkoutSessionState,
                        from fromState: HKWorkoutSessionState, date: Date)
    /// The session could not do what was asked; the error says why.
    func workoutSession(_ workoutSession: HKWorkoutSession, didFailWithError error: any Error)
    /// The session generated an event (a pause or a resume).
    func workoutSession(_ workoutSession: HKWorkoutSession, didGenerate event: HKWorkoutEvent)
    /// An activity configured as `workoutConfiguration` began at `date`.
    func workoutSession(_ workoutSession: HKWorkoutSession, didBeginActivityWith workoutConfiguration: HKWorkoutConfiguration, date: Date)
    /// The activity configured as `workoutConfiguration` ended at `date`.
    func workoutSession(_ workoutSession: HKWorkoutSession, didEndActivityWith workoutConfiguration: HKWorkoutConfiguration, date: Date)
    /// The remote session (the primary, for a mirrored session; a mirror, for the primary) sent data.
    func workoutSession(_ workoutSession: HKWorkoutSession, didReceiveDataFromRemoteWorkoutSession data: [Data])
    /// The session no longer reaches its remote session: mirroring stopped (`error` nil), or the connection failed.
    func workoutSession(_ workoutSession: HKWorkoutSession, didDisconnectFromRemoteDeviceWithError error: (any Error)?)
}

extension HKWorkoutSessionDelegate {
    public func workoutSession(_ workoutSession: HKWorkoutSession, didGenerate event: HKWorkoutEvent) {}
    public func workoutSession(_ workoutSession: HKWorkoutSession, didBeginActivityWith workoutConfiguration: HKWorkoutConfiguration,
                               date: Date) {}
    public func workoutSession(_ workoutSession: HKWorkoutSession, didEndActivityWith workoutConfiguration: HKWorkoutConfiguration,
                               date: Date) {}
    public func workoutSession(_ workoutSession: HKWorkoutSession, didReceiveDataFromRemoteWorkoutSession data: [Data]) {}
    public func workoutSession(_ workoutSession: HKWorkoutSession, didDisconnectFromRemoteDeviceWithError error: (any Error)?) {}
}
