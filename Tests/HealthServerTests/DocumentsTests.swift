import Foundation
import HealthAPI
import NIOHTTP1
import Synchronization
import Testing
import OpenHealthKit

private let cdaType = HKDocumentType(.CDA)
private let visit = Date(timeIntervalSinceReferenceDate: 815_443_200)

/// A discharge summary in HL7 CDA, the least a reader needs: title, patient, author, custodian.
private let summary = Data("""
    <?xml version="1.0" encoding="UTF-8"?>
    <ClinicalDocument xmlns="urn:hl7-org:v3">
      <title>Discharge Summary</title>
      <recordTarget><patientRole><patient><name><given>Alex</given><family>Martin</family></name></patient></patientRole></recordTarget>
      <author><assignedAuthor><assignedPerson><name><given>Ruth</given><family>Okafor</family></name></assignedPerson></assignedAuthor></author>
      <custodian><assignedCustodian><representedCustodianOrganization><name>Lakeside Clinic</name></representedCustodianOrganization>
      </assignedCustodian></custodian>
    </ClinicalDocument>
    """.utf8)

/// What an `HKDocumentQuery` gives, all batches together.
private func documents(_ store: HKHealthStore, includeData: Bool) async throws -> [HKCDADocumentSample] {
    let found = Mutex<[HKCDADocumentSample]>([])
    return try await withCheckedThrowingContinuation { continuation in
        store.execute(HKDocumentQuery(documentType: cdaType, predicate: nil, limit: HKObjectQueryNoLimit, sortDescriptors: nil,
                                      includeDocumentData: includeData) { _, batch, done, error in
            if let error { return continuation.resume(throwing: error) }
            found.withLock { $0 += (batch ?? []).compactMap { $0 as? HKCDADocumentSample } }
            if done { continuation.resume(returning: found.withLock { $0 }) }
        })
    }
}

/// CDA documents on both backends: an app saves one, reads it back with or without its XML, and another app that may
/// not read documents finds none.
@Suite("CDA documents on both backends")
struct DocumentsTests {
    @Test(arguments: Backend.allCases)
    func aSavedDocumentComesBackWithItsXMLTitleAndNames(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .allowAll)
            try await store.requestAuthorization(toShare: [cdaType], read: [cdaType])
            let saved = try HKCDADocumentSample(data: summary, start: visit, end: visit.addingTimeInterval(3600), metadata: ["ward": "B2"])
            try await store.save(saved)
            let found = try await documents(store, includeData: true)
            let document = try #require(found.first?.document)
            #expect(found.count == 1 && found[0].uuid == saved.uuid && found[0].endDate == visit.addingTimeInterval(3600))
            #expect(document.documentData == summary && document.title == "Discharge Summary")
            #expect(document.patientName == "Alex Martin" && document.authorName == "Ruth Okafor" && document.custodianName == "Lakeside Clinic")
            #expect(found[0].metadata?["ward"] as? String == "B2")
            let bare = try await documents(store, includeData: false)
            #expect(bare.map(\.uuid) == [saved.uuid] && bare[0].document?.documentData == nil && bare[0].document?.title == "Discharge Summary")

            let stranger = try await session.app(.other, answering: .denyAll)
            try await stranger.requestAuthorization(toShare: [cdaType], read: [cdaType])
            #expect(try await documents(stranger, includeData: true).isEmpty)
        }
    }

    /// Through the daemon a document is checked as HealthKit's initializer checks it: XML that is not CDA is a 400 naming
    /// the document's data.
    @Test func aDocumentThatIsNotCDAIsA400NamingItsData() async throws {
        try await DaemonHarness.with { daemon in
            let token = try await daemon.connect("com.example.docs", share: [cdaType], read: [cdaType])
            let xml = Data("<html><title>Not CDA</title></html>".utf8).base64EncodedString()
            let body = #"{"samples":[{"uuid":"\#(UUID().uuidString)","type":"HKDocumentTypeIdentifierCDA","startDate":"2026-11-24T08:00:00Z","#
                + #""endDate":"2026-11-24T08:00:00Z","document":{"data":"\#(xml)"}}]}"#
            let refused = try await daemon.raw(.POST, "/v1/objects", body: body, token: token)
            #expect(refused.status == 400 && refused.json["field"] as? String == "/samples/0/document/data", "\(refused.body)")
            let found = try await daemon.raw(.POST, "/v1/queries/samples", body: #"{"type":"HKDocumentTypeIdentifierCDA"}"#, token: token)
            #expect(found.status == 200 && found.json["samples"] as? [Any] != nil && (found.json["samples"] as? [Any])?.isEmpty == true, "\(found.body)")
        }
    }
}
