import Foundation
import Testing
import TestSupport
@testable import OpenHealthKit

/// One `HKWorkoutSession` on its own: its states, events and activities, and the calls its state does not allow.
/// Mirroring between instances of an app runs on both backends in `HealthServerTests/WorkoutSessionMirroringTests`.
@Suite("HKWorkoutSession")
struct WorkoutSessionTests {
    func running() -> HKWorkoutConfiguration {
        let configuration = HKWorkoutConfiguration()
        configuration.activityType = .running
        configuration.locationType = .outdoor
        return configuration
    }

    @Test func aSessionGoesThroughItsStatesAndTellsItsDelegateWithPauseAndResumeEvents() async throws {
        let (store, _, _) = makeStore(.allowAll)
        let session = try HKWorkoutSession(healthStore: store, configuration: running())
        let recorder = WorkoutSessionRecorder()
        session.delegate = recorder
        #expect(session.type == .primary && session.state == .notStarted && session.startDate == nil)
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        session.prepare()
        session.startActivity(with: start)
        session.pause()
        session.resume()
        session.stopActivity(with: start.addingTimeInterval(1800))
        session.end()
        let heard = await recorder.wait { $0.contains(.state(.ended, from: .stopped)) }
        #expect(heard == [.state(.prepared, from: .notStarted), .state(.running, from: .prepared), .state(.paused, from: .running), .event(.pause),
                          .state(.running, from: .paused), .event(.resume), .state(.stopped, from: .running), .state(.ended, from: .stopped)])
        #expect(session.state == .ended)
        #expect(session.startDate == start)
        #expect(session.endDate == start.addingTimeInterval(1800))
        #expect(session.workoutConfiguration.activityType == .running)
    }

    @Test func aCallTheStateDoesNotAllowFailsThroughTheDelegateAndChangesNothing() async throws {
        let (store, _, _) = makeStore(.allowAll)
        let session = try HKWorkoutSession(healthStore: store, configuration: running())
        let recorder = WorkoutSessionRecorder()
        session.delegate = recorder
        session.pause()                      // not started: nothing to pause
        let heard = await recorder.wait { !$0.isEmpty }
        guard case .failure(let code, let message)? = heard.first else { Issue.record("\(heard)"); return }
        #expect(code == .errorInvalidArgument)
        #expect(message.contains("pause()") && message.contains("not started"))
        #expect(session.state == .notStarted)
        session.startActivity(with: nil)
        session.startActivity(with: nil)     // already running: nothing happens, nothing fails
        session.end()
        session.resume()                     // ended
        let after = await recorder.wait { $0.filter { if case .failure = $0 { true } else { false } }.count == 2 }
        #expect(after.filter { if case .failure = $0 { true } else { false } }.count == 2, "\(after)")
        #expect(after.filter { if case .state = $0 { true } else { false } } == [.state(.running, from: .notStarted), .state(.ended, from: .running)])
        #expect(session.state == .ended)
    }

    @Test func activitiesBeginAndEndInARunningSessionOneAtATime() async throws {
        let (store, _, _) = makeStore(.allowAll)
        let session = try HKWorkoutSession(healthStore: store, configuration: running())
        let recorder = WorkoutSessionRecorder()
        session.delegate = recorder
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        let swim = HKWorkoutConfiguration()
        swim.activityType = .swimming
        swim.swimmingLocationType = .openWater
        session.beginNewActivity(configuration: swim, date: start, metadata: nil)   // not running yet
        session.startActivity(with: start)
        #expect(session.currentActivity.uuid == session.identifier)
        #expect(session.currentActivity.workoutConfiguration.activityType == .running)
        session.beginNewActivity(configuration: swim, date: start.addingTimeInterval(60), metadata: ["leg": "swim"])
        session.beginNewActivity(configuration: running(), date: start.addingTimeInterval(90), metadata: nil)   // one in progress
        #expect(session.currentActivity.workoutConfiguration.activityType == .swimming)
        #expect(session.currentActivity.startDate == start.addingTimeInterval(60))
        #expect(session.currentActivity.metadata?["leg"] as? String == "swim")
        session.endCurrentActivity(on: start.addingTimeInterval(900))
        #expect(session.currentActivity.workoutConfiguration.activityType == .running)
        let heard = await recorder.wait { $0.contains(.ended(.swimming)) }
        let failures = heard.compactMap { if case .failure(let code, let message) = $0 { (code, message) } else { nil } }
        #expect(failures.count == 2)
        #expect(failures.first?.1.contains("running or paused") == true)
        #expect(failures.last?.1.contains("in progress") == true)
        #expect(heard.contains(.began(.swimming)))
    }

    @Test func aConfigurationHealthKitWouldRefuseIsAnInvalidArgument() throws {
        let (store, _, _) = makeStore(.allowAll)
        let lapsOnARun = running()
        lapsOnARun.lapLength = HKQuantity(unit: .meter(), doubleValue: 25)
        #expect(throws: HKError.self) { try HKWorkoutSession(healthStore: store, configuration: lapsOnARun) }
        let swim = HKWorkoutConfiguration()
        swim.activityType = .swimming
        swim.lapLength = HKQuantity(unit: .second(), doubleValue: 25)
        do {
            _ = try HKWorkoutSession(healthStore: store, configuration: swim)
            Issue.record("a lap length in seconds was taken")
        } catch let error as HKError {
            #expect(error.code == .errorInvalidArgument && error.message.contains("lapLength"))
        }
        swim.lapLength = HKQuantity(unit: .meter(), doubleValue: 25)
        #expect(try HKWorkoutSession(healthStore: store, configuration: swim).workoutConfiguration.lapLength == swim.lapLength)
    }

    @Test func sendingDataNeedsMirroringAndAFittingSize() async throws {
        let (store, _, _) = makeStore(.allowAll)
        let session = try HKWorkoutSession(healthStore: store, configuration: running())
        session.startActivity(with: nil)
        await #expect(throws: HKError(.errorInvalidArgument)) { try await session.sendToRemoteWorkoutSession(data: Data("hello".utf8)) }
        await #expect(throws: HKError(.errorDataSizeExceeded)) {
            try await session.sendToRemoteWorkoutSession(data: Data(count: 64 * 1024 + 1))
        }
        // Nobody listens for this app's mirrored sessions.
        await #expect(throws: HKError(.errorHealthDataUnavailable)) { try await session.startMirroringToCompanionDevice() }
    }
}
