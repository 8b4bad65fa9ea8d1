import Foundation
import HealthAPI
import Synchronization
import Testing
import TestSupport
@testable import OpenHealthKit

/// Workout-session mirroring (`startMirroringToCompanionDevice`, `workoutSessionMirroringStartHandler`) between two
/// instances of one app, on both backends: two `HKHealthStore`s of the app on one embedded store, or two connections of
/// the app to a `health serve` in its own process. Another app never hears a session.
@Suite("Workout session mirroring on both backends")
struct WorkoutSessionMirroringTests {
    static let backends: [Backend] = [.embedded, .remote]

    /// Two instances of `manifest`'s app: the same token through a daemon, two stores on the folder otherwise.
    func instances(_ session: AppSession, of manifest: AppManifest) async throws -> (HKHealthStore, HKHealthStore) {
        guard let socket = session.socketPath else { return (try await session.app(manifest), try await session.app(manifest)) }
        let token = try await session.token(for: manifest)
        func store() -> HKHealthStore { HKHealthStore(configuration: .init(server: .init(address: socket, token: token), app: manifest)) }
        return (store(), store())
    }

    /// Sets `store`'s handler so that it keeps each mirrored session it receives, with a recorder as its delegate, and
    /// waits until the store listens.
    func listen(_ store: HKHealthStore) async -> MirroredSessions {
        let received = MirroredSessions()
        store.workoutSessionMirroringStartHandler = { received.add($0) }
        await store.workoutMirroring.waitUntilListening()
        return received
    }

    /// A primary running session on `store`, with a recorder as its delegate.
    func recorded(on store: HKHealthStore) throws -> (HKWorkoutSession, WorkoutSessionRecorder) {
        let session = try HKWorkoutSession(healthStore: store, configuration: running())
        let recorder = WorkoutSessionRecorder()
        session.delegate = recorder
        return (session, recorder)
    }

    func running() -> HKWorkoutConfiguration {
        let configuration = HKWorkoutConfiguration()
        configuration.activityType = .running
        configuration.locationType = .outdoor
        return configuration
    }

