public import Foundation
public import OpenHealthKit
import Synchronization

/// A workout session's delegate that writes down what it hears, in order, and waits for what a test expects.
public final class WorkoutSessionRecorder: NSObject, HKWorkoutSessionDelegate, Sendable {
    /// One thing the session told its delegate.
    public enum Heard: Sendable, Equatable, CustomStringConvertible {
        case state(HKWorkoutSessionState, from: HKWorkoutSessionState)
        case failure(HKError.Code?, String)
        case event(HKWorkoutEventType)
        case began(HKWorkoutActivityType)
        case ended(HKWorkoutActivityType)
        case data(String)
        case disconnected(HKError.Code?)

        public var description: String {
            switch self {
            case .state(let to, let from): "state \(from.rawValue)→\(to.rawValue)"
            case .failure(let code, let message): "failure \(code.map { "\($0)" } ?? "-"): \(message)"
            case .event(let type): "event \(type.rawValue)"
            case .began(let type): "began \(type.rawValue)"
            case .ended(let type): "ended \(type.rawValue)"
            case .data(let text): "data \(text)"
            case .disconnected(let code): "disconnected \(code.map { "\($0)" } ?? "-")"
            }
        }
    }

    private let heard = Mutex<[Heard]>([])

    public override init() { super.init() }

    /// Everything heard so far.
    public var all: [Heard] { heard.withLock { $0 } }

    /// Waits (up to `seconds`) until `matches` holds for what was heard, and returns what was heard then.
    @discardableResult
    public func wait(seconds: Double = 20, until matches: ([Heard]) -> Bool) async -> [Heard] {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            let now = all
            if matches(now) { return now }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return all
    }

    /// Waits until `item` was heard; returns whether it was.
    public func waitFor(_ item: Heard, seconds: Double = 20) async -> Bool {
        await wait(seconds: seconds) { $0.contains(item) }.contains(item)
    }

    private func note(_ item: Heard) { heard.withLock { $0.append(item) } }

    public func workoutSession(_ workoutSession: HKWorkoutSession, didChangeTo toState: HKWorkoutSessionState,
                               from fromState: HKWorkoutSessionState, date: Date) {
        note(.state(toState, from: fromState))
    }

    public func workoutSession(_ workoutSession: HKWorkoutSession, didFailWithError error: any Error) {
        note(.failure((error as? HKError)?.code, "\(error)"))
    }

    public func workoutSession(_ workoutSession: HKWorkoutSession, didGenerate event: HKWorkoutEvent) {
        note(.event(event.type))
    }

    public func workoutSession(_ workoutSession: HKWorkoutSession, didBeginActivityWith workoutConfiguration: HKWorkoutConfiguration, date: Date) {
        note(.began(workoutConfiguration.activityType))
    }

    public func workoutSession(_ workoutSession: HKWorkoutSession, didEndActivityWith workoutConfiguration: HKWorkoutConfiguration, date: Date) {
        note(.ended(workoutConfiguration.activityType))
    }

    public func workoutSession(_ workoutSession: HKWorkoutSession, didReceiveDataFromRemoteWorkoutSession data: [Data]) {
        for item in data { note(.data(String(decoding: item, as: UTF8.self))) }
    }

    public func workoutSession(_ workoutSession: HKWorkoutSession, didDisconnectFromRemoteDeviceWithError error: (any Error)?) {
        note(.disconnected((error as? HKError)?.code))
    }
}
