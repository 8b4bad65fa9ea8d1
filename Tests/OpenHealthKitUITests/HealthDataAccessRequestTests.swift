import Foundation
import Synchronization
import Testing
import OpenHealthKit
@testable import OpenHealthKitUI

/// Collects the results a request delivers.
final class Results: Sendable {
    private let values = Mutex<[Result<Bool, HKError>]>([])
    func append(_ result: Result<Bool, any Error>) {
        values.withLock { $0.append(result.mapError { $0 as? HKError ?? HKError(.errorInvalidArgument, "\($0)") }) }
    }
    var all: [Result<Bool, HKError>] { values.withLock { $0 } }
}

@Suite("Trigger-driven access request")
@MainActor
struct HealthDataAccessRequestTests {
    let types: Set<HKObjectType> = [workouts, heartRate, activeEnergy]

    @Test func nothingHappensUntilTheTriggerChanges() async {
        let (store, person, _) = fitRecordsStore(.allowAll)
        let results = Results()
        let request = HealthDataAccessRequest(store: store, readTypes: types, trigger: false) { results.append($0) }
        request.trigger = false  // the same value: no request
        #expect(request.pending == nil)
        #expect(person.presentedSheets.isEmpty)
        #expect(results.all.isEmpty)
    }

    @Test func changingTheTriggerRequestsAndDeliversSuccess() async {
        let (store, person, _) = fitRecordsStore(.allowAll)
        let results = Results()
        let request = HealthDataAccessRequest(store: store, shareTypes: [workouts], readTypes: types, trigger: 0) { results.append($0) }
        request.trigger += 1
        await request.pending?.value
        #expect(results.all == [.success(true)])
        #expect(person.presentedSheets.count == 1)
        #expect(store.authorizationStatus(for: workouts) == .sharingAuthorized)
        // Again with everything decided: completes without asking.
        request.trigger += 1
        await request.pending?.value
        #expect(results.all == [.success(true), .success(true)])
        #expect(person.presentedSheets.count == 1)
    }

    @Test func failuresArriveAsFailure() async {
        var noDescriptions = fitRecords
        noDescriptions.shareUsageDescription = nil
        let person = ScriptedPresenter(.allowAll)
        let store = HKHealthStore(configuration: .init(
            storeDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("ui-\(UUID().uuidString)"),
            app: noDescriptions, presenter: person))
        let results = Results()
        let request = HealthDataAccessRequest(store: store, readTypes: types, trigger: "a") { results.append($0) }
        request.trigger = "b"
        await request.pending?.value
        guard case .failure(let error)? = results.all.first else {
            Issue.record("expected a failure, got \(results.all)")
            return
        }
        #expect(error.message.contains("NSHealthShareUsageDescription"))
        #expect(person.presentedSheets.isEmpty)
    }
}

@Suite("Trigger-driven per-object access request")
@MainActor
struct PerObjectAccessRequestTests {
    @Test func eachChangeOfTheTriggerPutsThePrescriptionsBeforeThePerson() async {
        let (store, person, _) = fitRecordsStore(.allowAll)
        let results = Results()
        let request = HealthDataAccessRequest(store: store, objectType: HKObjectType.visionPrescriptionType(), trigger: 0) { results.append($0) }
        #expect(request.objectType == HKObjectType.visionPrescriptionType() && request.predicate == nil)
        request.trigger += 1
        await request.pending?.value
        request.trigger += 1
        await request.pending?.value
        // Always asked, as HealthKit always shows the per-object sheet.
        #expect(results.all == [.success(true), .success(true)])
        #expect(person.presentedObjectSheets.count == 2 && person.presentedSheets.isEmpty)
    }

    @Test func aTypeAuthorizedWholeFails() async {
        let (store, _, _) = fitRecordsStore(.allowAll)
        let results = Results()
        let request = HealthDataAccessRequest(store: store, objectType: HKQuantityType(.heartRate), trigger: false) { results.append($0) }
        request.trigger = true
        await request.pending?.value
        guard case .failure(let error)? = results.all.first else {
            Issue.record("expected a failure, got \(results.all)")
            return
        }
        #expect(error.code == .errorInvalidArgument)
    }
}
