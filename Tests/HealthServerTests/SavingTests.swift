import Foundation
import OpenHealthKit
import Testing

private let steps = HKQuantityType(.stepCount)
private let heartRate = HKQuantityType(.heartRate)
private let now = Date(timeIntervalSinceReferenceDate: 800_000_000)

private func stepSample(_ count: Double, metadata: [String: Any]? = nil) -> HKQuantitySample {
    HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: count), start: now, end: now.addingTimeInterval(600),
                     metadata: metadata)
}

private func stepsSeen(by store: HKHealthStore) async throws -> [HKSample] {
    try await HKSampleQueryDescriptor(predicates: [.sample(type: steps)], sortDescriptors: [SortDescriptor(\.startDate)]).result(for: store)
}

private func deletedSteps(seenBy store: HKHealthStore) async throws -> [HKDeletedObject] {
    try await HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: steps)], anchor: nil).result(for: store).deletedObjects
}

/// Saving and deleting as apps do, on both backends (with what `RemoteStoreTests` covers: a sample coming back equal,
/// refused saves and all-or-nothing batches, deleting one's own objects only): the same object twice, tombstones and
/// who sees them, guest mode, the completion-handler forms, and many saves at once.
@Suite("Saving and deleting, embedded and through the daemon")
struct SavingTests {
    @Test(arguments: Backend.allCases)
    func savingTheSameObjectTwiceIsAnErrorAndABatchRepeatingOneSavesNothing(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.authorizedStepsStore()
            let sample = stepSample(3)
            try await store.save(sample)
            await #expect(throws: HKError(.errorInvalidArgument)) { try await store.save(sample) }
            let twice = stepSample(5)
            await #expect(throws: HKError(.errorInvalidArgument)) { try await store.save([twice, stepSample(6), twice]) }
            #expect(try await stepsSeen(by: store).map(\.uuid) == [sample.uuid])
        }
    }

    @Test(arguments: Backend.allCases)
    func deletionLeavesATombstoneWithSyncMetadataOnly(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.authorizedStepsStore()
            let sample = stepSample(10, metadata: [HKMetadataKeySyncIdentifier: "walk-1", HKMetadataKeySyncVersion: 2, "note": "x"])
            try await store.save(sample)
            try await store.delete(sample)
            let deleted = try await deletedSteps(seenBy: store)
            #expect(deleted.map(\.uuid) == [sample.uuid])
            #expect(deleted.first?.metadata?[HKMetadataKeySyncIdentifier] as? String == "walk-1")
            #expect(deleted.first?.metadata?[HKMetadataKeySyncVersion] as? Int == 2)
            #expect(deleted.first?.metadata?["note"] == nil)
        }
    }

    @Test(arguments: Backend.allCases)
    func aDeniedReaderSeesOnlyItsOwnSamplesAndDeletionsUntilAllowed(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.authorizedStepsStore()
            let theirs = stepSample(100)
            try await store.save(theirs)
            let reader = try await session.app(.other, answering: .init(default: .allow, read: [steps.identifier: .deny]))
            try await reader.requestAuthorization(toShare: [steps], read: [steps])
            #expect(try await stepsSeen(by: reader).isEmpty)
            let own = stepSample(7)
            try await reader.save(own)
            #expect(try await stepsSeen(by: reader).map(\.uuid) == [own.uuid])
            // Other sources' deletions are invisible too, as if nobody else had data.
            try await store.delete(theirs)
            #expect(try await deletedSteps(seenBy: reader).isEmpty)
            // Once the person allows reading, everything shows.
            try session.person().setPermission(app: AppManifest.other.bundleIdentifier, type: steps, share: nil, read: true)
            #expect(try await deletedSteps(seenBy: reader).map(\.uuid) == [theirs.uuid])
        }
    }

    @Test(arguments: Backend.allCases)
    func guestModeRefusesSavesAndDeletesButReadsWork(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.authorizedStepsStore()
            let sample = stepSample(10)
            try await store.save(sample)
            try session.person().setGuestMode(true)
            await #expect(throws: HKError(.errorNotPermissibleForGuestUserMode)) { try await store.save(stepSample(1)) }
            await #expect(throws: HKError(.errorNotPermissibleForGuestUserMode)) { try await store.delete(sample) }
            #expect(try await stepsSeen(by: store).map(\.uuid) == [sample.uuid])
            #expect(store.authorizationStatus(for: steps) == .sharingAuthorized)
        }
    }

    @Test(arguments: Backend.allCases)
    func aCorrelationNeedsItsMembersShareTypes(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .allowAll)
            let mmHg = HKUnit.millimeterOfMercury()
            let systolic = HKQuantitySample(type: HKQuantityType(.bloodPressureSystolic), quantity: HKQuantity(unit: mmHg, doubleValue: 120), start: now, end: now)
            let diastolic = HKQuantitySample(type: HKQuantityType(.bloodPressureDiastolic), quantity: HKQuantity(unit: mmHg, doubleValue: 80), start: now, end: now)
            let reading = HKCorrelation(type: HKCorrelationType(.bloodPressure), start: now, end: now, objects: [systolic, diastolic])
            await #expect(throws: HKError(.errorAuthorizationNotDetermined)) { try await store.save(reading) }
            try await store.requestAuthorization(toShare: [systolic.sampleType, diastolic.sampleType], read: [HKCorrelationType(.bloodPressure)])
            try await store.save(reading)
            let saved = try await HKSampleQueryDescriptor(predicates: [.sample(type: HKCorrelationType(.bloodPressure))], sortDescriptors: [])
                .result(for: store)
            #expect(saved.map(\.uuid) == [reading.uuid])
        }
    }

    @Test(arguments: Backend.allCases)
    func theCompletionFormsReportFailureAndSuccess(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .allowAll)
            let refused: (Bool, HKError.Code?) = await withCheckedContinuation { continuation in
                store.save(stepSample(1)) { ok, error in continuation.resume(returning: (ok, (error as? HKError)?.code)) }
            }
            #expect(refused.0 == false && refused.1 == .errorAuthorizationNotDetermined)
            try await store.requestAuthorization(toShare: [steps], read: [steps])
            let sample = stepSample(2)
            let saved: Bool = await withCheckedContinuation { continuation in store.save(sample) { ok, _ in continuation.resume(returning: ok) } }
            let deleted: Bool = await withCheckedContinuation { continuation in store.delete(sample) { ok, _ in continuation.resume(returning: ok) } }
            #expect(saved && deleted)
            #expect(try await stepsSeen(by: store).isEmpty)
        }
    }

    @Test(arguments: Backend.allCases)
    func manyTasksSaveConcurrentlyIntoOneStore(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.authorizedStepsStore()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for i in 0..<20 {
                    group.addTask { try await store.save((0..<50).map { stepSample(Double(i * 50 + $0)) }) }
                }
                try await group.waitForAll()
            }
            #expect(try await stepsSeen(by: store).count == 1000)
        }
    }
}
