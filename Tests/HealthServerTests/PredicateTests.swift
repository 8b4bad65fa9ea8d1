import Foundation
import HealthModel
import OpenHealthKit
import Testing
import TestSupport

private let steps = HKQuantityType(.stepCount)
private let heartRate = HKQuantityType(.heartRate)
private let now = Date(timeIntervalSinceReferenceDate: 800_000_000)

/// `HKQuery` predicates as apps use them, on both backends (through the daemon they travel as the compiled filter's
/// JSON): HealthKit's date-range options, clear errors for what cannot be compiled, `deleteObjects(of:predicate:)`, and
/// random predicates over random stores, whose answers must be what evaluating them in memory gives.
@Suite("Predicates, embedded and through the daemon")
struct PredicateTests {
    static let watchApp = AppManifest(bundleIdentifier: "com.example.watch", name: "Watch", version: "2.1",
                                      shareUsageDescription: "Reads.", updateUsageDescription: "Writes.")
    static let devices = [
        HKDevice(name: "Watch", manufacturer: "Acme", model: "W1", hardwareVersion: nil, firmwareVersion: nil,
                 softwareVersion: "9", localIdentifier: nil, udiDeviceIdentifier: nil),
        HKDevice(name: "Phone", manufacturer: "Acme", model: "P7", hardwareVersion: "7", firmwareVersion: nil,
                 softwareVersion: nil, localIdentifier: nil, udiDeviceIdentifier: nil),
    ]

    /// Two apps on one store, both allowed to share and read steps.
    func twoApps(_ session: AppSession) async throws -> (HKHealthStore, HKHealthStore) {
        let steps1 = try await session.app(.steps, answering: .allowAll)
        let watch = try await session.app(Self.watchApp, answering: .allowAll)
        try await steps1.requestAuthorization(toShare: [steps], read: [steps])
        try await watch.requestAuthorization(toShare: [steps], read: [steps])
        return (steps1, watch)
    }

