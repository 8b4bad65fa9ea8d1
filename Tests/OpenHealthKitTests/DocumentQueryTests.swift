import Foundation
import Synchronization
import Testing
@testable import OpenHealthKit
import TestSupport

private let cdaType = HKDocumentType(.CDA)

/// A small C-CDA document, as a clinic's portal exports it; `custodian: false` leaves the custodian out.
private func cda(title: String = "Continuity of Care Document", custodian: Bool = true) -> Data {
    Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <ClinicalDocument xmlns="urn:hl7-org:v3" xmlns:sdtc="urn:hl7-org:sdtc">
          <realmCode code="US"/>
          <templateId root="2.16.840.1.113883.10.20.22.1.2"/>
          <title>\(title)</title>
          <effectiveTime value="20261104120000-0500"/>
          <recordTarget><patientRole><id extension="998991"/>
            <patient><name use="L"><given>Isabella</given> <given>Isa</given>
              <family>Jones</family></name></patient>
          </patientRole></recordTarget>
          <author><time value="20261104"/><assignedAuthor><id root="2.16.840.1.113883.4.6"/>
            <assignedPerson><name><prefix>Dr.</prefix><given>Henry</given><family>Seven</family></name></assignedPerson>
          </assignedAuthor></author>
          \(custodian ? """
          <custodian><assignedCustodian><representedCustodianOrganization>
            <name>Community Health and Hospitals</name>
          </representedCustodianOrganization></assignedCustodian></custodian>
          """ : "")
          <component><structuredBody/></component>
        </ClinicalDocument>
        """.utf8)
}

private func document(_ title: String, minute: Double) throws -> HKCDADocumentSample {
    let when = day0.addingTimeInterval(minute * 60)
    return try HKCDADocumentSample(data: cda(title: title), start: when, end: when, metadata: nil)
}

/// Every call of a document query's handler: the titles of its batch, and `done`.
private func documentCalls(_ store: HKHealthStore, predicate: NSPredicate? = nil, limit: Int = HKObjectQueryNoLimit,
                           includeData: Bool = true) async throws -> [(titles: [String], withData: Int, done: Bool)] {
    let calls = Mutex<[(titles: [String], withData: Int, done: Bool)]>([])
    return try await withCheckedThrowingContinuation { continuation in
        store.execute(HKDocumentQuery(documentType: cdaType, predicate: predicate, limit: limit, sortDescriptors: nil,
                                      includeDocumentData: includeData) { _, documents, done, error in
            if let error { return continuation.resume(throwing: error) }
            let samples = (documents ?? []).compactMap { $0 as? HKCDADocumentSample }
            let all = calls.withLock { calls in
                calls.append((samples.compactMap { $0.document?.title }, samples.filter { $0.document?.documentData != nil }.count, done))
                return calls
            }
            if done { continuation.resume(returning: all) }
        })
    }
}

@Suite("CDA documents and document queries")
struct DocumentQueryTests {
    @Test func aCDADocumentGivesItsTitleAndNames() throws {
        let sample = try HKCDADocumentSample(data: cda(), start: day0, end: day0, metadata: ["visit": "annual"])
        let document = try #require(sample.document)
        #expect(document.title == "Continuity of Care Document")
        #expect(document.patientName == "Isabella Isa Jones")
        #expect(document.authorName == "Dr. Henry Seven")
        #expect(document.custodianName == "Community Health and Hospitals")
        #expect(document.documentData == cda())
        #expect(sample.documentType == cdaType && sample.sampleType == cdaType)
    }

    @Test func documentsThatAreNotCDAAreRefusedWithTheReason() throws {
        func message(_ data: Data) -> String? {
            do { _ = try HKCDADocumentSample(data: data, start: day0, end: day0, metadata: nil); return nil } catch let error as HKError {
                return error.code == .errorInvalidArgument ? error.message : nil
            } catch { return nil }
        }
        #expect(message(cda(custodian: false))?.contains("custodian name") == true)
        #expect(message(Data("<ClinicalDocument xmlns=\"urn:hl7-org:v3\"><title>x</title>".utf8))?.contains("not well-formed XML") == true)
        #expect(message(Data("<html><title>x</title></html>".utf8))?.contains("root element is html") == true)
        #expect(message(Data("<ClinicalDocument><title>x</title></ClinicalDocument>".utf8))?.contains("not CDA") == true)
        #expect(throws: HKError.self) { try HKCDADocumentSample(data: cda(), start: day0, end: day0.addingTimeInterval(-1), metadata: nil) }
    }

    @Test func savedDocumentsComeBackInBatchesWithOrWithoutTheirData() async throws {
        let (store, _, _) = makeStore(.allowAll)
        try await store.requestAuthorization(toShare: [cdaType], read: [cdaType])
        let documents = try (0..<120).map { try document("Visit \($0)", minute: Double($0)) }
        try await store.save(documents)

        let calls = try await documentCalls(store)
        #expect(calls.map(\.titles.count) == [50, 50, 20])
        #expect(calls.map(\.done) == [false, false, true])
        #expect(calls.flatMap(\.titles) == (0..<120).map { "Visit \($0)" })
        #expect(calls.map(\.withData).reduce(0, +) == 120)

        let light = try await documentCalls(store, limit: 3, includeData: false)
        #expect(light.count == 1 && light[0].titles == ["Visit 0", "Visit 1", "Visit 2"] && light[0].withData == 0 && light[0].done)
        let late = HKQuery.predicateForSamples(withStart: day0.addingTimeInterval(118 * 60), end: nil, options: .strictStartDate)
        #expect(try await documentCalls(store, predicate: late).flatMap(\.titles) == ["Visit 118", "Visit 119"])

        // What the store gives back equals what was saved, XML included.
        let back = try #require(try await run(store, type: cdaType, limit: 1).first as? HKCDADocumentSample)
        #expect(back.uuid == documents[0].uuid && back.document?.documentData == documents[0].document?.documentData)
    }

    @Test func nothingMatchingIsOneEmptyCallAndOthersDocumentsNeedReadPermission() async throws {
        let (mine, _, folder) = makeStore(.init(default: .allow, read: [cdaType.identifier: .deny]))
        try await mine.requestAuthorization(toShare: [cdaType], read: [cdaType])
        let none = try await documentCalls(mine)
        #expect(none.count == 1 && none[0].titles.isEmpty && none[0].done)

        var clinic = AppManifest.stepsApp
        clinic.bundleIdentifier = "com.example.clinic"
        let (theirs, _, _) = makeStore(app: clinic, .allowAll, in: folder)
        try await theirs.requestAuthorization(toShare: [cdaType], read: [cdaType])
        try await theirs.save(try document("Their summary", minute: 0))
        try await mine.save(try document("My summary", minute: 1))
        #expect(try await documentCalls(mine).flatMap(\.titles) == ["My summary"])
        #expect(try await documentCalls(theirs).flatMap(\.titles) == ["Their summary", "My summary"])
    }

    @Test func savingNeedsSharePermissionAndDeletingRemovesTheDocument() async throws {
        let (store, _, _) = makeStore(.init(default: .allow, share: [cdaType.identifier: .deny]))
        try await store.requestAuthorization(toShare: [cdaType], read: [cdaType])
        await #expect(throws: HKError.self) { try await store.save(try document("Refused", minute: 0)) }

        let (writer, _, _) = makeStore(.allowAll)
        try await writer.requestAuthorization(toShare: [cdaType], read: [cdaType])
        let kept = try document("Kept", minute: 0)
        try await writer.save(kept)
        try await writer.delete(kept)
        #expect(try await documentCalls(writer).flatMap(\.titles).isEmpty)
        let left = try writer.sampleStore().database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM document")! }
        #expect(left == 0)
    }
}