    @Test(.timeLimit(.minutes(5)), arguments: backends)
    func aMirroredSessionFollowsItsPrimaryAndDataGoesBothWays(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let (watch, phone) = try await instances(session, of: .steps)
            let received = await listen(phone)
            let (primary, recorder) = try recorded(on: watch)
            let start = Date(timeIntervalSince1970: 1_790_000_000)
            primary.startActivity(with: start)
            try await primary.startMirroringToCompanionDevice()

            let (mirrored, heard) = try await received.first()
            #expect(mirrored.type == .mirrored)
            #expect(mirrored.state == .running)
            #expect(mirrored.startDate == start)
            #expect(mirrored.workoutConfiguration.activityType == .running && mirrored.workoutConfiguration.locationType == .outdoor)

            try await primary.sendToRemoteWorkoutSession(data: Data("pace 5:10".utf8))
            primary.pause()
            let swim = HKWorkoutConfiguration()
            swim.activityType = .swimming
            primary.beginNewActivity(configuration: swim, date: start.addingTimeInterval(600), metadata: nil)
            let mirror = await heard.wait { $0.contains(.began(.swimming)) }
            #expect(mirror == [.data("pace 5:10"), .state(.paused, from: .running), .event(.pause), .began(.swimming)], "\(mirror)")
            #expect(mirrored.state == .paused)
            #expect(mirrored.currentActivity.workoutConfiguration.activityType == .swimming)

            try await mirrored.sendToRemoteWorkoutSession(data: Data("heart 150".utf8))
            #expect(await recorder.waitFor(.data("heart 150")))
        }
    }

    @Test(.timeLimit(.minutes(5)), arguments: backends)
    func aMirrorAsksItsPrimaryToResumeAndEndAndIsDisconnectedAtTheEnd(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let (watch, phone) = try await instances(session, of: .steps)
            let received = await listen(phone)
            let (primary, recorder) = try recorded(on: watch)
            primary.startActivity(with: nil)
            primary.pause()
            try await primary.startMirroringToCompanionDevice()
            let (mirrored, heard) = try await received.first()
            #expect(mirrored.state == .paused)

            mirrored.resume()                      // asks the primary
            #expect(await recorder.waitFor(.state(.running, from: .paused)))
            #expect(await heard.waitFor(.state(.running, from: .paused)))
            mirrored.prepare()                     // the primary's alone
            mirrored.end()
            #expect(await recorder.waitFor(.state(.ended, from: .running)))
            let mirror = await heard.wait { $0.contains(.disconnected(nil)) }
            #expect(mirror.contains(.state(.ended, from: .running)) && mirror.last == .disconnected(nil), "\(mirror)")
            #expect(mirror.contains { if case .failure(.errorInvalidArgument, let message) = $0 { message.contains("prepare()") } else { false } })
            #expect(primary.state == .ended && mirrored.state == .ended)
            // Disconnected: the mirror reaches its primary no more.
            await #expect(throws: HKError(.errorHealthDataUnavailable)) { try await mirrored.sendToRemoteWorkoutSession(data: Data("late".utf8)) }
        }
    }

    @Test(.timeLimit(.minutes(5)), arguments: backends)
    func anotherAppNeverHearsTheSessionAndNobodyListeningIsAnError(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let (watch, _) = try await instances(session, of: .steps)
            let (stranger, _) = try await instances(session, of: .other)
            let overheard = await listen(stranger)
            let primary = try HKWorkoutSession(healthStore: watch, configuration: running())
            primary.startActivity(with: nil)
            do {
                try await primary.startMirroringToCompanionDevice()
                Issue.record("mirroring started with no instance of the app listening")
            } catch let error as HKError {
                #expect(error.code == .errorHealthDataUnavailable)
                #expect(error.message.contains("com.example.steps") && error.message.contains("workoutSessionMirroringStartHandler"))
            }
            try await Task.sleep(for: .milliseconds(300))
            #expect(overheard.isEmpty)
        }
    }

    @Test(.timeLimit(.minutes(5)), arguments: backends)
    func aPrimaryThatGoesAwayDisconnectsItsMirrors(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let (watch, phone) = try await instances(session, of: .steps)
            let received = await listen(phone)
            var primary: HKWorkoutSession? = try HKWorkoutSession(healthStore: watch, configuration: running())
            primary?.startActivity(with: nil)
            try await primary?.startMirroringToCompanionDevice()
            let (mirrored, heard) = try await received.first()
            weak var gone = primary
            primary = nil                          // the app let go of it (or its process ended)
            #expect(gone == nil)
            #expect(await heard.waitFor(.disconnected(nil)))
            await #expect(throws: HKError(.errorHealthDataUnavailable)) { try await mirrored.sendToRemoteWorkoutSession(data: Data("x".utf8)) }
        }
    }

    @Test(.timeLimit(.minutes(5)), arguments: backends)
    func stoppingMirroringDisconnectsBothSides(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let (watch, phone) = try await instances(session, of: .steps)
            let received = await listen(phone)
            let (primary, recorder) = try recorded(on: watch)
            primary.startActivity(with: nil)
            try await primary.startMirroringToCompanionDevice()
            let (_, heard) = try await received.first()
            try await primary.stopMirroringToCompanionDevice()
            #expect(await heard.waitFor(.disconnected(nil)))
            #expect(await recorder.waitFor(.disconnected(nil)))
            await #expect(throws: HKError(.errorInvalidArgument)) { try await primary.sendToRemoteWorkoutSession(data: Data("x".utf8)) }
            #expect(primary.state == .running)
        }
    }
}

/// The mirrored sessions a store's handler received, each with the recorder it was given as delegate.
final class MirroredSessions: Sendable {
    private let sessions = Mutex<[(HKWorkoutSession, WorkoutSessionRecorder)]>([])

    func add(_ session: HKWorkoutSession) {
        let recorder = WorkoutSessionRecorder()
        session.delegate = recorder
        sessions.withLock { $0.append((session, recorder)) }
    }

    var isEmpty: Bool { sessions.withLock { $0.isEmpty } }

    /// The first one, waiting up to 20 s for it.
    func first() async throws -> (HKWorkoutSession, WorkoutSessionRecorder) {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if let first = sessions.withLock({ $0.first }) { return first }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw HKError(.errorNoData, "no mirrored session arrived")
    }
}