    func sample(_ start: Double, _ length: Double, device: HKDevice? = nil, metadata: [String: Any]? = nil) -> HKQuantitySample {
        HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: 1),
                         start: now.addingTimeInterval(start), end: now.addingTimeInterval(start + length), device: device, metadata: metadata)
    }

    func uuids(_ store: HKHealthStore, _ predicate: NSPredicate) async throws -> Set<UUID> {
        Set(try await run(store, type: steps, predicate: predicate).map(\.uuid))
    }

    @Test(arguments: Backend.allCases)
    func dateRangesFollowHealthKitsOptions(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let (store, _) = try await twoApps(session)
            // The range is [100, 200). Samples: before, straddling the start, inside, straddling the end, after,
            // an instant exactly at the start and one exactly at the end.
            let before = sample(0, 50), acrossStart = sample(50, 100), inside = sample(120, 30), acrossEnd = sample(180, 50),
                after = sample(250, 10), atStart = sample(100, 0), atEnd = sample(200, 0)
            try await store.save([before, acrossStart, inside, acrossEnd, after, atStart, atEnd])
            let start = now.addingTimeInterval(100), end = now.addingTimeInterval(200)
            func range(_ options: HKQueryOptions) async throws -> Set<UUID> {
                try await uuids(store, HKQuery.predicateForSamples(withStart: start, end: end, options: options))
            }
            #expect(try await range([]) == [acrossStart, inside, acrossEnd, atStart].uuidSet)
            #expect(try await range(.strictStartDate) == [inside, acrossEnd, atStart].uuidSet)
            #expect(try await range(.strictEndDate) == [acrossStart, inside, atEnd].uuidSet)
            #expect(try await range([.strictStartDate, .strictEndDate]) == [inside].uuidSet)
            #expect(try await uuids(store, HKQuery.predicateForSamples(withStart: nil, end: start)) == [before, acrossStart].uuidSet)
            #expect(try await uuids(store, HKQuery.predicateForSamples(withStart: end, end: nil)) == [acrossEnd, after, atEnd].uuidSet)
        }
    }

    @Test(arguments: Backend.allCases)
    func aPredicateOpenHealthKitCannotCompileIsAClearError(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let (store, _) = try await twoApps(session)
            await #expect(throws: HKError(.errorInvalidArgument)) {
                _ = try await store.deleteObjects(of: steps, predicate: NSPredicate(value: true))
            }
            let badMetadata = HKQuery.predicateForObjects(withMetadataKey: "tags", allowedValues: [["a", "b"]])
            await #expect(throws: HKError(.errorInvalidArgument)) { _ = try await store.deleteObjects(of: steps, predicate: badMetadata) }
            let badDevice = HKQuery.predicateForObjects(withDeviceProperty: "colour", allowedValues: ["red"])
            do {
                _ = try await store.deleteObjects(of: steps, predicate: badDevice)
                Issue.record("an unknown device property was accepted")
            } catch let error as HKError {
                #expect(error.message.contains("colour"))
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func deleteObjectsRemovesOnlyTheAppsOwnMatchingObjects(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let (mine, theirs) = try await twoApps(session)
            let early = sample(0, 10), late = sample(1000, 10), othersEarly = sample(0, 10)
            try await mine.save([early, late])
            try await theirs.save(othersEarly)
            let predicate = HKQuery.predicateForSamples(withStart: now, end: now.addingTimeInterval(500))
            #expect(try await mine.deleteObjects(of: steps, predicate: predicate) == 1)
            #expect(try await uuids(mine, HKQuery.predicateForSamples(withStart: nil, end: nil)) == [late, othersEarly].uuidSet)
            let tombstones = try await runAnchored(mine, anchor: nil).deleted
            #expect(tombstones.map(\.uuid) == [early.uuid])
            // Nothing left to match: zero, not an error.
            #expect(try await mine.deleteObjects(of: steps, predicate: predicate) == 0)
        }
    }

    @Test(arguments: Backend.allCases)
    func workoutsAndObjectsAreFoundByActivityTypeAndUUID(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .allowAll)
            let workouts = HKObjectType.workoutType()
            try await store.requestAuthorization(toShare: [workouts], read: [workouts])
            let run1 = HKWorkout(activityType: .running, start: now, end: now.addingTimeInterval(60))
            let yoga = HKWorkout(activityType: .yoga, start: now, end: now.addingTimeInterval(60))
            let run2 = HKWorkout(activityType: .running, start: now, end: now.addingTimeInterval(90))
            try await store.save([run1, yoga, run2])
            #expect(try await store.deleteObjects(of: workouts, predicate: HKQuery.predicateForWorkouts(with: .yoga)) == 1)
            let notRun2 = NSCompoundPredicate(notPredicateWithSubpredicate: HKQuery.predicateForObject(with: run2.uuid))
            #expect(try await store.deleteObjects(of: workouts, predicate: notRun2) == 1)
            let left = try await run(store, type: workouts)
            #expect(left.map(\.uuid) == [run2.uuid])
        }
    }

    @Test(arguments: Backend.allCases)
    func deleteObjectsCompletionReportsTheCount(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let (mine, _) = try await twoApps(session)
            try await mine.save([sample(0, 1), sample(5, 1)])
            let count = await withCheckedContinuation { continuation in
                mine.deleteObjects(of: steps, predicate: HKQuery.predicateForObjects(from: HKSource(name: "Steps", bundleIdentifier: "com.example.steps"))) {
                    success, count, error in
                    continuation.resume(returning: success && error == nil ? count : -1)
                }
            }
            #expect(count == 2)
        }
    }

    @Test(arguments: Backend.allCases)
    func deleteObjectsIsRefusedInGuestModeAndWithoutSharePermission(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let (mine, _) = try await twoApps(session)
            try session.person().setGuestMode(true)
            await #expect(throws: HKError(.errorNotPermissibleForGuestUserMode)) {
                _ = try await mine.deleteObjects(of: steps, predicate: HKQuery.predicateForObjectsWithNoCorrelation())
            }
            try session.person().setGuestMode(false)
            await #expect(throws: HKError(.errorAuthorizationNotDetermined)) {
                _ = try await mine.deleteObjects(of: heartRate, predicate: HKQuery.predicateForObjectsWithNoCorrelation())
            }
        }
    }

    /// Random stores and random predicates: what SQL returns must be exactly what evaluating the predicate on
    /// every saved object in memory returns.
    @Test(arguments: Backend.allCases, [1, 2, 3, 4] as [UInt64])
    func compiledPredicatesAgreeWithEvaluationInMemory(_ backend: Backend, seed: UInt64) async throws {
        try await AppSession.with(backend) { session in
            var random = PredicateRandom(state: seed)
            let (mine, theirs) = try await twoApps(session)
            var all: [HKQuantitySample] = []
            for store in [mine, theirs] {
                var batch: [HKQuantitySample] = []
                for _ in 0..<40 {
                    var metadata: [String: Any] = [:]
                    if Bool.random(using: &random) { metadata["mood"] = ["calm", "brisk"].randomElement(using: &random)! }
                    if Bool.random(using: &random) { metadata["laps"] = Int.random(in: 1...3, using: &random) }
                    if Bool.random(using: &random) { metadata[HKMetadataKeyWasUserEntered] = Bool.random(using: &random) }
                    batch.append(sample(Double(Int.random(in: 0...20, using: &random) * 10), Double(Int.random(in: 0...3, using: &random) * 10),
                                        device: Self.devices.randomElement(using: &random).flatMap { Bool.random(using: &random) ? $0 : nil },
                                        metadata: metadata.isEmpty ? nil : metadata))
                }
                try await store.save(batch)
                all += batch
            }
            let saved = try await run(mine, type: steps)
            #expect(saved.count == all.count)
            for _ in 0..<60 {
                let predicate = randomPredicate(depth: 2, using: &random)
                let filter = try SampleFilter(predicate)
                let expected = Set(try saved.filter { try filter.matches($0) }.map(\.uuid))
                let actual = try await uuids(mine, predicate)
                if actual != expected {
                    Issue.record("seed \(seed): SQL found \(actual.count), memory \(expected.count) for \(filter)")
                }
                let evaluated = Set(saved.filter { predicate.evaluate(with: $0) }.map(\.uuid))
                if evaluated != expected {
                    Issue.record("seed \(seed): evaluate(with:) found \(evaluated.count), memory \(expected.count) for \(filter)")
                }
            }
        }
    }

    func randomPredicate(depth: Int, using random: inout PredicateRandom) -> NSPredicate {
        let time = { (r: inout PredicateRandom) in now.addingTimeInterval(Double(Int.random(in: 0...22, using: &r) * 10)) }
        let leaves: [(inout PredicateRandom) -> NSPredicate] = [
            { r in
                let options = [HKQueryOptions(), .strictStartDate, .strictEndDate, [.strictStartDate, .strictEndDate]].randomElement(using: &r)!
                let a = time(&r), b = time(&r)
                return HKQuery.predicateForSamples(withStart: Bool.random(using: &r) ? min(a, b) : nil, end: max(a, b), options: options)
            },
            { r in HKQuery.predicateForObjects(from: HKSource(name: "?", bundleIdentifier: ["com.example.steps", "com.example.watch"].randomElement(using: &r)!)) },
            { r in HKQuery.predicateForObjects(from: [HKSourceRevision(source: HKSource(name: "Watch", bundleIdentifier: "com.example.watch"),
                                                                       version: ["2.1", "1.0"].randomElement(using: &r)!)]) },
            { r in HKQuery.predicateForObjects(from: [Self.devices.randomElement(using: &r)!]) },
            { r in HKQuery.predicateForObjects(withDeviceProperty: HKDevicePropertyKeyModel, allowedValues: [["W1", "P7", "X"].randomElement(using: &r)!]) },
            { r in HKQuery.predicateForObjects(withMetadataKey: ["mood", "laps", HKMetadataKeyWasUserEntered].randomElement(using: &r)!) },
            { r in HKQuery.predicateForObjects(withMetadataKey: "mood", allowedValues: [["calm"], ["brisk", "calm"], []].randomElement(using: &r)!) },
            { r in HKQuery.predicateForObjects(withMetadataKey: "laps", allowedValues: [[1], [2.0, 3], [true]].randomElement(using: &r)!) },
            { r in HKQuery.predicateForObjects(withMetadataKey: HKMetadataKeyWasUserEntered, allowedValues: [Bool.random(using: &r)]) },
            { _ in HKQuery.predicateForObjectsWithNoCorrelation() },
        ]
        if depth == 0 || Int.random(in: 0...2, using: &random) == 0 {
            return leaves.randomElement(using: &random)!(&random)
        }
        let parts = (0..<Int.random(in: 1...3, using: &random)).map { _ in randomPredicate(depth: depth - 1, using: &random) }
        switch Int.random(in: 0...2, using: &random) {
        case 0: return NSCompoundPredicate(andPredicateWithSubpredicates: parts)
        case 1: return NSCompoundPredicate(orPredicateWithSubpredicates: parts)
        default: return NSCompoundPredicate(notPredicateWithSubpredicate: parts[0])
        }
    }
}

extension Array where Element: HKObject {
    var uuidSet: Set<UUID> { Set(map(\.uuid)) }
}
