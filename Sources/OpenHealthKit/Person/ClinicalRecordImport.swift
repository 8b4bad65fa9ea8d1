public import Foundation
import HealthExport
import HealthStore

/// What an import of health records did: records added, updated in place (a newer version of the same resource from
/// the same institution) or unchanged, Patient resources kept, and every file or entry left out, with why.
public struct ClinicalRecordImport: Sendable {
    public var added = 0, updated = 0, unchanged = 0, patients = 0, files = 0
    /// Valid resources that make no clinical record (an Observation without a supported category, an Encounter…).
    public var ignored: [Problem] = []
    /// Files and entries that could not be read (malformed JSON, no id, a resourceType FHIR does not have, a Bundle
    /// mixing releases…). Nothing of them was stored.
    public var rejected: [Problem] = []

    /// One file or Bundle entry left out.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        public let file: String
        /// The entry's index in its Bundle (0-based); nil for the file as a whole.
        public let entry: Int?
        public let resourceType: String?
        public let identifier: String?
        public let message: String
        public let description: String

        init(_ issue: ClinicalImportReader.Issue) {
            (file, entry, resourceType, identifier, message) = (issue.file, issue.entry, issue.resourceType, issue.identifier, issue.message)
            description = issue.description
        }
    }
}

extension HealthPerson {
    /// Imports health records: a FHIR resource file, a Bundle, a folder of them, or an Apple Health export (its
    /// folder or `export.xml`, whose `<ClinicalRecord>` rows name each record's institution, version and received
    /// date). Plain FHIR files come from `provider` (the institution's name, and its FHIR base URL when known);
    /// `fhirVersion` ("1.0.2", "4.0.1") says their version when their shape does not. Each institution's resources
    /// are stored in one transaction; a bad file or entry is reported and never half-stored, while the good ones
    /// land. Importing the same records again changes nothing; a changed resource replaces its old version.
    public func importClinicalRecords(at url: URL, provider: String? = nil, providerURL: URL? = nil,
                                      fhirVersion: String? = nil) throws -> ClinicalRecordImport {
        let version = try fhirVersion.map(HKFHIRVersion.init(fromVersionString:))
        let reader = ClinicalImportReader(provider: provider.map { ClinicalProvider(name: $0, url: providerURL) }, version: version)
        return try importClinicalRecords(reader.read(url))
    }

    /// Stores what a clinical import read, one transaction per provider.
    func importClinicalRecords(_ read: ClinicalImportReader.Result) throws -> ClinicalRecordImport {
        var summary = ClinicalRecordImport()
        summary.files = read.files
        summary.ignored = read.ignored.map(ClinicalRecordImport.Problem.init)
        summary.rejected = read.rejected.map(ClinicalRecordImport.Problem.init)
        let store = ClinicalRecordStore(database: database)
        for batch in read.batches {
            let counts = try store.store(batch.resources, from: batch.provider)
            summary.added += counts.added
            summary.updated += counts.updated
            summary.unchanged += counts.unchanged
            summary.patients += counts.patients
        }
        return summary
    }

    /// The person's clinical records, all or of one type, oldest received first.
    public func clinicalRecords(of type: HKClinicalType? = nil) throws -> [HKClinicalRecord] {
        try ClinicalRecordStore(database: database).records(ofType: type)
    }
}
