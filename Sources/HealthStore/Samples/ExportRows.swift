package import Foundation
import GRDB
package import HealthModel

/// One sample as an export writes it: what the store recorded — the value and unit the sample was saved with, its
/// source's name, version and device, its metadata — rather than a rebuilt HealthKit object.
package struct ExportSample: Sendable {
    /// What the sample holds.
    package enum Value: Sendable {
        /// A quantity in the unit it was recorded in (`unit` as `HKUnit.unitString` writes it).
        case quantity(Double, unit: String)
        case category(Int)
        /// A correlation and its members, in the order they were stored.
        case correlation([ExportSample])
        case workout(HKWorkout)
        /// A state of mind (its valence, kind, labels and associations).
        case stateOfMind(HKStateOfMind)
        /// A GAD-7 or PHQ-9 result (its answers and score).
        case scoredAssessment(HKScoredAssessment)
        /// An audiogram (its sensitivity points).
        case audiogram(HKAudiogramSample)
        case visionPrescription(HKVisionPrescription)
        /// A logged dose of a medication the person tracks.
        case medicationDoseEvent(HKMedicationDoseEvent)
    }

    package var uuid: UUID
    package var type: String
    package var value: Value
    package var startDate: Date
    package var endDate: Date
    /// When the sample was saved in the store (the export's `creationDate`).
    package var creationDate: Date
    package var source: HKSource
    package var sourceVersion: String?
    /// The device and its row id (stable per device, so a writer can make the `0x…` of Apple's device strings from it).
    package var device: (id: Int64, device: HKDevice)?
    /// Metadata sorted by key.
    package var metadata: [(key: String, value: HKMetadataValue)]
    /// Child elements kept as they were imported (a heart-rate variability beat list).
    package var extra: String?
    /// A workout's routes.
    package var routes: [ExportRoute] = []

    package init(uuid: UUID, type: String, value: Value, startDate: Date, endDate: Date, creationDate: Date, source: HKSource,
                 sourceVersion: String? = nil, device: (id: Int64, device: HKDevice)? = nil,
                 metadata: [(key: String, value: HKMetadataValue)] = []) {
        self.uuid = uuid
        self.type = type
        self.value = value
        self.startDate = startDate
        self.endDate = endDate
        self.creationDate = creationDate
        self.source = source
        self.sourceVersion = sourceVersion
        self.device = device
        self.metadata = metadata
    }

    /// The value of metadata `key`, if any.
    package func metadataValue(_ key: String) -> HKMetadataValue? { metadata.first { $0.key == key }?.value }
}

/// A workout route as an export writes it: its source, dates and metadata, and its points.
package struct ExportRoute: Sendable {
    package var uuid: UUID
    package var startDate: Date
    package var endDate: Date
    package var creationDate: Date
    package var source: HKSource
    package var sourceVersion: String?
    package var device: (id: Int64, device: HKDevice)?
    package var metadata: [(key: String, value: HKMetadataValue)]
    package var locations: [CLLocation]
}

/// A clinical record or a FHIR Patient as an export lists it: its institution (source) and its FHIR resource.
package struct ExportClinicalResource: Sendable {
    /// The sample's UUID for a record; for a Patient (not a sample), one made from its institution and id.
    package var uuid: UUID?
    package var sourceName: String
    package var resourceType: String
    package var identifier: String
    package var fhirVersion: String
    package var sourceURL: String?
    package var receivedDate: Date
    package var data: Data

    package init(uuid: UUID?, sourceName: String, resourceType: String, identifier: String, fhirVersion: String, sourceURL: String?,
                 receivedDate: Date, data: Data) {
        self.uuid = uuid
        self.sourceName = sourceName
        self.resourceType = resourceType
        self.identifier = identifier
        self.fhirVersion = fhirVersion
        self.sourceURL = sourceURL
        self.receivedDate = receivedDate
        self.data = data
    }
}

