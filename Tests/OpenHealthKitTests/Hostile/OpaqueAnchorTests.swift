import Foundation
import Testing
@testable import OpenHealthKit
import TestSupport

/// Anchors count nothing an app cannot see: they are sealed for the app by the store.
@Suite("Opaque anchors")
struct OpaqueAnchorTests {
    static let other = AppManifest(bundleIdentifier: "com.example.other", name: "Other", shareUsageDescription: "Reads.",
                                   updateUsageDescription: "Writes.")
    static let third = AppManifest(bundleIdentifier: "com.example.third", name: "Third", shareUsageDescription: "Reads.",
                                   updateUsageDescription: "Writes.")

    /// A store where `other` may write steps but not read them, and `writer` (the default test app) writes freely.
    func twoApps() async throws -> (writer: HKHealthStore, blind: HKHealthStore, folder: URL) {
        let (writer, _, folder) = makeStore(.allowAll)
        try await writer.requestAuthorization(toShare: [steps], read: [steps])
        let (blind, _, _) = makeStore(app: Self.other, .allowAll, in: folder)
        try await blind.requestAuthorization(toShare: [steps], read: [steps])
        try HealthPerson(storeDirectory: folder).setPermission(app: Self.other.bundleIdentifier, type: steps, share: true, read: false)
        return (writer, blind, folder)
    }

    func anchored(_ store: HKHealthStore, after anchor: HKQueryAnchor?) async throws -> HKAnchoredObjectQueryDescriptor<HKQuantitySample>.Result {
        try await HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: steps)], anchor: anchor).result(for: store)
    }

    @Test func anAnchorDoesNotCountOtherAppsRows() async throws {
        let (writer, blind, _) = try await twoApps()
        try await blind.save(stepsSample(1, from: 0, to: 60))
        let first = try await anchored(blind, after: nil)
        for index in 0..<50 { try await writer.save(stepsSample(10, from: Double(index) * 60, to: Double(index) * 60 + 60)) }
        try await blind.save(stepsSample(2, from: 0, to: 60))
        let second = try await anchored(blind, after: first.newAnchor)
        #expect(second.addedSamples.map { $0.quantity.doubleValue(for: .count()) } == [2])

        // Nothing in either anchor, however it is kept, holds a row number.
        for anchor in [first.newAnchor, second.newAnchor] {
            let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(anchor)) as? [String: Any]
            #expect(json?.values.contains { $0 is NSNumber } == false, "\(String(describing: json))")
            // Its description shows the sealed bytes only (45 bytes in base64), never the positions in digits. (Looking
            // for "52" in it instead failed whenever the random-looking base64 happened to hold those two characters.)
            #expect(anchor.description.wholeMatch(of: /HKQueryAnchor\([A-Za-z0-9+\/]{60}\)/) != nil, "\(anchor)")
        }
    }

    @Test func theDeprecatedIntegerAnchorsDoNotCountOtherAppsRowsEither() async throws {
        let (writer, blind, _) = try await twoApps()
        func integerAnchor(after anchor: Int) async throws -> Int {
            try await withCheckedThrowingContinuation { continuation in
                let query = HKAnchoredObjectQuery(type: steps, predicate: nil, anchor: anchor, limit: HKObjectQueryNoLimit) { _, _, next, error in
                    if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: next) }
                }
                blind.execute(query)
            }
        }
        try await blind.save(stepsSample(1, from: 0, to: 60))
        let first = try await integerAnchor(after: Int(HKAnchoredObjectQueryNoAnchor))
        for index in 0..<50 { try await writer.save(stepsSample(10, from: Double(index) * 60, to: Double(index) * 60 + 60)) }
        try await blind.save(stepsSample(2, from: 0, to: 60))
        let second = try await integerAnchor(after: first)
        #expect(first > 0 && second > 0 && first != 1 && second - first != 51, "\(first) → \(second)")
        // And they still work as anchors: nothing new after the second.
        #expect(try await integerAnchor(after: second) == second)
        let converted = try await anchored(blind, after: HKQueryAnchor(fromValue: first))
        #expect(converted.addedSamples.map { $0.quantity.doubleValue(for: .count()) } == [2])
    }

    @Test func theSamePositionGivesAnEqualAnchorThatSurvivesArchiving() async throws {
        let (_, blind, _) = try await twoApps()
        try await blind.save(stepsSample(1, from: 0, to: 60))
        let first = try await anchored(blind, after: nil), again = try await anchored(blind, after: nil)
        #expect(first.newAnchor == again.newAnchor)
        let archive = try NSKeyedArchiver.archivedData(withRootObject: first.newAnchor, requiringSecureCoding: true)
        let restored = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: archive))
        #expect(try await anchored(blind, after: restored).addedSamples.isEmpty)
        try await blind.save(stepsSample(3, from: 0, to: 60))
        #expect(try await anchored(blind, after: restored).addedSamples.count == 1)
    }

    @Test func anAnchorMadeForAnotherAppOrStoreIsRefused() async throws {
        let (_, blind, folder) = try await twoApps()
        try await blind.save(stepsSample(1, from: 0, to: 60))
        let anchor = try await anchored(blind, after: nil).newAnchor
        let (third, _, _) = makeStore(app: Self.third, .allowAll, in: folder)
        try await third.requestAuthorization(toShare: [], read: [steps])
        await #expect(throws: HKError.self) { try await anchored(third, after: anchor) }
        let (elsewhere, _, _) = makeStore(app: Self.other, .allowAll)
        try await elsewhere.requestAuthorization(toShare: [steps], read: [steps])
        do {
            _ = try await anchored(elsewhere, after: anchor)
            Issue.record("another store took the anchor")
        } catch let error as HKError {
            #expect(error.code == .errorInvalidArgument && error.message == "the anchor was not made by this store for this app")
        }
    }

    @Test func aReadOnlyStoreThatNeverSealedAnAnchorStillGivesAnchors() async throws {
        let (writer, _, folder) = makeStore(.allowAll)
        try await writer.requestAuthorization(toShare: [steps], read: [steps])
        try await writer.save(stepsSample(1, from: 0, to: 60))
        // Marked read-only (a snapshot): its secret table is empty, and nothing may be written to it.
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
        for file in files { try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: folder.appendingPathComponent(file).path) }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path) }
        let (reader, _, _) = makeStore(.allowAll, in: folder)
        let first = try await anchored(reader, after: nil)
        #expect(first.addedSamples.count == 1)
        #expect(try await anchored(reader, after: first.newAnchor).addedSamples.isEmpty)
    }
}
