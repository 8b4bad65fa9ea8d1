package import Foundation
import GRDB
package import HealthModel

/// An institution the person connected, whose FHIR resources become clinical records. It is their source: shown like
/// an app, with a bundle identifier `healthrecords.<name in lowercase, letters and digits joined by dashes>`.
package struct ClinicalProvider: Sendable, Hashable {
    package let name: String
    /// The FHIR base URL, when known.
    package let url: URL?

    package init(name: String, url: URL?) {
        self.name = name
        self.url = url
    }

    package var source: HKSource {
        let slug = name.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber) || !$0.isASCII }).joined(separator: "-")
        return HKSource(name: name, bundleIdentifier: "healthrecords." + (slug.isEmpty ? "provider" : slug))
    }
}

/// One FHIR resource read from an import, ready to store: a clinical record or a Patient.
package struct ClinicalResource: Sendable {
    package let resourceType: String
    package let identifier: String
    package let version: HKFHIRVersion
    package let data: Data
    package let sourceURL: URL?
    /// When the record was received (its sample dates).
    package let received: Date
    /// `.record` or `.patient` (ignored resources never reach the store).
    package let outcome: FHIRResourceReader.Outcome

    package init(resourceType: String, identifier: String, version: HKFHIRVersion, data: Data, sourceURL: URL?, received: Date,
                 outcome: FHIRResourceReader.Outcome) {
        self.resourceType = resourceType
        self.identifier = identifier
        self.version = version
        self.data = data
        self.sourceURL = sourceURL
        self.received = received
        self.outcome = outcome
    }
}

/// Clinical records in the store, written only by the person's imports. A record is identified by (source,
/// resource type, FHIR id): importing a changed resource replaces the old sample — a tombstone for the old object,
/// a new object for the new version, so anchored queries report the change — and importing the same one again
/// changes nothing.
package struct ClinicalRecordStore: Sendable {
    let samples: SampleStore

    package init(database: HealthDatabase) {
        samples = SampleStore(database: database)
    }

    /// What one `store` call did.
    package struct Counts: Sendable, Equatable {
        package var added = 0, updated = 0, unchanged = 0, patients = 0
        package init() {}
    }

    /// Stores `resources` from `provider` in one transaction.
    package func store(_ resources: [ClinicalResource], from provider: ClinicalProvider) throws -> Counts {
        var touched = Set<String>()
        let counts = try samples.write { db -> Counts in
            var counts = Counts()
            let sourceId = try SampleStore.sourceId(for: provider.source, in: db, create: true)!
            try db.execute(sql: """
                INSERT INTO clinicalProvider (sourceId, url) VALUES (?, ?)
                ON CONFLICT (sourceId) DO UPDATE SET url = IFNULL(excluded.url, url)
                """, arguments: [sourceId, provider.url?.absoluteString])
            let now = Date().timeIntervalSinceReferenceDate
            for resource in resources {
                switch resource.outcome {
                case .patient(let name):
                    try db.execute(sql: """
                        INSERT INTO fhirPatient (sourceId, identifier, fhirVersion, sourceURL, name, receivedDate, data) VALUES (?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (sourceId, identifier) DO UPDATE SET fhirVersion = excluded.fhirVersion, sourceURL = excluded.sourceURL,
                            name = excluded.name, receivedDate = excluded.receivedDate, data = excluded.data
                        """, arguments: [sourceId, resource.identifier, resource.version.stringRepresentation, resource.sourceURL?.absoluteString,
                                         name, resource.received.timeIntervalSinceReferenceDate, resource.data])
                    counts.patients += 1
                case .record(let type, let displayName):
                    if let existing = try Row.fetchOne(db, sql: """
                        SELECT sampleId, fhirVersion, data FROM clinicalRecord WHERE sourceId = ? AND resourceType = ? AND identifier = ?
                        """, arguments: [sourceId, resource.resourceType, resource.identifier]) {
                        if existing["data"] as Data == resource.data, existing["fhirVersion"] as String == resource.version.stringRepresentation {
                            counts.unchanged += 1
                            continue
                        }
                        let old = try SampleRecord.fetchOne(db, key: existing["sampleId"] as Int64)!
                        try samples.tombstone(old, at: now, in: db, touched: &touched)
                        _ = try old.delete(db)
                        counts.updated += 1
                    } else {
                        counts.added += 1
                    }
                    let received = resource.received.timeIntervalSinceReferenceDate
                    var row = SampleRecord(
                        id: nil, uuid: UUID().uuidString, type: type.rawValue, kind: .clinicalRecord, startDate: received, endDate: received,
                        value: nil, originalValue: nil, unit: nil, count: 1, sourceId: sourceId, sourceVersion: nil, productType: nil,
                        osVersion: nil, deviceId: nil, correlationId: nil, savedAt: now)
                    try row.insert(db)
                    try db.execute(sql: """
                        INSERT INTO clinicalRecord (sampleId, sourceId, resourceType, identifier, fhirVersion, sourceURL, displayName, data)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """, arguments: [row.id!, sourceId, resource.resourceType, resource.identifier, resource.version.stringRepresentation,
                                         resource.sourceURL?.absoluteString, displayName, resource.data])
                    touched.insert(type.rawValue)
                case .ignored:
                    continue
                }
            }
            return counts
        }
        samples.changes.post(touched)
        return counts
    }

    /// The clinical record of sample `sampleId`.
    static func record(sampleId: Int64, type: HKClinicalType, uuid: UUID, received: Date, revision: HKSourceRevision,
                       in db: Database) throws -> HKClinicalRecord {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM clinicalRecord WHERE sampleId = ?", arguments: [sampleId]),
              let version = try? HKFHIRVersion(fromVersionString: row["fhirVersion"]) else {
            throw HKError(.errorDatabaseInaccessible, "the store holds clinical record \(uuid) without its FHIR resource")
        }
        let resource = HKFHIRResource(resourceType: HKFHIRResourceType(rawValue: row["resourceType"]), identifier: row["identifier"],
                                      data: row["data"], sourceURL: (row["sourceURL"] as String?).flatMap(URL.init(string:)),
                                      fhirVersion: version)
        return HKClinicalRecord(type: type, displayName: row["displayName"], fhirResource: resource, received: received, uuid: uuid,
                                sourceRevision: revision)
    }
}

extension ClinicalRecordStore {
    /// Every clinical record, or those of `type`, in received order — the person's view (no app filter).
    package func records(ofType type: HKClinicalType? = nil) throws -> [HKClinicalRecord] {
        try samples.database.read { db in
            // By type code, so the (typeCode, startDate) index finds them: `kind` has no index, and a year of samples
            // would be read to find none.
            let codes = type.map { [SampleTypeCode.code($0.identifier)] } ?? HKClinicalTypeIdentifier.catalogConstants.map { SampleTypeCode.code($0.value.rawValue) }
            let condition: SQL = "typeCode IN \(codes)"
            let rows = try SampleRecord.fetchAll(db, SQLRequest<SampleRecord>("SELECT * FROM sample WHERE \(condition) ORDER BY startDate, id"))
            return try SampleStore.samples(from: rows, in: db).compactMap { $0 as? HKClinicalRecord }
        }
    }
}
