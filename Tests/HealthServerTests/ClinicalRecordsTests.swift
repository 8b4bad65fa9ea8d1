import Foundation
import OpenHealthKit
import Testing

/// Clinical records on both backends: the person imports her providers' FHIR records; an app reads them with consent,
/// byte for byte and with their providers as sources, finds them by FHIR type and id, and can never write them.
@Suite("Clinical records on both backends")
struct ClinicalRecordsTests {
    static let export = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fhir/apple-health-export-sample/apple_health_export")

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

            let meds = try await query(store, medications)
            #expect(Set(meds.compactMap { $0.fhirResource?.resourceType }) == [.medicationOrder, .medicationRequest])
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

            let saving = await #expect(throws: HKError.self) { try await store.save(one) }
            #expect(saving?.code == .errorAuthorizationDenied)
            await #expect(throws: HKError.self) { try await store.delete(one) }
            #expect(try await query(store, medications).count == meds.count)
        }
    }
}
