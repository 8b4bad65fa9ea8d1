public import Foundation

/// A sample holding an HL7 CDA document (a clinical summary as XML), with the title and names HealthKit reads
/// from it.
///
/// ```swift
/// let sample = try HKCDADocumentSample(data: xml, start: visit, end: visit, metadata: nil)
/// sample.document?.title          // "Continuity of Care Document"
/// try await store.save(sample)    // needs share permission for HKDocumentType(.CDA)
/// ```
///
/// The document must be well-formed XML whose root is `ClinicalDocument` in the `urn:hl7-org:v3` namespace, with a
/// title, a patient name (`recordTarget`), an author name and a custodian organization name; otherwise the
/// initializer throws `errorInvalidArgument` naming what is missing. (HealthKit validates against the full CDA
/// schema; OpenHealthKit checks these parts, which it needs.)
public final class HKCDADocumentSample: HKDocumentSample, @unchecked Sendable {
    /// The document; its `documentData` is `nil` when a document query ran without `includeDocumentData`.
    public let document: HKCDADocument?

    package init(document: HKCDADocument, start: Date, end: Date, uuid: UUID = UUID(), metadata: [String: HKMetadataValue]?,
                 sourceRevision: HKSourceRevision = HKObject.unsavedRevision, device: HKDevice?) {
        self.document = document
        super.init(sampleType: HKDocumentType(.CDA), start: start, end: end, uuid: uuid, metadata: metadata,
                   sourceRevision: sourceRevision, device: device)
    }

    /// A CDA document sample of `documentData` over the interval; throws `HKError(.errorInvalidArgument)` for a
    /// document that is not CDA, an end before the start, or metadata HealthKit does not allow.
    public convenience init(data documentData: Data, start startDate: Date, end endDate: Date, metadata: [String: Any]?) throws {
        try ObjectValidation.checkInterval(start: startDate, end: endDate, of: "a CDA document sample")
        let checked = try MetadataValidation.validate(metadata)
        let document = try CDADocumentParser.parse(documentData)
        self.init(document: document, start: startDate, end: endDate, metadata: checked, device: nil)
    }

    /// The same sample without its document data (what a document query without `includeDocumentData` returns).
    package func withoutDocumentData() -> HKCDADocumentSample {
        guard let document, document.documentData != nil else { return self }
        return HKCDADocumentSample(
            document: HKCDADocument(documentData: nil, title: document.title, patientName: document.patientName,
                                    authorName: document.authorName, custodianName: document.custodianName),
            start: startDate, end: endDate, uuid: uuid, metadata: metadataValues, sourceRevision: sourceRevision, device: device)
    }
}

/// A CDA document: its XML and the title and names read from it.
public final class HKCDADocument: NSObject, Sendable {
    /// The XML, or `nil` when it was not asked for.
    public let documentData: Data?
    public let title: String
    public let patientName: String
    public let authorName: String
    public let custodianName: String

    package init(documentData: Data?, title: String, patientName: String, authorName: String, custodianName: String) {
        self.documentData = documentData
        self.title = title
        self.patientName = patientName
        self.authorName = authorName
        self.custodianName = custodianName
    }
}
