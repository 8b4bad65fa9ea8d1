import Foundation
import Synchronization
import Testing
@testable import OpenHealthKit

/// The preferences notification of HKHealthStore's smaller API (the rest of it runs on both backends, in
/// HealthServerTests' `HealthStoreSmallAPITests`).
@Suite("HKHealthStore's preferences notification")
struct PreferencesNotificationTests {
    @Test func eachOpenStorePostsHKUserPreferencesDidChangeWhenThePersonChangesAUnit() async throws {
        let (store, _, folder) = makeStore(.allowAll)
        let (other, _, _) = makeStore(.allowAll)  // another folder: not told
        let person = try HealthPerson(storeDirectory: folder)
        let posted = Mutex(0), elsewhere = Mutex(0)
        let observer = NotificationCenter.default.addObserver(forName: .HKUserPreferencesDidChange, object: store, queue: nil) { _ in
            posted.withLock { $0 += 1 }
        }
        let otherObserver = NotificationCenter.default.addObserver(forName: .HKUserPreferencesDidChange, object: other, queue: nil) { _ in
            elsewhere.withLock { $0 += 1 }
        }
        defer {
            NotificationCenter.default.removeObserver(observer)
            NotificationCenter.default.removeObserver(otherObserver)
        }
        let messages = await MainActor.run { MessageCounter(store) }
        try person.setPreferredUnit(.pound(), for: HKQuantityType(.bodyMass))
        #expect(posted.withLock { $0 } == 1 && elsewhere.withLock { $0 } == 0)
        #expect(Notification.Name.HKUserPreferencesDidChange.rawValue == HKUserPreferencesDidChangeNotification)
        for _ in 0..<100 where await MainActor.run(body: { messages.count }) == 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(await MainActor.run { messages.count } == 1)
    }

    /// Counts HKUserPreferencesDidChangeMessages for one store, on the main actor.
    @MainActor final class MessageCounter {
        var count = 0
        var token: NotificationCenter.ObservationToken?
        init(_ store: HKHealthStore) {
            token = NotificationCenter.default.addObserver(of: store, for: .userPreferencesDidChange) { [unowned self] _ in self.count += 1 }
        }
    }
}

@Suite("HKSource.default()")
struct DefaultSourceTests {
    @Test func theDefaultSourceIsTheAppTheManifestNamesAndMatchesWhatItSaves() async throws {
        let manifest = FileManager.default.temporaryDirectory.appendingPathComponent("app-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: manifest) }
        try Data(#"{"CFBundleIdentifier": "com.example.steps", "CFBundleName": "Steps"}"#.utf8).write(to: manifest)
        let source = HKSource.appSource(["OPENHEALTHKIT_APP": manifest.path])
        #expect(source.bundleIdentifier == "com.example.steps" && source.name == "Steps")

        let (store, _, _) = makeStore(.allowAll)  // the steps app
        try await store.requestAuthorization(toShare: [steps], read: [steps])
        try await store.save(HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: 5), start: now, end: now))
        let mine = try await HKSampleQueryDescriptor(
            predicates: [.quantitySample(type: steps, predicate: HKQuery.predicateForObjects(from: source))], sortDescriptors: [])
            .result(for: store)
        #expect(mine.count == 1 && mine.first?.sourceRevision.source == source)
        #expect(HKSource.appSource(["OPENHEALTHKIT_APP": "/nonexistent.json"]).name == ProcessInfo.processInfo.processName)
    }
}
