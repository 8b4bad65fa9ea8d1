import Foundation
import OpenHealthKit
import Testing

/// Clinical records on both backends: the person imports her providers' FHIR records; an app reads them with consent,
/// byte for byte and with their providers as sources, finds them by FHIR type and id, and can never write them.
@Suite("Clinical records on both backends")
struct ClinicalRecordsTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/fhir")
    static let export = fixtures.appendingPathComponent("apple-health-export-sample/apple_health_export")

    private func query(_ store: HKHealthStore, _ type: HKClinicalType, _ predicate: NSPredicate? = nil) async throws -> [HKClinicalRecord] {
        try await HKSampleQueryDescriptor(predicates: [.clinicalRecord(type: type, predicate: predicate)], sortDescriptors: [SortDescriptor(\.startDate)])
            .result(for: store)
    }

    @Test(arguments: Backend.allCases)
    func appsReadRecordsOnlyWithConsentExactlyAsStoredAndNeverWriteThem(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            _ = try session.person().importClinicalRecords(at: Self.export)
            let stored = try session.person().clinicalRecords()
            var manifest = AppManifest.steps
            manifest.clinicalUsageDescription = "Shows your medications."
            let medications = HKClinicalType(.medicationRecord), labs = HKClinicalType(.labResultRecord)
            let store = try await session.app(manifest, answering: .init(default: .allow, read: [labs.identifier: .deny]))
            try await store.requestAuthorization(toShare: [], read: [medications, labs])
            #expect(store.supportsHealthRecords())

            let meds = try await query(store, medications)
            #expect(Set(meds.compactMap { $0.fhirResource?.resourceType }) == [.medicationOrder, .medicationRequest])
            let onlyRequests = HKQuery.predicateForClinicalRecords(withFHIRResourceType: .medicationRequest)
            #expect(try await query(store, medications, onlyRequests).count == 1)
            for record in meds {
                let original = try #require(stored.first { $0.uuid == record.uuid })
                #expect(record.displayName == original.displayName && record.startDate == original.startDate)
                #expect(record.fhirResource?.data == original.fhirResource?.data, "the resource's bytes, unchanged")
                #expect(record.fhirResource?.identifier == original.fhirResource?.identifier)
                #expect(record.fhirResource?.sourceURL == original.fhirResource?.sourceURL)
                #expect(record.fhirResource?.fhirVersion == original.fhirResource?.fhirVersion)
                #expect(record.sourceRevision.source == original.sourceRevision.source)
            }
            let one = try #require(meds.first)
            let exact = HKQuery.predicateForClinicalRecords(from: one.sourceRevision.source, fhirResourceType: one.fhirResource!.resourceType,
                                                            identifier: one.fhirResource!.identifier)
            #expect(try await query(store, medications, exact).map(\.uuid) == [one.uuid])
            #expect(try await query(store, labs).isEmpty, "a denied read looks like no data")
            let providers = try await HKSourceQueryDescriptor(predicate: .clinicalRecord(type: medications)).result(for: store)
            #expect(Set(providers.map(\.name)) == ["Example Health System (R4)", "Legacy Clinic (DSTU2)"])
            #expect(providers.allSatisfy { $0.bundleIdentifier.hasPrefix("healthrecords.") }, "the institutions are listed like apps")

            let saving = await #expect(throws: HKError.self) { try await store.save(one) }
            #expect(saving?.code == .errorAuthorizationDenied)
            await #expect(throws: HKError.self) { try await store.delete(one) }
            #expect(try await query(store, medications).count == meds.count)
            await #expect(throws: HKError.self) { try await store.requestAuthorization(toShare: [medications], read: []) }
        }
    }

    /// The person imports a newer version of a resource: the app's anchored query sees the old record deleted and the
    /// new one added.
    @Test(arguments: Backend.allCases)
    func aNewerVersionOfAResourceUpdatesItInPlaceAndAnchoredQueriesSeeTheChange(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let input = try DaemonHarness.privateFolder()
            defer { try? FileManager.default.removeItem(at: input) }
            let file = input.appendingPathComponent("condition.json")
            var condition = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.fixtures.appendingPathComponent("r4/condition-example.json")))
                as! [String: Any]
            try JSONSerialization.data(withJSONObject: condition).write(to: file)
            #expect(try session.person().importClinicalRecords(at: input, provider: "City Clinic").added == 1)

            var reader = AppManifest.steps
            reader.clinicalUsageDescription = "Shows your conditions."
            let store = try await session.app(reader, answering: .allowAll)
            let conditions = HKClinicalType(.conditionRecord)
            try await store.requestAuthorization(toShare: [], read: [conditions])
            let first = try await HKAnchoredObjectQueryDescriptor(predicates: [.clinicalRecord(type: conditions)], anchor: nil).result(for: store)
            #expect(first.addedSamples.map(\.displayName) == ["Burnt Ear"])

            condition["code"] = ["text": "Burnt Ear (healed)"]
            try JSONSerialization.data(withJSONObject: condition).write(to: file)
            let update = try session.person().importClinicalRecords(at: input, provider: "City Clinic")
            #expect(update.updated == 1 && update.added == 0)
            let next = try await HKAnchoredObjectQueryDescriptor(predicates: [.clinicalRecord(type: conditions)], anchor: first.newAnchor).result(for: store)
            #expect(next.addedSamples.map(\.displayName) == ["Burnt Ear (healed)"])
            #expect(next.deletedObjects.map(\.uuid) == first.addedSamples.map(\.uuid))
        }
    }
}
