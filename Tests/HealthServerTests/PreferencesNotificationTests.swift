import Foundation
import OpenHealthKit
import Synchronization
import Testing

private let bodyMass = HKQuantityType(.bodyMass)
private let height = HKQuantityType(.height)
private let steps = HKQuantityType(.stepCount)

/// `HKUserPreferencesDidChange` on both backends: a store posts it (and the main-actor message) when the person changes
/// the unit of a type its app may ask about — embedded at once, through the daemon from its preferred-units stream — and
/// an app learns nothing of units of types it never asked about.
@Suite("HKUserPreferencesDidChange, embedded and through the daemon")
struct PreferencesNotificationTests {
    /// Counts the notifications one store posts, until `end` is called.
    final class Posts: Sendable {
        let counted = Mutex(0)
        var count: Int { counted.withLock { $0 } }
    }

    static func count(_ store: HKHealthStore) -> (Posts, any NSObjectProtocol) {
        let posts = Posts()
        let observer = NotificationCenter.default.addObserver(forName: .HKUserPreferencesDidChange, object: store, queue: nil) { _ in
            posts.counted.withLock { $0 += 1 }
        }
        return (posts, observer)
    }

    /// Counts HKUserPreferencesDidChangeMessages for one store, on the main actor.
    @MainActor final class MessageCounter: Sendable {
        private(set) var count = 0
        private var token: NotificationCenter.ObservationToken?
        init(_ store: HKHealthStore) {
            token = NotificationCenter.default.addObserver(of: store, for: .userPreferencesDidChange) { [unowned self] _ in self.count += 1 }
        }
    }

    @Test(arguments: Backend.allCases)
    func aStorePostsWhenThePersonChangesAUnitItsAppMayAskAbout(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let scale = try await session.app(.steps, answering: .allowAll)
            try await scale.requestAuthorization(toShare: [], read: [bodyMass])
            var walkerApp = AppManifest.steps
            walkerApp.bundleIdentifier = "com.example.walker"
            let walker = try await session.app(walkerApp, answering: .allowAll)
            try await walker.requestAuthorization(toShare: [steps], read: [steps])
            // Each asks for its units first, as apps do before they observe the notification.
            #expect(try await scale.preferredUnits(for: [bodyMass]) == [bodyMass: HKUnit.gramUnit(with: .kilo)])
            _ = try await walker.preferredUnits(for: [steps])
            let (scalePosts, scaleObserver) = Self.count(scale), (walkerPosts, walkerObserver) = Self.count(walker)
            defer { [scaleObserver, walkerObserver].forEach(NotificationCenter.default.removeObserver) }
            let messages = await MainActor.run { MessageCounter(scale) }

            let person = try session.person()
            try person.setPreferredUnit(.inch(), for: height)   // asked by neither app
            try person.setPreferredUnit(.pound(), for: bodyMass)
            for _ in 0..<100 where scalePosts.count == 0 { try await Task.sleep(for: .milliseconds(50)) }
            try await Task.sleep(for: .milliseconds(600))   // time for anything more to arrive (the daemon hears the store every 200 ms)
            #expect(scalePosts.count == 1, "one change of a unit the app may ask about")
            #expect(walkerPosts.count == 0, "no change of a type it asked about")
            #expect(await MainActor.run { messages.count } == 1)
            #expect(try await scale.preferredUnits(for: [bodyMass]) == [bodyMass: HKUnit.pound()])
        }
    }
}