/// Reads a whole store for an export, in one snapshot and in constant memory: samples come in batches by keyset
/// pagination on their row id (`id > last ORDER BY id LIMIT n`, never `OFFSET`), each batch decoded with the store's
/// own row types, its metadata read in one query and its devices and sources once each.
///
/// The order is the export's: characteristics, then Records and Correlations (a correlation's members are also
/// Records of their own, as Apple writes them), then Workouts, activity summaries, and clinical records.
package struct ExportRows: Sendable {
    /// What the reader hands over, part by part.
    package struct Sink {
        /// The characteristics the person set, by type, as the store keeps them (raw values, `yyyy-MM-dd`).
        package var characteristics: ([HKCharacteristicTypeIdentifier: String]) throws -> Void
        /// A batch of quantity, category and correlation samples, states of mind and scored assessments, in store order.
        package var samples: ([ExportSample]) throws -> Void
        /// A batch of workouts.
        package var workouts: ([ExportSample]) throws -> Void
        package var activitySummaries: ([HKActivitySummary]) throws -> Void
        /// A batch of clinical records and FHIR Patients.
        package var clinicalResources: ([ExportClinicalResource]) throws -> Void
        /// The medications the person tracks, in the order they were added (before any sample: their doses name them).
        package var medications: ([HKUserAnnotatedMedication]) throws -> Void = { _ in }

        package init(characteristics: @escaping ([HKCharacteristicTypeIdentifier: String]) throws -> Void,
                     samples: @escaping ([ExportSample]) throws -> Void, workouts: @escaping ([ExportSample]) throws -> Void,
                     activitySummaries: @escaping ([HKActivitySummary]) throws -> Void,
                     clinicalResources: @escaping ([ExportClinicalResource]) throws -> Void,
                     medications: @escaping ([HKUserAnnotatedMedication]) throws -> Void = { _ in }) {
            self.medications = medications
            self.characteristics = characteristics
            self.samples = samples
            self.workouts = workouts
            self.activitySummaries = activitySummaries
            self.clinicalResources = clinicalResources
        }
    }

    /// How many samples of each type the store holds that an export leaves out: documents (export.xml has no element
    /// for them) and routes that belong to no workout.
    package struct Counts: Sendable {
        package var notExported: [String: Int] = [:]
    }

    let database: HealthDatabase
    let batchSize: Int

    package init(database: HealthDatabase, batchSize: Int = 2_000) {
        self.database = database
        self.batchSize = max(batchSize, 1)
    }

    /// How many samples an export writes as Records, Correlations and Workouts (for progress).
    package func sampleCount() throws -> Int {
        try database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sample WHERE kind IN (?, ?, ?, ?, ?, ?, ?, ?, ?)", arguments: [
                SampleKind.quantity.rawValue, SampleKind.category.rawValue, SampleKind.correlation.rawValue, SampleKind.workout.rawValue,
                SampleKind.stateOfMind.rawValue, SampleKind.scoredAssessment.rawValue, SampleKind.audiogram.rawValue,
                SampleKind.visionPrescription.rawValue, SampleKind.medicationDoseEvent.rawValue,
            ]) ?? 0
        }
    }

    /// Reads everything, in the export's order, inside one read transaction (a consistent snapshot while saves go on).
    @discardableResult
    package func read(into sink: Sink) throws -> Counts {
        try database.read { db in
            var reader = BatchReader(db: db)
            var characteristics: [HKCharacteristicTypeIdentifier: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT type, value FROM characteristic") {
                characteristics[HKCharacteristicTypeIdentifier(rawValue: row["type"])] = row["value"]
            }
            try sink.characteristics(characteristics)
            try sink.medications(try Row.fetchAll(db, sql: "SELECT * FROM medication ORDER BY addedAt, rowid")
                .map { try SampleStore.trackedMedication(from: $0).medication })

            let recordKinds = [SampleKind.quantity, .category, .correlation, .stateOfMind, .scoredAssessment, .audiogram, .visionPrescription,
                               .medicationDoseEvent].map { String($0.rawValue) }.joined(separator: ", ")
            // Correlation members are linked to their correlation, yet are Records of their own at the top level too.
            try paginate("SELECT * FROM sample WHERE kind IN (\(recordKinds))", db: db) { rows in
                try sink.samples(try reader.samples(rows))
            }
            try paginate("SELECT * FROM sample WHERE kind = \(SampleKind.workout.rawValue)", db: db) { rows in
                try sink.workouts(try reader.samples(rows))
            }

            var lastDay = ""
            while true {
                let rows = try Row.fetchAll(db, sql: "SELECT * FROM activitySummary WHERE day > ? ORDER BY day LIMIT ?",
                                            arguments: [lastDay, batchSize])
                guard let last = rows.last else { break }
                lastDay = last["day"]
                try sink.activitySummaries(try rows.map(ActivitySummaryStore.summary(from:)))
            }

            var lastPatient: (Int64, String) = (Int64.min, "")
            while true {
                let rows = try Row.fetchAll(db, sql: """
                    SELECT fhirPatient.*, source.name AS sourceName FROM fhirPatient JOIN source ON source.id = fhirPatient.sourceId
                    WHERE (fhirPatient.sourceId, fhirPatient.identifier) > (?, ?)
                    ORDER BY fhirPatient.sourceId, fhirPatient.identifier LIMIT ?
                    """, arguments: [lastPatient.0, lastPatient.1, batchSize])
                guard let last = rows.last else { break }
                lastPatient = (last["sourceId"], last["identifier"])
                try sink.clinicalResources(rows.map { row in
                    ExportClinicalResource(uuid: nil, sourceName: row["sourceName"], resourceType: "Patient", identifier: row["identifier"],
                                           fhirVersion: row["fhirVersion"], sourceURL: row["sourceURL"],
                                           receivedDate: Date(timeIntervalSinceReferenceDate: row["receivedDate"]), data: row["data"])
                })
            }
            try paginate("SELECT * FROM sample WHERE kind = \(SampleKind.clinicalRecord.rawValue)", db: db) { rows in
                try sink.clinicalResources(try reader.clinicalResources(rows))
            }

            var counts = Counts()
            let exported = [SampleKind.quantity, .category, .correlation, .workout, .clinicalRecord, .stateOfMind, .scoredAssessment, .audiogram,
                            .visionPrescription, .medicationDoseEvent].map(\.rawValue)
            // Routes go with their workouts; one without a workout has no place in export.xml. A heartbeat series goes out
            // as the beat list of the heart-rate variability record it came with (same source and dates); one an app built
            // alone has no place there either. Electrocardiograms go out as the CSV files they came from.
            let variability = SampleTypeCode.code(HKQuantityTypeIdentifier.heartRateVariabilitySDNN.rawValue)
            for row in try Row.fetchAll(db, sql: """
                SELECT typeCode, COUNT(*) AS n FROM sample WHERE kind NOT IN (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, \(SampleKind.electrocardiogram.rawValue))
                AND NOT (kind = \(SampleKind.route.rawValue) AND id IN (SELECT sampleId FROM workoutAssociation))
                AND NOT (kind = \(SampleKind.heartbeatSeries.rawValue) AND EXISTS (
                    SELECT 1 FROM sample h WHERE h.typeCode = \(variability) AND h.startDate = sample.startDate
                    AND h.endDate = sample.endDate AND h.sourceId = sample.sourceId))
                GROUP BY typeCode
                """,
                                        arguments: StatementArguments(exported)) {
                let code: Int64 = row["typeCode"]
                counts.notExported[SampleTypeCode.identifier(code) ?? "type \(code)"] = row["n"]
            }
            return counts
        }
    }

    /// Runs `query` (a `SELECT * FROM sample WHERE …`) a batch at a time, by row id.
    private func paginate(_ query: String, db: Database, _ body: ([SampleRecord]) throws -> Void) throws {
        var last = Int64.min
        while true {
            // Decoded straight from the statement (a copied row looks each column up by a lowercased linear search).
            let rows = try SampleRecord.fetchAll(db, sql: "\(query) AND id > ? ORDER BY id LIMIT ?", arguments: [last, batchSize])
            guard let lastRow = rows.last, let id = lastRow.id else { break }
            last = id
            try body(rows)
        }
    }

    /// Decodes batches of rows, with the sources and devices it has read kept for the next batches (a store has few).
    private struct BatchReader {
        let db: Database
        var sources: [Int64: HKSource] = [:]
        var devices: [Int64: HKDevice] = [:]

        init(db: Database) {
            self.db = db
        }

        mutating func source(_ id: Int64) throws -> HKSource {
            if let known = sources[id] { return known }
            guard let record = try SourceRecord.fetchOne(db, key: id) else {
                throw HKError(.errorDatabaseInaccessible, "the store holds a sample whose source (\(id)) is missing")
            }
            let source = HKSource(name: record.name, bundleIdentifier: record.bundleIdentifier)
            sources[id] = source
            return source
        }

        mutating func device(_ id: Int64?) throws -> (id: Int64, device: HKDevice)? {
            guard let id else { return nil }
            if let known = devices[id] { return (id, known) }
            guard let device = try DeviceRecord.fetchOne(db, key: id)?.device else { return nil }
            devices[id] = device
            return (id, device)
        }

        /// The metadata of these samples, in one query.
        func metadata(of ids: [Int64]) throws -> [Int64: [(key: String, value: HKMetadataValue)]] {
            guard !ids.isEmpty else { return [:] }
            var byId: [Int64: [(key: String, value: HKMetadataValue)]] = [:]
            let records = try MetadataRecord.fetchAll(db, sql: "SELECT * FROM metadata WHERE sampleId IN (SELECT value FROM json_each(?))",
                                                      arguments: ["[" + ids.map(String.init).joined(separator: ",") + "]"])
            for record in records {
                byId[record.sampleId, default: []].append((record.key, try record.value()))
            }
            for id in byId.keys { byId[id]!.sort { $0.key < $1.key } }
            return byId
        }

        mutating func samples(_ rows: [SampleRecord]) throws -> [ExportSample] {
            let correlationIds = rows.filter { $0.kind == .correlation }.compactMap(\.id)
            var members: [Int64: [SampleRecord]] = [:]
            if !correlationIds.isEmpty {
                for member in try SampleRecord.fetchAll(db, sql: "SELECT * FROM sample WHERE correlationId IN (SELECT value FROM json_each(?)) ORDER BY id",
                                                        arguments: ["[" + correlationIds.map(String.init).joined(separator: ",") + "]"]) {
                    members[member.correlationId!, default: []].append(member)
                }
            }
            let ids = rows.compactMap(\.id)
            let metadata = try self.metadata(of: ids + members.values.joined().compactMap(\.id))
            var extras: [Int64: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT sampleId, xml FROM sampleExtra WHERE sampleId IN (SELECT value FROM json_each(?))",
                                        arguments: ["[" + ids.map(String.init).joined(separator: ",") + "]"]) {
                extras[row[0]] = row[1]
            }
            let routes = try self.routes(ofWorkouts: rows.filter { $0.kind == .workout }.compactMap(\.id))
            return try rows.map { row in
                var made = try sample(row, members: members, metadata: metadata)
                made.extra = row.id.flatMap { extras[$0] }
                made.routes = row.id.flatMap { routes[$0] } ?? []
                return made
            }
        }

        /// The routes associated with these workouts, with their points, by workout row id.
        mutating func routes(ofWorkouts ids: [Int64]) throws -> [Int64: [ExportRoute]] {
            guard !ids.isEmpty else { return [:] }
            let rows = try Row.fetchAll(db, sql: """
                SELECT a.workoutId, s.* FROM workoutAssociation a JOIN sample s ON s.id = a.sampleId
                WHERE a.workoutId IN (SELECT value FROM json_each(?)) AND s.kind = ? ORDER BY s.startDate, s.id
                """, arguments: ["[" + ids.map(String.init).joined(separator: ",") + "]", SampleKind.route.rawValue])
            let metadata = try self.metadata(of: rows.map { $0["id"] })
            var byWorkout: [Int64: [ExportRoute]] = [:]
            for row in rows {
                let id: Int64 = row["id"]
                guard let uuid = UUID(uuidString: row["uuid"]) else { continue }
                let locations = try Row.fetchAll(db, sql: "SELECT * FROM routeLocation WHERE sampleId = ? ORDER BY position", arguments: [id])
                    .map(SampleStore.location)
                byWorkout[row["workoutId"], default: []].append(ExportRoute(
                    uuid: uuid, startDate: Date(timeIntervalSinceReferenceDate: row["startDate"]),
                    endDate: Date(timeIntervalSinceReferenceDate: row["endDate"]), creationDate: Date(timeIntervalSinceReferenceDate: row["savedAt"]),
                    source: try source(row["sourceId"]), sourceVersion: row["sourceVersion"], device: try device(row["deviceId"]),
                    metadata: metadata[id] ?? [], locations: locations))
            }
            return byWorkout
        }

        mutating func sample(_ row: SampleRecord, members: [Int64: [SampleRecord]],
                             metadata: [Int64: [(key: String, value: HKMetadataValue)]]) throws -> ExportSample {
            guard let id = row.id, let uuid = UUID(uuidString: row.uuid) else {
                throw HKError(.errorDatabaseInaccessible, "the store holds a sample row it cannot read (type \(row.type))")
            }
            let source = try self.source(row.sourceId)
            let device = try self.device(row.deviceId)
            let begins = Date(timeIntervalSinceReferenceDate: row.startDate), ends = Date(timeIntervalSinceReferenceDate: row.endDate)
            // What the kinds written as HealthKit objects need (made only for them: records are most rows).
            func revision() -> HKSourceRevision {
                HKSourceRevision(source: source, version: row.sourceVersion, productType: row.productType,
                                 operatingSystemVersion: SampleStore.parse(row.osVersion))
            }
            func values() -> [String: HKMetadataValue]? {
                let entries = metadata[id] ?? []
                return entries.isEmpty ? nil : Dictionary(entries, uniquingKeysWith: { $1 })
            }
            let value: ExportSample.Value
            switch row.kind {
            case .quantity:
                value = .quantity(row.originalValue ?? 0, unit: row.unit ?? "")
            case .category:
                value = .category(storedInteger(row.value ?? 0))
            case .correlation:
                value = .correlation(try (members[id] ?? []).map { try sample($0, members: [:], metadata: metadata) })
            case .workout:
                value = .workout(try WorkoutStorage.workout(row: row, metadata: values(), revision: revision(), device: device?.device, in: db))
            case .stateOfMind:
                value = .stateOfMind(try SampleStore.stateOfMind(sampleId: id, date: begins, valence: row.value ?? 0, uuid: uuid, metadata: values(),
                                                                 revision: revision(), device: device?.device, in: db))
            case .scoredAssessment:
                guard let type = HKObjectType.type(forIdentifier: row.type) as? HKScoredAssessmentType else {
                    throw HKError(.errorDatabaseInaccessible, "the store holds a scored assessment of type \(row.type)")
                }
                value = .scoredAssessment(try SampleStore.assessment(sampleId: id, type: type, date: begins, uuid: uuid, metadata: values(),
                                                                     revision: revision(), device: device?.device, in: db))
            case .audiogram:
                value = .audiogram(try SampleStore.audiogram(sampleId: id, start: begins, end: ends, uuid: uuid, metadata: values(),
                                                             revision: revision(), device: device?.device, in: db))
            case .visionPrescription:
                value = .visionPrescription(try SampleStore.prescription(sampleId: id, start: begins, end: ends, uuid: uuid, metadata: values(),
                                                                         revision: revision(), device: device?.device, in: db))
            case .medicationDoseEvent:
                value = .medicationDoseEvent(try SampleStore.doseEvent(sampleId: id, start: begins, end: ends, uuid: uuid, metadata: values(),
                                                                       revision: revision(), device: device?.device, in: db))
            case .document, .clinicalRecord, .route, .heartbeatSeries, .electrocardiogram:
                throw HKError(.errorDatabaseInaccessible, "a \(row.type) sample is not a Record of an export")
            }
            return ExportSample(uuid: uuid, type: row.type, value: value, startDate: begins, endDate: ends,
                                creationDate: Date(timeIntervalSinceReferenceDate: row.savedAt), source: source,
                                sourceVersion: row.sourceVersion, device: device, metadata: metadata[id] ?? [])
        }

        mutating func clinicalResources(_ rows: [SampleRecord]) throws -> [ExportClinicalResource] {
            try rows.map { row in
                guard let id = row.id, let uuid = UUID(uuidString: row.uuid),
                      let type = HKObjectType.type(forIdentifier: row.type) as? HKClinicalType else {
                    throw HKError(.errorDatabaseInaccessible, "the store holds a clinical record row it cannot read (type \(row.type))")
                }
                let source = try self.source(row.sourceId)
                let received = Date(timeIntervalSinceReferenceDate: row.startDate)
                let record = try ClinicalRecordStore.record(sampleId: id, type: type, uuid: uuid, received: received,
                                                            revision: HKSourceRevision(source: source, version: nil), in: db)
                guard let resource = record.fhirResource else {
                    throw HKError(.errorDatabaseInaccessible, "the store holds clinical record \(uuid) without its FHIR resource")
                }
                return ExportClinicalResource(uuid: uuid, sourceName: source.name, resourceType: resource.resourceType.rawValue,
                                              identifier: resource.identifier, fhirVersion: resource.fhirVersion.stringRepresentation,
                                              sourceURL: resource.sourceURL?.absoluteString, receivedDate: received, data: resource.data)
            }
        }
    }
}
