import Foundation
import Testing
@testable import OpenHealthKit
import TestSupport

/// The privacy rule as a property: for random stores, random grants and random queries, what an app gets from
/// the real store equals what it gets from a store holding only what it may see (everything when it may read
/// the type, its own samples otherwise).
@Suite("Query privacy (property)")
struct QueryPrivacyPropertyTests {
    static let apps = ["com.example.a", "com.example.b", "com.example.c"]

    func manifest(_ id: String) -> AppManifest {
        AppManifest(bundleIdentifier: id, name: id, version: "1", shareUsageDescription: "reads", updateUsageDescription: "writes")
    }

    /// One store handle per app in `folder`, each allowed to write steps and to read them as `mayRead` says.
    func handles(in folder: URL, mayRead: [String: Bool]) async throws -> [String: HKHealthStore] {
        var stores: [String: HKHealthStore] = [:]
        for id in Self.apps {
            let script = ScriptedPresenter.Script(default: .allow, read: [steps.identifier: mayRead[id]! ? .allow : .deny])
            let (store, _, _) = makeStore(app: manifest(id), script, in: folder)
            try await store.requestAuthorization(toShare: [steps], read: [steps])
            stores[id] = store
        }
        return stores
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func everyQueryAnswersAsIfTheAppSawOnlyWhatItMayRead(seed: UInt64) async throws {
        var random = PredicateRandom(state: seed)
        let mayRead = Dictionary(uniqueKeysWithValues: Self.apps.map { ($0, Bool.random(using: &random)) })
        // The data: each app writes a few overlapping step samples over two days.
        var written: [String: [HKQuantitySample]] = [:]
        for id in Self.apps {
            written[id] = (0..<Int.random(in: 1...8, using: &random)).map { _ in
                let start = Double.random(in: 0..<(2 * 86_400), using: &random).rounded()
                let length = [0, 60, 600, 3600, 7200][Int.random(in: 0..<5, using: &random)]
                return stepsSample(Double(Int.random(in: 1...500, using: &random)), from: start, to: start + Double(length))
            }
        }
        let full = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-\(UUID().uuidString)")
        let fullStores = try await handles(in: full, mayRead: mayRead)
        for id in Self.apps { try await fullStores[id]!.save(written[id]!) }

        for reader in Self.apps {
            // The store of what `reader` may see, written by the same apps in the same order.
            let seen = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-\(UUID().uuidString)")
            let seenStores = try await handles(in: seen, mayRead: mayRead)
            for id in Self.apps where id == reader || mayRead[reader]! {
                try await seenStores[id]!.save(written[id]!.map {
                    HKQuantitySample(type: steps, quantity: $0.quantity, start: $0.startDate, end: $0.endDate)
                })
            }
            let a = fullStores[reader]!, b = seenStores[reader]!
            for _ in 0..<4 {
                let from = day0.addingTimeInterval(Double.random(in: -3600..<(2 * 86_400), using: &random).rounded())
                let predicate = HKQuery.predicateForSamples(withStart: from, end: from.addingTimeInterval(Double.random(in: 60..<86_400, using: &random).rounded()))
                let limit = [0, 1, 3][Int.random(in: 0..<3, using: &random)]
                let context = "seed \(seed), reader \(reader), grants \(mayRead)"

                #expect(try await run(a, type: steps, predicate: predicate, limit: limit).map(\.startDate)
                        == run(b, type: steps, predicate: predicate, limit: limit).map(\.startDate), "\(context)")
                let sa = try await statistics(a, predicate: predicate, options: [.cumulativeSum, .separateBySource, .duration])
                let sb = try await statistics(b, predicate: predicate, options: [.cumulativeSum, .separateBySource, .duration])
                #expect(value(sa?.sumQuantity()) == value(sb?.sumQuantity()), "\(context)")
                #expect(value(sa?.duration(), .second()) == value(sb?.duration(), .second()), "\(context)")
                #expect(Set(sa?.sources?.map(\.bundleIdentifier) ?? []) == Set(sb?.sources?.map(\.bundleIdentifier) ?? []), "\(context)")
                let ca = try await collection(a, predicate: predicate, options: .cumulativeSum, anchor: day0, interval: DateComponents(hour: 6))
                let cb = try await collection(b, predicate: predicate, options: .cumulativeSum, anchor: day0, interval: DateComponents(hour: 6))
                #expect(ca.statistics().map { value($0.sumQuantity()) } == cb.statistics().map { value($0.sumQuantity()) }, "\(context)")
                #expect(Set(try await sources(a, predicate: predicate).map(\.bundleIdentifier))
                        == Set(try await sources(b, predicate: predicate).map(\.bundleIdentifier)), "\(context)")
                let anchoredA = try await runAnchored(a, predicate: predicate, anchor: nil)
                let anchoredB = try await runAnchored(b, predicate: predicate, anchor: nil)
                #expect(anchoredA.samples.map(\.startDate) == anchoredB.samples.map(\.startDate), "\(context)")
            }
        }
    }
}
