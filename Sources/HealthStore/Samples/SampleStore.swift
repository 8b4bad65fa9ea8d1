package import Foundation
import GRDB
package import HealthModel

/// Saving, deleting and reading samples, with HealthKit's rules: an app writes only types it may share,
/// deletes only its own objects, reads others' data only with read permission, and nothing is written in
/// guest mode. A batch is saved whole or not at all.
package struct SampleStore: Sendable {
    package let database: HealthDatabase
    package let authorization: AuthorizationService

    package init(database: HealthDatabase) {
        self.database = database
        self.authorization = AuthorizationService(database: database)
    }

    // MARK: - Save

    /// Saves `objects` as `app`, stamping each with the app's source revision. All or nothing.
    package func save(_ objects: [HKObject], app: AppManifest) throws {
        guard !objects.isEmpty else { return }
        if try authorization.isGuestMode() {
            throw HKError(.errorNotPermissibleForGuestUserMode, "saving is not permitted in guest mode")
        }
        var seen = Set<UUID>()
        for object in objects {
            guard seen.insert(object.uuid).inserted else {
                throw HKError.invalidArgument("the batch holds object \(object.uuid) twice")
            }
        }
        for case let sample as HKSample in objects where Self.workoutEffortTypes.contains(sample.sampleType.identifier) {
            throw HKError.invalidArgument(
                "a workout effort score (\(sample.uuid)) is saved by relating it to its workout: relateWorkoutEffortSample(_:with:activity:)")
        }
        try checkShare(objects, app: app)
        let revision = SampleStore.revision(for: app)
        try write { db in
            let sourceId = try SampleStore.sourceId(for: revision.source, in: db, create: true)!
            try SampleStore.recordSpans(objects, in: db)
            let now = Date().timeIntervalSinceReferenceDate
            for object in objects {
                try insert(object, sourceId: sourceId, revision: revision, correlationId: nil, savedAt: now, in: db)
            }
        }
        changes.post(Set(objects.flatMap { object -> [String] in
            guard let sample = object as? HKSample else { return [] }
            return [sample.sampleType.identifier] + ((sample as? HKCorrelation)?.objects.map(\.sampleType.identifier) ?? [])
        }))
    }

    /// Adds samples on the person's behalf (an import, generated data): each keeps the source revision it carries
    /// (Apple Watch, iPhone, the Health app, other apps), and no app's permission is consulted. All or nothing.
    package func importSamples(_ objects: [HKObject]) throws {
        guard !objects.isEmpty else { return }
        try write { db in
            var sourceIds: [String: Int64] = [:]
            try SampleStore.recordSpans(objects, in: db)
            let now = Date().timeIntervalSinceReferenceDate
            let cache = InsertCache()
            for object in objects {
                let revision = object.sourceRevision
                let sourceId: Int64
                if let known = sourceIds[revision.source.bundleIdentifier] {
                    sourceId = known
                } else {
                    sourceId = try SampleStore.sourceId(for: revision.source, in: db, create: true)!
                    sourceIds[revision.source.bundleIdentifier] = sourceId
                }
                try insert(object, sourceId: sourceId, revision: revision, correlationId: nil, savedAt: now, in: db, cache: cache)
            }
        }
        changes.post(Set(objects.compactMap { ($0 as? HKSample)?.sampleType.identifier }))
    }

    /// Where long-running queries hear about this store's saves and deletes.
    package var changes: StoreChanges { StoreChanges.for(database.directory) }

    /// The share check: each object's type (for a correlation, each member's type) must be allowed.
    /// Each distinct type is looked up once per batch.
    private func checkShare(_ objects: [HKObject], app: AppManifest) throws {
        var types = Set<HKSampleType>()
        for object in objects {
            switch object {
            case let correlation as HKCorrelation: types.formUnion(correlation.objects.map(\.sampleType))
            case let sample as HKQuantitySample: types.insert(sample.sampleType)
            case let sample as HKCategorySample: types.insert(sample.sampleType)
            case let workout as HKWorkout: types.insert(workout.sampleType)
            case let record as HKClinicalRecord:
                throw HKError(.errorAuthorizationDenied,
                              "clinical records are read-only: apps cannot save or delete them (\(record.clinicalType.identifier) \(record.uuid))")
            case let document as HKCDADocumentSample:
                guard document.document?.documentData != nil else {
                    throw HKError.invalidArgument("CDA document sample \(document.uuid) has no document data to save")
                }
                types.insert(document.sampleType)
            case let ecg as HKElectrocardiogram:
                throw HKError(.errorAuthorizationDenied,
                              "electrocardiograms are read-only: only the person's ECG recordings come into the store (\(ecg.uuid))")
            case let sample as HKSample where sample is HKStateOfMind || sample is HKAudiogramSample || sample is HKScoredAssessment
                                             || sample is HKVisionPrescription:
                // Checked whole by their initializers (which throw or stop the program, as HealthKit's raise) and by their
                // archives' decoding, as category samples are.
                types.insert(sample.sampleType)
            case let dose as HKMedicationDoseEvent:
                throw HKError(.errorAuthorizationDenied,
                              "medication dose events are read-only: the person logs them in the Health app (\(dose.uuid))")
            case let series as HKHeartbeatSeriesSample:
                guard series.beats != nil else {
                    throw HKError.invalidArgument("heartbeat series \(series.uuid) carries no beats; build it with HKHeartbeatSeriesBuilder")
                }
                types.insert(series.sampleType)
            case let sample as HKSample:
                throw HKError.invalidArgument("saving \(sample.sampleType.identifier) objects is not supported by this store yet")
            default:
                throw HKError.invalidArgument("\(Swift.type(of: object)) objects cannot be saved")
            }
        }
        for type in types { try checkShare(type: type, app: app) }
    }

    func checkShare(type: HKSampleType, app: AppManifest) throws {
        // A read-only store refuses writes as such, before any permission: nothing could be saved whatever was granted.
        guard !database.isReadOnly else { throw database.readOnlyError }
        switch try authorization.shareStatus(app: app.bundleIdentifier, type: type.identifier) {
        case .sharingAuthorized: return
        case .sharingDenied:
            throw HKError(.errorAuthorizationDenied, "\(app.bundleIdentifier) is not allowed to save \(type.identifier)")
        case .notDetermined:
            throw HKError(.errorAuthorizationNotDetermined,
                          "\(app.bundleIdentifier) has not been given permission to save \(type.identifier); request authorization first")
        }
    }

    /// Keeps `typeSpan` (each type's longest sample) up to date with a batch about to be inserted.
    static func recordSpans(_ objects: [HKObject], in db: Database) throws {
        var longest: [String: Double] = [:]
        func note(_ sample: HKSample) {
            let duration = sample.endDate.timeIntervalSince(sample.startDate)
            longest[sample.sampleType.identifier] = max(longest[sample.sampleType.identifier] ?? 0, duration)
        }
        for case let sample as HKSample in objects {
            note(sample)
            for member in (sample as? HKCorrelation)?.objects ?? [] { note(member) }
        }
        let upsert = try db.cachedStatement(sql: """
            INSERT INTO typeSpan (type, maxDuration) VALUES (?, ?)
            ON CONFLICT (type) DO UPDATE SET maxDuration = MAX(maxDuration, excluded.maxDuration)
            """)
        for (type, duration) in longest { try upsert.execute(arguments: [type, duration]) }
    }

    /// Device rows already looked up, for a batch of inserts (devices repeat on every sample of a source).
    final class InsertCache {
        var devices: [HKDevice: Int64] = [:]
    }

    func insert(
        _ object: HKObject, sourceId: Int64, revision: HKSourceRevision, correlationId: Int64?, savedAt: Double, in db: Database,
        cache: InsertCache? = nil
    ) throws {
        guard let sample = object as? HKSample else { return }
        var deviceId: Int64?
        if let device = sample.device {
            if let known = cache?.devices[device] {
                deviceId = known
            } else {
                deviceId = try SampleStore.deviceId(for: device, in: db)
                cache?.devices[device] = deviceId
            }
        }
        var kind = SampleKind.category, value: Double?, originalValue: Double?, unit: String?, count = 1
        switch sample {
        case let q as HKQuantitySample:
            kind = .quantity
            value = try q.quantity.unit.toBase(q.quantity.doubleValue)
            originalValue = q.quantity.doubleValue
            unit = q.quantity.unit.unitString
            count = q.count
        case let c as HKCategorySample:
            value = Double(c.value)
        case is HKCorrelation:
            kind = .correlation
        case is HKWorkout:
            kind = .workout
        case is HKCDADocumentSample:
            kind = .document
        case let route as HKWorkoutRoute:
            kind = .route
            count = route.count
        case let series as HKHeartbeatSeriesSample:
            kind = .heartbeatSeries
            count = series.count
        case let ecg as HKElectrocardiogram:
            kind = .electrocardiogram
            count = ecg.numberOfVoltageMeasurements
        case let state as HKStateOfMind:
            kind = .stateOfMind
            value = state.valence
        case let audiogram as HKAudiogramSample:
            kind = .audiogram
            count = audiogram.sensitivityPoints.count
        case let assessment as HKScoredAssessment:
            kind = .scoredAssessment
            value = Double(assessment.score)
        case let prescription as HKVisionPrescription:
            kind = .visionPrescription
            value = Double(prescription.prescriptionType.rawValue)
        case let dose as HKMedicationDoseEvent:
            kind = .medicationDoseEvent
            value = Double(dose.logStatus.rawValue)
        default:
            break
        }
        // A cached statement with positional arguments: the save and import paths' hottest line.
        let statement = try db.cachedStatement(sql: """
            INSERT INTO sample (uuid, typeCode, kind, startDate, endDate, value, originalValue, unit, count, sourceId, sourceVersion,
                                productType, osVersion, deviceId, correlationId, savedAt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        do {
            try statement.execute(arguments: [
                sample.uuid.uuidString, SampleTypeCode.code(sample.sampleType.identifier), kind.rawValue, sample.startDate.timeIntervalSinceReferenceDate,
                sample.endDate.timeIntervalSinceReferenceDate, value, originalValue, unit, count, sourceId, revision.version,
                revision.productType, SampleStore.format(revision.operatingSystemVersion), deviceId, correlationId, savedAt,
            ])
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw HKError.invalidArgument("object \(sample.uuid) is already saved")
        }
        let sampleId = db.lastInsertedRowID
        if let metadata = sample.metadataValues, !metadata.isEmpty {
            let insertMetadata = try db.cachedStatement(sql: "INSERT INTO metadata (sampleId, key, kind, text, number, integer) VALUES (?, ?, ?, ?, ?, ?)")
            for (key, value) in metadata {
                let (kind, text, number, integer) = MetadataRecord.Kind.encode(value)
                try insertMetadata.execute(arguments: [sampleId, key, kind.rawValue, text, number, integer])
            }
        }
        if let workout = sample as? HKWorkout {
            try WorkoutStorage.insert(workout, sampleId: sampleId, in: db)
        }
        if let series = sample as? HKHeartbeatSeriesSample {
            try SampleStore.insertBeats(of: series, sampleId: sampleId, in: db)
        }
        if let ecg = sample as? HKElectrocardiogram {
            try SampleStore.insertRecording(of: ecg, sampleId: sampleId, in: db)
        }
        if let state = sample as? HKStateOfMind {
            try SampleStore.insertStateOfMind(state, sampleId: sampleId, in: db)
        }
        if let audiogram = sample as? HKAudiogramSample {
            try SampleStore.insertAudiogram(audiogram, sampleId: sampleId, in: db)
        }
        if let assessment = sample as? HKScoredAssessment {
            try SampleStore.insertAssessment(assessment, sampleId: sampleId, in: db)
        }
        if let prescription = sample as? HKVisionPrescription {
            try SampleStore.insertPrescription(prescription, sampleId: sampleId, in: db)
        }
        if let dose = sample as? HKMedicationDoseEvent {
            try SampleStore.insertDoseEvent(dose, sampleId: sampleId, in: db)
        }
        if let document = (sample as? HKCDADocumentSample)?.document, let data = document.documentData {
            try db.execute(sql: """
                INSERT INTO document (sampleId, data, title, patientName, authorName, custodianName) VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [sampleId, data, document.title, document.patientName, document.authorName, document.custodianName])
        }
        if let correlation = sample as? HKCorrelation {
            for member in correlation.objects {
                try insert(member, sourceId: sourceId, revision: revision, correlationId: sampleId, savedAt: savedAt, in: db)
            }
            // The types it was saved with decide who may see it, whatever later becomes of its members.
            let recordType = try db.cachedStatement(sql: "INSERT OR IGNORE INTO correlationMemberType (correlationId, typeCode) VALUES (?, ?)")
            for type in Set(correlation.objects.map(\.sampleType.identifier)) {
                try recordType.execute(arguments: [sampleId, SampleTypeCode.code(type)])
            }
        }
    }

    // MARK: - Delete

    /// Deletes `objects`, which must all be `app`'s own, leaving a tombstone (with the sync metadata) for each.
    package func delete(_ objects: [HKObject], app: AppManifest) throws {
        guard !objects.isEmpty else { return }
        if try authorization.isGuestMode() {
            throw HKError(.errorNotPermissibleForGuestUserMode, "deleting is not permitted in guest mode")
        }
        try checkShare(objects, app: app)
        let touched = try write { db in
            let ownSource = try SampleStore.sourceId(for: SampleStore.revision(for: app).source, in: db, create: false)
            let now = Date().timeIntervalSinceReferenceDate
            var touched = Set<String>()
            for object in objects {
                let absent = HKError.invalidArgument("object \(object.uuid) is not in the store")
                guard let row = try SampleRecord.filter(SampleRecord.Columns.uuid == object.uuid.uuidString).fetchOne(db) else { throw absent }
                guard row.sourceId == ownSource else {
                    // Another app's object of a type this app may not read answers as if it were not there: the error
                    // must not tell an app which of the UUIDs it once held still exist.
                    let visibility = try SampleStore.readVisibility(app: app.bundleIdentifier, type: row.type, in: db)
                    guard try Bool.fetchOne(db, SQLRequest<Bool>(literal: """
                        SELECT EXISTS (SELECT 1 FROM sample WHERE id = \(row.id) AND \(visibility.condition()))
                        """)) == true else { throw absent }
                    throw HKError(.errorAuthorizationDenied, "\(app.bundleIdentifier) may delete only objects it saved")
                }
                try tombstone(row, at: now, in: db, touched: &touched)
                _ = try row.delete(db)
            }
            return touched
        }
        changes.post(touched)
    }

    /// The checks `delete(_:app:)` makes before it looks for any object, for a delete that names objects by type and UUID
    /// (the daemon's): guest mode, then share permission for each type — so an object not in the store is refused exactly
    /// as one that is, and the answer never tells which of the UUIDs an app holds still exist.
    package func checkMayDelete(_ types: [HKSampleType], app: AppManifest) throws {
        if try authorization.isGuestMode() {
            throw HKError(.errorNotPermissibleForGuestUserMode, "deleting is not permitted in guest mode")
        }
        for type in types { try checkShare(type: type, app: app) }
    }

    /// Deletes the sample `uuid` on the person's behalf (the Health app deletes any source's), leaving a tombstone as an
    /// app's deletion does, so apps' anchored queries hear of it. A member of a correlation goes only with its correlation;
    /// an unknown UUID is `errorInvalidArgument`. Returns the deleted sample's type.
    @discardableResult
    package func deleteAsPerson(_ uuid: UUID) throws -> String {
        if try authorization.isGuestMode() {
            throw HKError(.errorNotPermissibleForGuestUserMode, "deleting is not permitted in guest mode")
        }
        let (type, touched) = try write { db -> (String, Set<String>) in
            guard let row = try SampleRecord.filter(SampleRecord.Columns.uuid == uuid.uuidString).fetchOne(db) else {
                throw HKError.invalidArgument("sample \(uuid) is not in the store")
            }
            guard row.correlationId == nil else {
                throw HKError.invalidArgument("sample \(uuid) belongs to a correlation (such as a blood pressure reading): delete the correlation")
            }
            var touched = Set<String>()
            try tombstone(row, at: Date().timeIntervalSinceReferenceDate, in: db, touched: &touched)
            _ = try row.delete(db)
            return (row.type, touched)
        }
        changes.post(touched)
        return type
    }

    /// Deletes every object of `type` that `app` saved and that matches `filter`, leaving tombstones; returns how
    /// many. Others' objects are never touched. Members of correlations go only with their correlation.
    package func deleteObjects(ofType type: HKObjectType, matching filter: SampleFilter, app: AppManifest) throws -> Int {
        guard let type = type as? HKSampleType else {
            throw HKError.invalidArgument("\(type.identifier) objects are not samples and cannot be deleted")
        }
        if try authorization.isGuestMode() {
            throw HKError(.errorNotPermissibleForGuestUserMode, "deleting is not permitted in guest mode")
        }
        try checkShare(type: type, app: app)
        let condition = try SampleFilter.condition(try self.filter(filter, visibleTo: app.bundleIdentifier), type: type.identifier)
        let (count, touched) = try write { db -> (Int, Set<String>) in
            guard let ownSource = try SampleStore.sourceId(for: SampleStore.revision(for: app).source, in: db, create: false) else {
                return (0, [])
            }
            let rows = try SampleRecord.fetchAll(db, SQLRequest<SampleRecord>(literal: """
                SELECT * FROM sample
                WHERE typeCode = \(SampleTypeCode.code(type.identifier)) AND sourceId = \(ownSource) AND correlationId IS NULL AND \(condition)
                """))
            let now = Date().timeIntervalSinceReferenceDate
            var touched = Set<String>()
            for row in rows {
                try tombstone(row, at: now, in: db, touched: &touched)
                _ = try row.delete(db)
            }
            return (rows.count, touched)
        }
        changes.post(touched)
        return count
    }

    func tombstone(_ row: SampleRecord, at time: Double, in db: Database, touched: inout Set<String>) throws {
        touched.insert(row.type)
        let members = try SampleRecord.filter(SampleRecord.Columns.correlationId == row.id).fetchAll(db)
        for member in members { try tombstone(member, at: time, in: db, touched: &touched) }
        let sync = try MetadataRecord
            .filter(sql: "sampleId = ? AND key IN (?, ?)", arguments: [row.id, HKMetadataKeySyncIdentifier, HKMetadataKeySyncVersion])
            .fetchAll(db)
        try db.execute(sql: """
            INSERT INTO deletedObject (uuid, type, sourceId, deletedAt, syncIdentifier, syncVersion) VALUES (?, ?, ?, ?, ?, ?)
            """, arguments: [row.uuid, row.type, row.sourceId, time,
                             sync.first { $0.key == HKMetadataKeySyncIdentifier }?.text,
                             sync.first { $0.key == HKMetadataKeySyncVersion }?.integer])
        if row.kind == .medicationDoseEvent {
            try db.execute(sql: """
                INSERT INTO deletedDoseEvent (deletedId, medicationUUID)
                SELECT ?, medication.uuid FROM medicationDoseEvent JOIN medication USING (conceptId) WHERE sampleId = ?
                """, arguments: [db.lastInsertedRowID, row.id])
        }
        if row.kind == .correlation {
            // Who may hear of the deletion: the readers of the member types the correlation was saved with.
            try db.execute(sql: """
                INSERT INTO deletedCorrelationMemberType (deletedId, typeCode) SELECT ?, typeCode FROM correlationMemberType WHERE correlationId = ?
                """, arguments: [db.lastInsertedRowID, row.id])
        }
    }

    /// Tombstones of deleted objects of a type that `app` may know about, oldest first.
    package func deletedObjects(ofType type: HKSampleType, visibleTo app: String) throws -> [HKDeletedObject] {
        let visibility = try readVisibility(app: app, type: type.identifier)
        return try read { db in
            try Row.fetchAll(db, SQLRequest<Row>(literal: """
                SELECT uuid, syncIdentifier, syncVersion FROM deletedObject AS sample
                WHERE type = \(type.identifier) AND \(visibility.condition(tombstones: true)) ORDER BY id
                """)).map(SampleStore.deletedObject(from:))
        }
    }

    /// A tombstone row (uuid, syncIdentifier, syncVersion) as the `HKDeletedObject` apps receive.
    static func deletedObject(from row: Row) -> HKDeletedObject {
        var metadata: [String: HKMetadataValue] = [:]
        if let id = row["syncIdentifier"] as String? { metadata[HKMetadataKeySyncIdentifier] = .string(id) }
        if let version = row["syncVersion"] as Int? { metadata[HKMetadataKeySyncVersion] = .integer(version) }
        return HKDeletedObject(uuid: UUID(uuidString: row["uuid"])!, metadata: metadata.isEmpty ? nil : metadata)
    }

    // MARK: - Read

    /// The samples of a type `app` may see that match `filter`: all of them with read permission, only its own
    /// without. Sorted by `order` (then by save order, so ties are stable), at most `limit` (`nil`: all).
    /// Members of correlations are samples too and are included, as in HealthKit
    /// (`HKQuery.predicateForObjectsWithNoCorrelation()` leaves them out).
    package func samples(
        ofType type: HKSampleType, matching filter: SampleFilter? = nil, visibleTo app: String,
        order: [SampleOrder] = [SampleOrder(key: .startDate, ascending: true)], limit: Int? = nil
    ) throws -> [HKSample] {
        let condition = try SampleFilter.condition(try self.filter(filter, visibleTo: app), type: type.identifier)
        precondition(order.allSatisfy(\.key.isColumn), "workout keys are sorted in memory, never by SQL")
        let orderBy = (order.map { "\($0.key.rawValue) \($0.ascending ? "ASC" : "DESC")" } + ["id ASC"]).joined(separator: ", ")
        let limitClause: SQL = limit.map { "LIMIT \($0)" } ?? ""
        return try read { db in
            let visibility = try SampleStore.readVisibility(app: app, type: type.identifier, in: db)
            let rows = try SampleRecord.fetchAll(db, SQLRequest<SampleRecord>(literal: """
                SELECT * FROM sample WHERE typeCode = \(SampleTypeCode.code(type.identifier)) AND \(visibility.condition()) AND \(condition)
                ORDER BY \(sql: orderBy) \(limitClause)
                """, cached: filter?.hasFewSQLShapes ?? true))
            return try SampleStore.samples(from: rows, in: db)
        }
    }

    /// How many samples `samples(ofType:matching:visibleTo:)` would give without a limit, counted in SQL.
    /// How many samples of `type` match, counting at most `limit` (a year of heart rate is millions: counting them
    /// all takes half a second, and a page needs to know only whether there are more than it shows).
    package func sampleCount(ofType type: HKSampleType, matching filter: SampleFilter? = nil, visibleTo app: String,
                             limit: Int? = nil) throws -> Int {
        let condition = try SampleFilter.condition(try self.filter(filter, visibleTo: app), type: type.identifier)
        return try read { db in
            let visibility = try SampleStore.readVisibility(app: app, type: type.identifier, in: db)
            if let limit {
                return try Int.fetchOne(db, SQLRequest<Int>(literal: """
                    SELECT count(*) FROM (SELECT 1 FROM sample WHERE typeCode = \(SampleTypeCode.code(type.identifier))
                        AND \(visibility.condition()) AND \(condition) LIMIT \(limit))
                    """)) ?? 0
            }
            return try Int.fetchOne(db, SQLRequest<Int>(literal: """
                SELECT count(*) FROM sample WHERE typeCode = \(SampleTypeCode.code(type.identifier)) AND \(visibility.condition()) AND \(condition)
                """)) ?? 0
        }
    }

    package func readVisibility(app: String, type: String) throws -> ReadVisibility {
        try read { db in try SampleStore.readVisibility(app: app, type: type, in: db) }
    }

    /// The visibility, read inside a transaction the caller already holds (one round trip fewer).
    static func readVisibility(app: String, type: String, in db: Database) throws -> ReadVisibility {
        let own = try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM source WHERE bundleIdentifier = ?"), arguments: [app])
        func canRead(_ type: String) throws -> Bool { try AuthorizationService.canRead(app: app, type: type, in: db) }
        if let correlation = HKObjectType.type(forIdentifier: type) as? HKCorrelationType {
            let readable = try correlation.memberTypeIdentifiers.sorted().filter { try canRead($0) }
            return ReadVisibility(ownSourceId: own, canReadOthers: false, readableMemberTypes: readable)
        }
        if app != AuthorizationService.personReader, HKObjectType.type(forIdentifier: type)?.requiresPerObjectAuthorization() == true {
            return ReadVisibility(ownSourceId: own, canReadOthers: false, perObjectApp: app)
        }
        if app != AuthorizationService.personReader, type == HKMedicationDoseEventTypeIdentifierMedicationDoseEvent {
            return ReadVisibility(ownSourceId: nil, canReadOthers: false, doseEventApp: app)
        }
        return ReadVisibility(ownSourceId: own, canReadOthers: try canRead(type))
    }

    /// Rebuilds the objects rows stand for, with their metadata (one query for all rows), source revisions and
    /// devices (each read once); correlations bring their members, workouts their parts.
    static func samples(from rows: [SampleRecord], in db: Database) throws -> [HKSample] {
        guard !rows.isEmpty else { return [] }
        let ids = rows.compactMap(\.id)
        var metadataById: [Int64: [String: HKMetadataValue]] = [:]
        for record in try MetadataRecord.fetchAll(db.cachedStatement(sql: "SELECT * FROM metadata WHERE sampleId IN (SELECT value FROM json_each(?))"),
                                                  arguments: ["[" + ids.map(String.init).joined(separator: ",") + "]"]) {
            metadataById[record.sampleId, default: [:]][record.key] = try record.value()
        }
        var sources: [Int64: SourceRecord] = [:], devices: [Int64: HKDevice] = [:], units: [String: HKUnit] = [:]
        return try rows.map { row in
            guard let id = row.id, let uuid = UUID(uuidString: row.uuid), let type = HKObjectType.type(forIdentifier: row.type) as? HKSampleType,
                  let source = try sources[row.sourceId]
                    ?? SourceRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM source WHERE id = ?"), arguments: [row.sourceId]) else {
                throw HKError(.errorDatabaseInaccessible, "the store holds a sample row it cannot read (type \(row.type))")
            }
            sources[row.sourceId] = source
            let revision = HKSourceRevision(
                source: HKSource(name: source.name, bundleIdentifier: source.bundleIdentifier), version: row.sourceVersion,
                productType: row.productType, operatingSystemVersion: parse(row.osVersion))
            var device: HKDevice?
            if let deviceId = row.deviceId {
                if devices[deviceId] == nil {
                    devices[deviceId] = try DeviceRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM device WHERE id = ?"), arguments: [deviceId])?.device
                }
                device = devices[deviceId]
            }
            let metadata = metadataById[id]
            let start = Date(timeIntervalSinceReferenceDate: row.startDate), end = Date(timeIntervalSinceReferenceDate: row.endDate)
            switch (row.kind, type) {
            case (.quantity, let type as HKQuantityType):
                let unitString = row.unit ?? ""
                if units[unitString] == nil { units[unitString] = try HKUnit.parse(unitString) }
                let unit = units[unitString]!
                if row.count > 1, type.aggregationStyle != .cumulative,
                   let summary = try SampleStore.seriesSummary(sampleId: id, unit: unit, in: db) {
                    return HKDiscreteQuantitySample(type: type, average: HKQuantity(unit: unit, doubleValue: row.originalValue ?? 0),
                                                    series: summary, start: start, end: end, count: row.count, uuid: uuid, metadata: metadata,
                                                    sourceRevision: revision, device: device)
                }
                return HKQuantitySample.make(type: type, quantity: HKQuantity(unit: unit, doubleValue: row.originalValue ?? 0),
                                             start: start, end: end, count: row.count, uuid: uuid, metadata: metadata,
                                             sourceRevision: revision, device: device)
            case (.category, let type as HKCategoryType):
                return HKCategorySample(type: type, value: storedInteger(row.value ?? 0), start: start, end: end, uuid: uuid,
                                        metadata: metadata, sourceRevision: revision, device: device)
            case (.correlation, let type as HKCorrelationType):
                let members = try SampleRecord.filter(SampleRecord.Columns.correlationId == id).fetchAll(db)
                return HKCorrelation(type: type, start: start, end: end, objects: Set(try samples(from: members, in: db)),
                                     uuid: uuid, metadata: metadata, sourceRevision: revision, device: device)
            case (.workout, is HKWorkoutType):
                return try WorkoutStorage.workout(row: row, metadata: metadata, revision: revision, device: device, in: db)
            case (.clinicalRecord, let type as HKClinicalType):
                return try ClinicalRecordStore.record(sampleId: id, type: type, uuid: uuid, received: start, revision: revision, in: db)
            case (.heartbeatSeries, is HKSeriesType):
                return HKHeartbeatSeriesSample(count: row.count, start: start, end: end, uuid: uuid, metadata: metadata,
                                               sourceRevision: revision, device: device)
            case (.electrocardiogram, is HKElectrocardiogramType):
                return try SampleStore.electrocardiogram(sampleId: id, start: start, end: end, count: row.count, uuid: uuid, metadata: metadata,
                                                         revision: revision, device: device, in: db)
            case (.stateOfMind, is HKStateOfMindType):
                return try SampleStore.stateOfMind(sampleId: id, date: start, valence: row.value ?? 0, uuid: uuid, metadata: metadata,
                                                   revision: revision, device: device, in: db)
            case (.audiogram, is HKAudiogramSampleType):
                return try SampleStore.audiogram(sampleId: id, start: start, end: end, uuid: uuid, metadata: metadata, revision: revision,
                                                 device: device, in: db)
            case (.scoredAssessment, let type as HKScoredAssessmentType):
                return try SampleStore.assessment(sampleId: id, type: type, date: start, uuid: uuid, metadata: metadata, revision: revision,
                                                  device: device, in: db)
            case (.visionPrescription, is HKPrescriptionType):
                return try SampleStore.prescription(sampleId: id, start: start, end: end, uuid: uuid, metadata: metadata, revision: revision,
                                                    device: device, in: db)
            case (.medicationDoseEvent, is HKMedicationDoseEventType):
                return try SampleStore.doseEvent(sampleId: id, start: start, end: end, uuid: uuid, metadata: metadata, revision: revision,
                                                 device: device, in: db)
            case (.route, is HKSeriesType):
                return HKWorkoutRoute(count: row.count, start: start, end: end, uuid: uuid, metadata: metadata, sourceRevision: revision,
                                      device: device)
            case (.document, is HKDocumentType):
                guard let document = try Row.fetchOne(db, sql: "SELECT * FROM document WHERE sampleId = ?", arguments: [id]) else {
                    throw HKError(.errorDatabaseInaccessible, "the store holds document sample \(uuid) without its document")
                }
                return HKCDADocumentSample(
                    document: HKCDADocument(documentData: document["data"], title: document["title"], patientName: document["patientName"],
                                            authorName: document["authorName"], custodianName: document["custodianName"]),
                    start: start, end: end, uuid: uuid, metadata: metadata, sourceRevision: revision, device: device)
            default:
                throw HKError(.errorDatabaseInaccessible, "the store holds a \(row.type) row of the wrong kind")
            }
        }
    }

    /// Rebuilds the object one row stands for.
    static func sample(from row: SampleRecord, in db: Database) throws -> HKSample {
        try samples(from: [row], in: db)[0]
    }

    // MARK: - Sources, devices, revisions

    /// The revision a save by `app` records: its identity and version, on this machine and OS.
    static func revision(for app: AppManifest) -> HKSourceRevision {
        let local = HKDevice.local()
        let product = [local.model, local.hardwareVersion].compactMap { $0 }.joined(separator: " ")
        return HKSourceRevision(source: HKSource(name: app.name, bundleIdentifier: app.bundleIdentifier), version: app.version,
                                productType: product, operatingSystemVersion: ProcessInfo.processInfo.operatingSystemVersion)
    }

    static func sourceId(for source: HKSource, in db: Database, create: Bool) throws -> Int64? {
        if let id = try Int64.fetchOne(db, sql: "SELECT id FROM source WHERE bundleIdentifier = ?", arguments: [source.bundleIdentifier]) {
            return id
        }
        guard create else { return nil }
        var record = SourceRecord(id: nil, bundleIdentifier: source.bundleIdentifier, name: source.name)
        try record.insert(db)
        return record.id
    }

    static func deviceId(for device: HKDevice, in db: Database) throws -> Int64 {
        var record = DeviceRecord(device)
        if let id = try Int64.fetchOne(db, sql: "SELECT id FROM device WHERE fingerprint = ?", arguments: [record.fingerprint]) {
            return id
        }
        try record.insert(db)
        return record.id!
    }

    static func format(_ v: OperatingSystemVersion) -> String { "\(v.majorVersion).\(v.minorVersion).\(v.patchVersion)" }

    static func parse(_ text: String?) -> OperatingSystemVersion {
        let parts = (text ?? "").split(separator: ".").map { Int($0) ?? 0 }
        guard parts.count == 3 else { return HKSourceRevisionAnyOperatingSystem }
        return OperatingSystemVersion(majorVersion: parts[0], minorVersion: parts[1], patchVersion: parts[2])
    }

    private func read<T>(_ body: (Database) throws -> T) throws -> T { try database.read(body) }
    func write<T>(_ body: (Database) throws -> T) throws -> T { try database.write(body) }
}
