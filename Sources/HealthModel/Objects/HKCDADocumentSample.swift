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
///
/// `NSSecureCoding`, as HealthKit's: the document (its data when it was read, its title and names) comes back with
/// the sample.
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

    // MARK: NSSecureCoding

    private static let documentKey = "document"

    public override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encodeIfPresent(document, forKey: HKCDADocumentSample.documentKey)
    }

    public required convenience init?(coder: NSCoder) {
        guard case let (sample, document)? = coder.decodeValid("HKCDADocumentSample", {
            (try CodedSampleFields(coder: coder), try coder.decode(HKCDADocument.self, forKey: HKCDADocumentSample.documentKey))
        }) else { return nil }
        self.init(document: document, start: sample.start, end: sample.end, uuid: sample.object.uuid, metadata: sample.object.metadata,
                  sourceRevision: sample.object.sourceRevision, device: sample.object.device)
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

/// A CDA document: its XML and the title and names read from it. `NSSecureCoding` (every field) and `NSCopying`
/// (the document itself).
public final class HKCDADocument: NSObject, NSSecureCoding, NSCopying, Sendable {
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

    // MARK: NSSecureCoding, NSCopying

    private enum Key {
        static let documentData = "documentData"
        static let title = "title"
        static let patientName = "patientName"
        static let authorName = "authorName"
        static let custodianName = "custodianName"
    }

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        coder.encodeIfPresent(documentData, forKey: Key.documentData)
        coder.encode(title, forKey: Key.title)
        coder.encode(patientName, forKey: Key.patientName)
        coder.encode(authorName, forKey: Key.authorName)
        coder.encode(custodianName, forKey: Key.custodianName)
    }

    public required convenience init?(coder: NSCoder) {
        guard case let (data, title, patient, author, custodian)? = coder.decodeValid("HKCDADocument", {
            (try coder.decodeIfPresent(Data.self, forKey: Key.documentData), try coder.decode(String.self, forKey: Key.title),
             try coder.decode(String.self, forKey: Key.patientName), try coder.decode(String.self, forKey: Key.authorName),
             try coder.decode(String.self, forKey: Key.custodianName))
        }) else { return nil }
        self.init(documentData: data, title: title, patientName: patient, authorName: author, custodianName: custodian)
    }

    /// Documents are immutable: a copy is the document itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }
}
