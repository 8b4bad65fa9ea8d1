import Foundation
import OpenHealthKit
import Testing

private let steps = HKQuantityType(.stepCount)
private let heartRate = HKQuantityType(.heartRate)

private extension AppManifest {
    static let records = AppManifest(
        bundleIdentifier: "com.example.records", name: "Records",
        shareUsageDescription: "Reads data.", clinicalUsageDescription: "Reads your health records.",
        requiredReadTypeIdentifiers: [HKClinicalTypeIdentifier.labResultRecord.rawValue,
                                      HKClinicalTypeIdentifier.immunizationRecord.rawValue,
                                      HKClinicalTypeIdentifier.allergyRecord.rawValue])
}

/// HealthKit's authorization rules as an app meets them, on both backends: per type, share and read apart, read denial
/// invisible, decided types never asked again, usage descriptions and clinical rules enforced before anything is shown,
/// guest mode, a dismissed sheet, the person's revocation. (Through the daemon the sheet is the daemon's waiting
/// request, answered by the same script.)
@Suite("Authorization on both backends")
struct AuthorizationOnBothBackendsTests {
    @Test(arguments: Backend.allCases)
    func shareStatusIsPerTypeAndReportsShareOnly(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .init(default: .deny, share: [steps.identifier: .allow],
                                                                      read: [heartRate.identifier: .allow]))
            #expect(store.authorizationStatus(for: steps) == .notDetermined)
            try await store.requestAuthorization(toShare: [steps, heartRate], read: [heartRate])
            #expect(store.authorizationStatus(for: steps) == .sharingAuthorized)
            #expect(store.authorizationStatus(for: heartRate) == .sharingDenied)
            // Read was allowed for heart rate, yet the status says only what share is.
            let bodyMass = HKQuantityType(.bodyMass)
            try await store.requestAuthorization(toShare: [], read: [bodyMass])
            #expect(store.authorizationStatus(for: bodyMass) == .notDetermined)
        }
    }

    /// Found by the privacy property through the daemon: an app that may not write a type deleting another app's hidden
    /// sample of it, and deleting a UUID that was never saved, gets the same answer — the share refusal — on every backend.
    @Test(arguments: Backend.allCases)
    func deletingWithoutShareIsRefusedAlikeForAHiddenAndAnAbsentObject(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let owner = try await session.app(.steps, answering: .allowAll)
            try await owner.requestAuthorization(toShare: [heartRate], read: [])
            let hidden = HKQuantitySample(type: heartRate, quantity: HKQuantity(unit: .count().unitDivided(by: .minute()), doubleValue: 61),
                                          start: Date(timeIntervalSinceReferenceDate: 815_443_200), end: Date(timeIntervalSinceReferenceDate: 815_443_200))
            try await owner.save(hidden)
            let other = try await session.app(.other, answering: .init(default: .deny))
            try await other.requestAuthorization(toShare: [heartRate], read: [heartRate])
            let absent = HKQuantitySample(type: heartRate, quantity: hidden.quantity, start: hidden.startDate, end: hidden.endDate)
            func refusal(_ object: HKObject) async -> String? {
                do { try await other.delete(object); return nil } catch let error as HKError {
                    return "\(error.code) " + error.message.replacingOccurrences(of: object.uuid.uuidString, with: "<uuid>")
                } catch { return "\(error)" }
            }
            let forHidden = await refusal(hidden), forAbsent = await refusal(absent)
            #expect(forHidden == forAbsent, "hidden: \(forHidden ?? "deleted"), absent: \(forAbsent ?? "deleted")")
            #expect(forHidden?.hasPrefix("errorAuthorizationDenied") == true, "\(forHidden ?? "deleted")")
        }
    }

    @Test(arguments: Backend.allCases)
    func requestStatusSaysWhetherAnythingWouldBePresented(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .allowAll)
            #expect(try await store.statusForAuthorizationRequest(toShare: [steps], read: [steps]) == .shouldRequest)
            try await store.requestAuthorization(toShare: [steps], read: [steps])
            #expect(try await store.statusForAuthorizationRequest(toShare: [steps], read: [steps]) == .unnecessary)
            #expect(try await store.statusForAuthorizationRequest(toShare: [steps], read: [steps, heartRate]) == .shouldRequest)
            // Share decided does not mean read decided.
            #expect(try await store.statusForAuthorizationRequest(toShare: [heartRate], read: []) == .shouldRequest)
            // The completion-handler form, off the caller's thread.
            let status: HKAuthorizationRequestStatus = await withCheckedContinuation { continuation in
                store.getRequestStatusForAuthorization(toShare: [steps], read: []) { status, _ in continuation.resume(returning: status) }
            }
            #expect(status == .unnecessary)
        }
    }

    @Test(arguments: Backend.allCases)
    func decidedTypesAreNotPresentedAgainAndNewOnesAloneAre(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .allowAll)
            let person = try #require(session.presenter(for: AppManifest.steps.bundleIdentifier))
            try await store.requestAuthorization(toShare: [steps], read: [steps])
            #expect(person.presentedSheets.count == 1)
            try await store.requestAuthorization(toShare: [steps], read: [steps])
            #expect(person.presentedSheets.count == 1)
            try await store.requestAuthorization(toShare: [steps], read: [steps, heartRate])
            #expect(person.presentedSheets.count == 2)
            #expect(person.presentedSheets.last?.readTypes == [heartRate.identifier] && person.presentedSheets.last?.shareTypes.isEmpty == true)
            // The completion-handler form reports success.
            let ok: Bool = await withCheckedContinuation { continuation in
                store.requestAuthorization(toShare: [steps], read: nil) { success, _ in continuation.resume(returning: success) }
            }
            #expect(ok)
        }
    }

    @Test(arguments: Backend.allCases)
    func aDeniedTypeIsDecidedToo(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .denyAll)
            try await store.requestAuthorization(toShare: [steps], read: [steps])
            try await store.requestAuthorization(toShare: [steps], read: [steps])
            #expect(session.presenter(for: AppManifest.steps.bundleIdentifier)?.presentedSheets.count == 1)
            #expect(store.authorizationStatus(for: steps) == .sharingDenied)
        }
    }

    @Test(arguments: Backend.allCases)
    func missingUsageDescriptionsAreAnErrorAndNothingIsPresented(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            var noUpdate = AppManifest.steps
            noUpdate.updateUsageDescription = nil
            let store = try await session.app(noUpdate, answering: .allowAll)
            await #expect {
                try await store.requestAuthorization(toShare: [steps], read: [])
            } throws: { error in
                (error as? HKError)?.code == .errorInvalidArgument && (error as? HKError)?.message.contains("NSHealthUpdateUsageDescription") == true
            }
            var noShare = AppManifest.other
            noShare.shareUsageDescription = ""
            let other = try await session.app(noShare, answering: .allowAll)
            await #expect(throws: HKError(.errorInvalidArgument)) { try await other.requestAuthorization(toShare: [], read: [steps]) }
            #expect(session.presenter(for: noUpdate.bundleIdentifier)?.presentedSheets.isEmpty == true)
            #expect(session.presenter(for: noShare.bundleIdentifier)?.presentedSheets.isEmpty == true)
        }
    }

    @Test(arguments: Backend.allCases)
    func clinicalTypesAreReadOnlyAndNeedTheClinicalUsageDescription(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let records = try await session.app(.records, answering: .allowAll)
            await #expect {
                try await records.requestAuthorization(toShare: [HKClinicalType(.labResultRecord)], read: [])
            } throws: { error in
                (error as? HKError)?.message.contains("clinical types are read-only") == true
            }
            #expect(session.presenter(for: AppManifest.records.bundleIdentifier)?.presentedSheets.isEmpty == true)
            let plain = try await session.app(.steps, answering: .allowAll)
            await #expect {
                try await plain.requestAuthorization(toShare: [], read: [HKClinicalType(.labResultRecord)])
            } throws: { error in
                (error as? HKError)?.message.contains("NSHealthClinicalHealthRecordsShareUsageDescription") == true
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func aDeniedRequiredClinicalTypeFailsTheRequestWithoutNamingIt(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let immunization = HKClinicalType(.immunizationRecord)
            let store = try await session.app(.records, answering: .init(default: .allow, read: [immunization.identifier: .deny]))
            let records: Set<HKObjectType> = [HKClinicalType(.labResultRecord), immunization, HKClinicalType(.allergyRecord)]
            await #expect {
                try await store.requestAuthorization(toShare: [], read: records)
            } throws: { error in
                guard let error = error as? HKError else { return false }
                return error.code == .errorRequiredAuthorizationDenied && !error.message.contains("Immunization")
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func guestModeCompletesWithoutPresentingAndKeepsStatuses(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .allowAll)
            try await store.requestAuthorization(toShare: [steps], read: [])
            try session.person().setGuestMode(true)
            try await store.requestAuthorization(toShare: [steps, heartRate], read: [heartRate])
            #expect(session.presenter(for: AppManifest.steps.bundleIdentifier)?.presentedSheets.count == 1)
            #expect(store.authorizationStatus(for: steps) == .sharingAuthorized)
            #expect(store.authorizationStatus(for: heartRate) == .notDetermined)
        }
    }

    @Test(arguments: Backend.allCases)
    func dismissingTheSheetDecidesNothing(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .init(default: .allow, dismiss: true))
            await #expect(throws: HKError(.errorUserCanceled)) { try await store.requestAuthorization(toShare: [steps], read: []) }
            #expect(store.authorizationStatus(for: steps) == .notDetermined)
            #expect(try await store.statusForAuthorizationRequest(toShare: [steps], read: []) == .shouldRequest)
        }
    }

    /// The person turns off share and read: the next status says so, and another app's steps are gone from the app's
    /// view (its own stay).
    @Test(arguments: Backend.allCases)
    func thePersonsRevocationAppliesImmediately(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .allowAll)
            try await store.requestAuthorization(toShare: [steps], read: [steps])
            let other = HKHealthStore(configuration: .init(storeDirectory: session.folder, app: .other, presenter: ScriptedPresenter(.allowAll)))
            try await other.requestAuthorization(toShare: [steps], read: [])
            try await other.save(HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: 40), start: Date(), end: Date()))
            let all = HKSampleQueryDescriptor(predicates: [.quantitySample(type: steps)], sortDescriptors: [])
            #expect(try await all.result(for: store).count == 1)
            try session.person().setPermission(app: AppManifest.steps.bundleIdentifier, type: steps, share: false, read: false)
            #expect(store.authorizationStatus(for: steps) == .sharingDenied)
            #expect(try await all.result(for: store).isEmpty)
        }
    }
}
