import Foundation
import Synchronization
import Testing
@testable import OpenHealthKit

/// The preferences notification in a process with stores on two folders: only the stores of the folder whose person
/// changed a unit post it (both backends' rules are in HealthServerTests' `PreferencesNotificationTests`; another
/// process changing it, in HealthCLITests' `TwoProcessTests`).
@Suite("HKHealthStore's preferences notification, per folder")
struct PreferencesNotificationFolderTests {
    @Test func aStoreOnAnotherFolderIsNotTold() async throws {
        let bodyMass = HKQuantityType(.bodyMass)
        let (store, _, folder) = makeStore(.allowAll)
        let (other, _, _) = makeStore(.allowAll)
        for each in [store, other] {
            try await each.requestAuthorization(toShare: [], read: [bodyMass])
            _ = try await each.preferredUnits(for: [bodyMass])   // each watches from here on
        }
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
        try HealthPerson(storeDirectory: folder).setPreferredUnit(.pound(), for: bodyMass)
        for _ in 0..<100 where posted.withLock({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(50)) }
        try await Task.sleep(for: .milliseconds(500))
        #expect(posted.withLock { $0 } == 1 && elsewhere.withLock { $0 } == 0)
        #expect(Notification.Name.HKUserPreferencesDidChange.rawValue == HKUserPreferencesDidChangeNotification)
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
