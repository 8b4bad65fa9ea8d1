package import Foundation
import GRDB
import GRDBSQLite
package import HealthModel

/// One exported sample, ready to store: the export importer builds these straight from the XML, without a HealthKit
/// object per record, and `SampleStore.importBatch` binds them to SQLite directly. What repeats from row to row (type,
/// unit, source, device) is one shared `Shape`, and what few rows carry (metadata, kept children) one optional
/// `Details`, so a row holds two references and copies cheaply.
package struct ImportedSample: Sendable {
    /// The type, unit, source revision and device of a run of rows, shared by all of them: the store binds them once
    /// per run and looks their rows up once.
    package final class Shape: Sendable {
        package let type: String
        package let typeCode: Int64
        /// Quantity or category.
        package let isQuantity: Bool
        /// A quantity's unit as recorded.
        package let unit: String?
        package let revision: HKSourceRevision
        package let device: HKDevice?

        package init(type: String, isQuantity: Bool, unit: String?, revision: HKSourceRevision, device: HKDevice?) {
            self.type = type
            self.typeCode = SampleTypeCode.code(type)
            self.isQuantity = isQuantity
            self.unit = unit
            self.revision = revision
            self.device = device
        }
    }

    /// What a row holds beyond its shape and numbers.
    package final class Details: Sendable {
        package let metadata: [String: HKMetadataValue]?
        /// Child elements of the record the model does not hold (a heart-rate variability beat list), as written.
        package let extra: String?

        package init(metadata: [String: HKMetadataValue]?, extra: String?) {
            self.metadata = metadata
            self.extra = extra
        }
    }

    package var uuid: UUID
    package var shape: Shape
    /// Seconds since 2001 (the store's dates).
    package var start: Double
    package var end: Double
    /// The value in the type's base unit (a category's raw value).
    package var value: Double
    /// A quantity's value as recorded, in `shape.unit`.
    package var originalValue: Double?
    /// When the record was first saved (the export's `creationDate`, seconds since 2001): the row's save time, so a
    /// later export writes it back. Nil: now.
    package var created: Double?
    package var details: Details?
    /// The UUID an import gave this record before identities held the creation date, when the store holds such imports:
    /// a row stored under it with this creation date is this record.
    package var legacyUUID: UUID?

    package init(uuid: UUID, shape: Shape, start: Double, end: Double, value: Double, originalValue: Double?) {
        self.uuid = uuid
        self.shape = shape
        self.start = start
        self.end = end
        self.value = value
        self.originalValue = originalValue
    }

    package var type: String { shape.type }
    package var unit: String? { shape.unit }
    package var revision: HKSourceRevision { shape.revision }
    package var device: HKDevice? { shape.device }
    package var metadata: [String: HKMetadataValue]? { details?.metadata }
    package var extra: String? { details?.extra }
}

extension SampleStore {
    /// What an import batch did.
    package struct ImportCounts: Sendable {
        /// Newly stored objects by type identifier (correlation members under their own type).
        package var added: [String: Int] = [:]
        /// Objects already in the store before this import (same UUID), left as they are.
        package var existing = 0
        /// Objects the export holds more than once, alike down to their creation date: stored once.
        package var copies = 0
    }

    /// Source and device rows already looked up during one import: source revisions and devices are shared objects,
    /// so a lookup is one pointer comparison. Used by one import at a time.
    package final class ImportSession: @unchecked Sendable {
        var sources: [ObjectIdentifier: (revision: HKSourceRevision, id: Int64, osVersion: String)] = [:]
        var devices: [ObjectIdentifier: (device: HKDevice, id: Int64)] = [:]
        /// Whether the store holds samples imported before identities held the creation date (`ImportedSample.legacyUUID`).
        package let legacyIdentities: Bool
        /// The largest sample row id when the import began: a UUID found on a row above it was stored by this import.
        let lastIdBefore: Int64
        /// Workouts found under their legacy UUID, by their UUID now: their routes belong to the stored one.
        var legacyWorkouts: [UUID: UUID] = [:]

        init(legacyIdentities: Bool, lastIdBefore: Int64) {
            self.legacyIdentities = legacyIdentities
            self.lastIdBefore = lastIdBefore
        }
    }

    /// A session for one import: what the store holds as it begins.
    package func beginImport() throws -> ImportSession {
        try database.read { db in
            ImportSession(legacyIdentities: try Bool.fetchOne(db, sql: "SELECT value FROM storeFlag WHERE name = 'legacyExportIdentities'") ?? false,
                          lastIdBefore: try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM sample") ?? 0)
        }
    }

    /// Prepares a large import of short rows: when the store holds no samples yet, drops the `sample` table's
    /// secondary indexes, so rows are appended without maintaining them, and returns true; `endBulkLoad` then builds each
    /// index once, from sorted data. (If the process dies in between, the next opening of the store rebuilds them.)
    /// A store that already holds samples is left as it is. The partial correlation index stays: rows that belong to
    /// no correlation cost it nothing.
    package func beginBulkLoad() throws -> Bool {
        try write { db in
            guard try Int.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sample)") == 0 else { return false }
            for index in HealthDatabase.sampleIndexes where index.condition == nil {
                try db.execute(sql: "DROP INDEX IF EXISTS \(index.name)")
            }
            return true
        }
    }

    /// Builds the indexes `beginBulkLoad` dropped.
    package func endBulkLoad() throws {
        try database.restoreSampleIndexes()
    }

    /// Adds exported objects on the person's behalf, in one transaction, skipping those whose UUID is already stored —
    /// so re-importing adds nothing. A correlation's members that are already stored (as the export's top-level copies)
    /// are linked to it rather than stored twice.
    package func importExported(_ objects: [HKObject]) throws -> ImportCounts {
        try importBatch(rows: [], objects: objects, session: beginImport())
    }

    /// Adds a batch of an export in one transaction: `rows` first (bound straight to SQLite; a UUID already stored is
    /// skipped), then `objects` (correlations, workouts) as `importExported` does, then workout `routes`.
    /// `elements` are kept as written (`keepExportElements`). `created` gives objects and routes their save time (the
    /// export's `creationDate`, seconds since 2001) by UUID; without one, now.
    package func importBatch(rows: [ImportedSample], objects: [HKObject], routes: [ImportedRoute] = [], elements: [ExportElement] = [],
                             created: [UUID: Double] = [:], legacy: [UUID: UUID] = [:], extras: [UUID: String] = [:],
                             session: ImportSession) throws -> ImportCounts {
        guard !rows.isEmpty || !objects.isEmpty || !routes.isEmpty || !elements.isEmpty else { return ImportCounts() }
        let counts = try database.writeTrusted { db -> ImportCounts in
            let now = Date().timeIntervalSinceReferenceDate
            var (rows, objects, routes) = (rows, objects, routes)
            var counts = ImportCounts()
            if session.legacyIdentities {
                counts.existing += try dropLegacyMatches(rows: &rows, objects: &objects, routes: &routes, created: created, legacy: legacy,
                                                         session: session, in: db)
            }
            let stored = try insertRows(rows, savedAt: now, session: session, in: db)
            counts.existing += stored.existing
            counts.copies += stored.copies
            counts.added = stored.added
            if !objects.isEmpty {
                let more = try insertObjects(objects, savedAt: now, created: created, legacy: session.legacyIdentities ? legacy : [:],
                                             session: session, in: db)
                // Children of the objects kept as written (a vision prescription's attachments), for the objects just added.
                for (uuid, xml) in extras {
                    guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM sample WHERE uuid = ?", arguments: [uuid.uuidString]) else { continue }
                    try db.execute(sql: "INSERT OR IGNORE INTO sampleExtra (sampleId, xml) VALUES (?, ?)", arguments: [id, xml])
                }
                counts.existing += more.existing
                counts.copies += more.copies
                counts.added.merge(more.added, uniquingKeysWith: +)
            }
            if !elements.isEmpty {
                let kept = try keepExportElements(elements, at: now, in: db)
                counts.existing += elements.count - kept
            }
            if !routes.isEmpty {
                let more = try insertRoutes(routes, savedAt: now, created: created, workouts: session.legacyWorkouts, in: db)
                counts.existing += more.existing
                counts.added.merge(more.added, uniquingKeysWith: +)
            }
            return counts
        }
        changes.post(Set(counts.added.keys))
        return counts
    }

    private func insertRows(_ rows: [ImportedSample], savedAt: Double, session: ImportSession, in db: Database) throws -> ImportCounts {
        var counts = ImportCounts()
        guard !rows.isEmpty else { return counts }
        // The longest sample per type (rows come in runs of one type: the dictionary is touched once per run).
        var longest: [String: Double] = [:]
        var span: (type: String, duration: Double) = ("", -1)
        for row in rows {
            if row.type != span.type {
                if span.duration >= 0 { longest[span.type] = max(longest[span.type] ?? -1, span.duration) }
                span = (row.type, -1)
            }
            span.duration = max(span.duration, row.end - row.start)
        }
        if span.duration >= 0 { longest[span.type] = max(longest[span.type] ?? -1, span.duration) }
        let upsert = try db.cachedStatement(sql: """
            INSERT INTO typeSpan (type, maxDuration) VALUES (?, ?)
            ON CONFLICT (type) DO UPDATE SET maxDuration = MAX(maxDuration, excluded.maxDuration)
            """)
        for (type, duration) in longest { try upsert.execute(arguments: [type, duration]) }
        // Heartbeat series come from the variability records (below) and span what they do.
        if let variability = longest[HKQuantityTypeIdentifier.heartRateVariabilitySDNN.rawValue] {
            try upsert.execute(arguments: [HKDataTypeIdentifierHeartbeatSeries, variability])
        }

        let connection = db.sqliteConnection
        let insert = try RawStatement(connection, Self.insertSQL(rows: 1))
        let insertMany = try RawStatement(connection, Self.insertSQL(rows: Self.rowsPerInsert))
        let insertMixed = try RawStatement(connection, Self.insertMixedSQL(rows: Self.rowsPerInsert))
        let insertMetadata = try RawStatement(connection, "INSERT INTO metadata (sampleId, key, kind, text, number, integer) VALUES (?, ?, ?, ?, ?, ?)")
        // Of the UUIDs of a statement whose rows were not all stored, those stored before this import began (or as a
        // correlation's member, the same record): each is already stored, once; the other rows left out are copies the
        // export holds more than once.
        let storedBefore = try RawStatement(connection, """
            SELECT uuid FROM sample WHERE uuid IN (\((1...Self.rowsPerInsert).map { "?\($0)" }.joined(separator: ", ")))
            AND (id <= ?\(Self.rowsPerInsert + 1) OR correlationId IS NOT NULL)
            """)
        storedBefore.bind(Int32(Self.rowsPerInsert + 1), session.lastIdBefore)
        var countedAsStored = Set<String>()
        func countLeftOut(_ leftOut: Int, of uuids: some Collection<UUID>) throws {
            guard leftOut > 0 else { return }
            for (slot, uuid) in uuids.enumerated() { storedBefore.bind(Int32(slot + 1), uuid: uuid) }
            for slot in uuids.count..<Self.rowsPerInsert { storedBefore.bind(Int32(slot + 1), nil as String?) }
            let before = try storedBefore.column().filter { countedAsStored.insert($0).inserted }.count
            counts.existing += before
            counts.copies += leftOut - before
        }
        var bound = (one: BoundShape(), many: BoundShape())
        var run: (type: String, count: Int) = ("", 0)
        func count(_ type: String, _ added: Int) {
            if type == run.type {
                run.count += added
            } else {
                if run.count > 0 { counts.added[run.type, default: 0] += run.count }
                run = (type, added)
            }
        }
        // Metadata rows, written 16 to a statement as they gather.
        let insertManyMetadata = try RawStatement(connection, """
            INSERT INTO metadata (sampleId, key, kind, text, number, integer)
            VALUES \((0..<Self.rowsPerInsert).map { _ in "(?, ?, ?, ?, ?, ?)" }.joined(separator: ", "))
            """)
        var metadata: [(sampleId: Int64, key: String, value: HKMetadataValue)] = []
        metadata.reserveCapacity(Self.rowsPerInsert)
        func flushMetadata(all: Bool) throws {
            while metadata.count >= Self.rowsPerInsert {
                for (slot, entry) in metadata.prefix(Self.rowsPerInsert).enumerated() {
                    try bindMetadata(entry, to: insertManyMetadata, from: Int32(6 * slot + 1))
                }
                try insertManyMetadata.run()
                metadata.removeFirst(Self.rowsPerInsert)
            }
            guard all else { return }
            for entry in metadata {
                try bindMetadata(entry, to: insertMetadata, from: 1)
                try insertMetadata.run()
            }
            metadata.removeAll(keepingCapacity: true)
        }
        func bindMetadata(_ entry: (sampleId: Int64, key: String, value: HKMetadataValue), to statement: RawStatement, from first: Int32) throws {
            let (kind, text, number, integer) = MetadataRecord.Kind.encode(entry.value)
            statement.bind(first, entry.sampleId)
            statement.bind(first + 1, entry.key)
            statement.bind(first + 2, Int64(kind.rawValue))
            statement.bind(first + 3, text)
            statement.bind(first + 4, number)
            statement.bind(first + 5, integer)
        }
        /// Stores what a newly inserted row holds beyond its columns.
        func store(_ details: ImportedSample.Details, of sampleId: Int64, row: ImportedSample) throws {
            if let extra = details.extra {
                try db.execute(sql: "INSERT INTO sampleExtra (sampleId, xml) VALUES (?, ?)", arguments: [sampleId, extra])
                if row.shape.typeCode == variabilityCode, extra.contains("InstantaneousBeatsPerMinute"),
                   let beats = Self.beats(fromVariabilityList: extra, start: row.start, end: row.end) {
                    try storeSeries(beats, of: sampleId, row: row)
                }
            }
            for (key, value) in details.metadata ?? [:] { metadata.append((sampleId, key, value)) }
            try flushMetadata(all: false)
        }
        // A heart-rate variability record's beat list also becomes a heartbeat series, as the watch saved it: same
        // source, device, dates and save time, its UUID derived from the record's (so importing again adds nothing).
        let variabilityCode = SampleTypeCode.code(HKQuantityTypeIdentifier.heartRateVariabilitySDNN.rawValue)
        let copySeriesRow = try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO sample (uuid, typeCode, kind, startDate, endDate, count, sourceId, sourceVersion, productType, osVersion,
                                          deviceId, savedAt)
            SELECT ?, ?, \(SampleKind.heartbeatSeries.rawValue), startDate, endDate, ?, sourceId, sourceVersion, productType, osVersion,
                   deviceId, savedAt FROM sample WHERE id = ?
            """)
        let insertBeat = try db.cachedStatement(sql: "INSERT INTO heartbeat (sampleId, position, offset, precededByGap) VALUES (?, ?, ?, ?)")
        func storeSeries(_ beats: [HeartbeatSeriesBeat], of sampleId: Int64, row: ImportedSample) throws {
            let uuid = WorkoutStorage.derivedUUID(row.uuid, Self.heartbeatNamespace)
            try copySeriesRow.execute(arguments: [uuid.uuidString, SampleTypeCode.code(HKDataTypeIdentifierHeartbeatSeries), beats.count, sampleId])
            guard db.changesCount > 0 else { return }
            let seriesId = db.lastInsertedRowID
            for (position, beat) in beats.enumerated() {
                try insertBeat.execute(arguments: [seriesId, position, beat.offset, beat.precededByGap])
            }
            count(HKDataTypeIdentifierHeartbeatSeries, 1)
        }
        let inserted = try db.cachedStatement(sql: "SELECT id FROM sample WHERE uuid = ? AND id > ?")
        /// After a 16-row INSERT: counts what it added and left out, and stores the details of the rows it added. Those
        /// got consecutive ids, in order, ending at the connection's last insert id; when some rows were already stored,
        /// the added ones are looked up among those ids (only this statement's figures are used: the insert before it may
        /// have been a metadata row's).
        func finishGroup(_ group: UnsafeBufferPointer<ImportedSample>.SubSequence) throws {
            let added = Int(sqlite3_changes(connection))
            let last = sqlite3_last_insert_rowid(connection)
            try countLeftOut(Self.rowsPerInsert - added, of: group.lazy.map(\.uuid))
            guard added > 0 else { return }
            for (slot, row) in group.enumerated() {
                let id: Int64
                if added == Self.rowsPerInsert {
                    id = last - Int64(Self.rowsPerInsert - 1 - slot)
                } else if let found = try Int64.fetchOne(inserted, arguments: [row.uuid.uuidString, last - Int64(added)]) {
                    id = found
                } else {
                    continue
                }
                count(row.shape.type, 1)
                if let details = row.details { try store(details, of: id, row: row) }
            }
        }
        try rows.withUnsafeBufferPointer { rows in
            var index = 0
            while index < rows.count {
                // A full group of rows of one shape: one statement for all of them.
                let shape = rows[index].shape
                if index + Self.rowsPerInsert <= rows.count, rows[index..<index + Self.rowsPerInsert].allSatisfy({ $0.shape === shape }) {
                    try bind(shape, to: insertMany, bound: &bound.many, session: session, in: db)
                    for slot in 0..<Self.rowsPerInsert {
                        let parameters = Self.rowParameters(slot)
                        let row = rows[index + slot]
                        insertMany.bind(parameters.uuid, uuid: row.uuid)
                        insertMany.bind(parameters.uuid + 1, row.start)
                        insertMany.bind(parameters.uuid + 2, row.end)
                        insertMany.bind(parameters.uuid + 3, row.value)
                        insertMany.bind(parameters.uuid + 4, row.originalValue)
                        insertMany.bind(parameters.savedAt, row.created ?? savedAt)
                    }
                    try insertMany.run()
                    try finishGroup(rows[index..<index + Self.rowsPerInsert])
                    index += Self.rowsPerInsert
                    continue
                }
                // Sixteen rows of several shapes (another source or version every few rows): one statement still, each
                // row with its own shape columns.
                if index + Self.rowsPerInsert <= rows.count {
                    for slot in 0..<Self.rowsPerInsert {
                        let row = rows[index + slot], first = Int32(Self.mixedParameters * slot + 1)
                        let source = try sourceRow(row.shape.revision, session: session, in: db)
                        insertMixed.bind(first, uuid: row.uuid)
                        insertMixed.bind(first + 1, row.shape.typeCode)
                        insertMixed.bind(first + 2, Int64(row.shape.isQuantity ? SampleKind.quantity.rawValue : SampleKind.category.rawValue))
                        insertMixed.bind(first + 3, row.start)
                        insertMixed.bind(first + 4, row.end)
                        insertMixed.bind(first + 5, row.value)
                        insertMixed.bind(first + 6, row.originalValue)
                        insertMixed.bind(first + 7, row.shape.unit)
                        insertMixed.bind(first + 8, source.id)
                        insertMixed.bind(first + 9, row.shape.revision.version)
                        insertMixed.bind(first + 10, row.shape.revision.productType)
                        insertMixed.bind(first + 11, source.osVersion)
                        insertMixed.bind(first + 12, try row.shape.device.map { try deviceRow($0, session: session, in: db) })
                        insertMixed.bind(first + 13, row.created ?? savedAt)
                    }
                    try insertMixed.run()
                    try finishGroup(rows[index..<index + Self.rowsPerInsert])
                    index += Self.rowsPerInsert
                    continue
                }
                try bind(shape, to: insert, bound: &bound.one, session: session, in: db)
                insert.bind(1, uuid: rows[index].uuid)
                insert.bind(2, rows[index].start)
                insert.bind(3, rows[index].end)
                insert.bind(4, rows[index].value)
                insert.bind(5, rows[index].originalValue)
                insert.bind(6, rows[index].created ?? savedAt)
                try insert.run()
                defer { index += 1 }
                guard sqlite3_changes(connection) == 1 else {
                    try countLeftOut(1, of: CollectionOfOne(rows[index].uuid))
                    continue
                }
                count(shape.type, 1)
                if let details = rows[index].details { try store(details, of: sqlite3_last_insert_rowid(connection), row: rows[index]) }
            }
        }
        try flushMetadata(all: true)
        if run.count > 0 { counts.added[run.type, default: 0] += run.count }
        return counts
    }

    /// Rows per multi-row INSERT: one statement's fixed costs (cursors, the AUTOINCREMENT counter) shared by 16 rows.
    static let rowsPerInsert = 16

    /// The import INSERT for `rows` rows. What a shape fixes (type, kind, unit, source, version, product type, OS
    /// version, device) is one parameter shared by every row, numbered 7…14; each row has six of its own from 1 on
    /// (UUID, start, end, value, original value, save time).
    static func insertSQL(rows: Int) -> String {
        let values = (0..<rows).map { slot in
            let p = rowParameters(slot)
            return "(?\(p.uuid), ?7, ?8, ?\(p.uuid + 1), ?\(p.uuid + 2), ?\(p.uuid + 3), ?\(p.uuid + 4), ?9, 1, ?10, ?11, ?12, ?13, ?14, NULL, ?\(p.savedAt))"
        }
        return """
            INSERT OR IGNORE INTO sample (uuid, typeCode, kind, startDate, endDate, value, originalValue, unit, count, sourceId, sourceVersion,
                                          productType, osVersion, deviceId, correlationId, savedAt)
            VALUES \(values.joined(separator: ", "))
            """
    }

    /// Parameters per row of `insertMixedSQL`.
    static let mixedParameters = 14

    /// The import INSERT for `rows` rows of any shapes: each row has all its columns as parameters (UUID, type code, kind,
    /// start, end, value, original value, unit, source, version, product type, OS version, device, save time).
    static func insertMixedSQL(rows: Int) -> String {
        let values = (0..<rows).map { slot in
            let p = (1...mixedParameters).map { "?\(mixedParameters * slot + $0)" }
            return "(\(p[0...7].joined(separator: ", ")), 1, \(p[8...12].joined(separator: ", ")), NULL, \(p[13]))"
        }
        return """
            INSERT OR IGNORE INTO sample (uuid, typeCode, kind, startDate, endDate, value, originalValue, unit, count, sourceId, sourceVersion,
                                          productType, osVersion, deviceId, correlationId, savedAt)
            VALUES \(values.joined(separator: ", "))
            """
    }

    /// The numbers of a row's own parameters: UUID, then start, end, value and original value following it; save time.
    static func rowParameters(_ slot: Int) -> (uuid: Int32, savedAt: Int32) {
        slot == 0 ? (1, 6) : (Int32(15 + 6 * (slot - 1)), Int32(15 + 6 * (slot - 1) + 5))
    }

    /// What a statement's shape parameters hold: SQLite keeps a parameter's value across resets, so they are bound
    /// again only when the shape changes.
    struct BoundShape {
        var shape: ObjectIdentifier?
        var revision: ObjectIdentifier?
        var device: ObjectIdentifier?
        var kind: Int64 = -1
    }

    private func bind(_ shape: ImportedSample.Shape, to statement: RawStatement, bound: inout BoundShape, session: ImportSession,
                      in db: Database) throws {
        guard ObjectIdentifier(shape) != bound.shape else { return }
        let revision = ObjectIdentifier(shape.revision)
        if revision != bound.revision {
            let source = try sourceRow(shape.revision, session: session, in: db)
            statement.bind(10, source.id)
            statement.bind(11, shape.revision.version)
            statement.bind(12, shape.revision.productType)
            statement.bind(13, source.osVersion)
            bound.revision = revision
        }
        let device = shape.device.map(ObjectIdentifier.init)
        if device != bound.device || bound.shape == nil {
            statement.bind(14, try shape.device.map { try deviceRow($0, session: session, in: db) })
            bound.device = device
        }
        statement.bind(7, shape.typeCode)
        let kind = Int64(shape.isQuantity ? SampleKind.quantity.rawValue : SampleKind.category.rawValue)
        if kind != bound.kind {
            statement.bind(8, kind)
            bound.kind = kind
        }
        statement.bind(9, shape.unit)
        bound.shape = ObjectIdentifier(shape)
    }

    private func sourceRow(_ revision: HKSourceRevision, session: ImportSession, in db: Database) throws -> (id: Int64, osVersion: String) {
        if let known = session.sources[ObjectIdentifier(revision)] { return (known.id, known.osVersion) }
        let id = try SampleStore.sourceId(for: revision.source, in: db, create: true)!
        let osVersion = SampleStore.format(revision.operatingSystemVersion)
        session.sources[ObjectIdentifier(revision)] = (revision, id, osVersion)
        return (id, osVersion)
    }

    private func deviceRow(_ device: HKDevice, session: ImportSession, in db: Database) throws -> Int64 {
        if let known = session.devices[ObjectIdentifier(device)] { return known.id }
        let id = try SampleStore.deviceId(for: device, in: db)
        session.devices[ObjectIdentifier(device)] = (device, id)
        return id
    }

    /// Exported objects (correlations with their members, workouts, anything not a plain row), skipping stored UUIDs.
    private func insertObjects(_ objects: [HKObject], savedAt now: Double, created: [UUID: Double], legacy: [UUID: UUID],
                               session: ImportSession, in db: Database) throws -> ImportCounts {
        var counts = ImportCounts()
        var uuids: [String] = []
        for object in objects {
            uuids.append(object.uuid.uuidString)
            for member in (object as? HKCorrelation)?.objects ?? [] {
                uuids.append(member.uuid.uuidString)
                if let old = legacy[member.uuid] { uuids.append(old.uuidString) }
            }
        }
        var stored = Set<String>()
        /// Stored before this import began (the rest of `stored` is this import's).
        var storedBefore = Set<String>()
        for chunk in stride(from: 0, to: uuids.count, by: 500).map({ Array(uuids[$0..<min($0 + 500, uuids.count)]) }) {
            for row in try Row.fetchAll(db, sql: "SELECT uuid, id FROM sample WHERE uuid IN (\(databaseQuestionMarks(count: chunk.count)))",
                                        arguments: StatementArguments(chunk)) {
                let uuid: String = row["uuid"]
                stored.insert(uuid)
                if (row["id"] as Int64) <= session.lastIdBefore { storedBefore.insert(uuid) }
            }
        }
        let fresh = objects.filter { !stored.contains($0.uuid.uuidString) }
        try SampleStore.recordSpans(fresh, in: db)
        var sourceIds: [String: Int64] = [:]
        func sourceId(_ revision: HKSourceRevision) throws -> Int64 {
            if let known = sourceIds[revision.source.bundleIdentifier] { return known }
            let id = try SampleStore.sourceId(for: revision.source, in: db, create: true)!
            sourceIds[revision.source.bundleIdentifier] = id
            return id
        }
        let cache = InsertCache()
        for object in objects {
            // Already stored (before this import, or by it: a copy the export holds twice), or stored earlier in this batch.
            guard stored.insert(object.uuid.uuidString).inserted else {
                // Stored before: once already stored, again a copy (as rows count).
                if storedBefore.remove(object.uuid.uuidString) != nil { counts.existing += 1 } else { counts.copies += 1 }
                continue
            }
            guard let correlation = object as? HKCorrelation else {
                try insert(object, sourceId: try sourceId(object.sourceRevision), revision: object.sourceRevision, correlationId: nil,
                           savedAt: created[object.uuid] ?? now, in: db, cache: cache)
                counts.added[(object as! HKSample).sampleType.identifier, default: 0] += 1
                continue
            }
            let shell = HKCorrelation(type: correlation.correlationType, start: correlation.startDate, end: correlation.endDate, objects: [],
                                      uuid: correlation.uuid, metadata: correlation.metadataValues,
                                      sourceRevision: correlation.sourceRevision, device: correlation.device)
            try insert(shell, sourceId: try sourceId(shell.sourceRevision), revision: shell.sourceRevision, correlationId: nil, savedAt: created[shell.uuid] ?? now, in: db,
                       cache: cache)
            counts.added[correlation.sampleType.identifier, default: 0] += 1
            let correlationId = try Int64.fetchOne(db, sql: "SELECT id FROM sample WHERE uuid = ?", arguments: [correlation.uuid.uuidString])!
            for type in Set(correlation.objects.map(\.sampleType.identifier)) {
                try db.execute(sql: "INSERT OR IGNORE INTO correlationMemberType (correlationId, typeCode) VALUES (?, ?)",
                               arguments: [correlationId, SampleTypeCode.code(type)])
            }
            for member in correlation.objects {
                // The member's top-level Record, stored under its UUID — or, in a store of older imports, its legacy one.
                let old = legacy[member.uuid].map(\.uuidString)
                if let old, stored.contains(old), !stored.contains(member.uuid.uuidString) {
                    try db.execute(sql: "UPDATE sample SET correlationId = ? WHERE uuid = ?", arguments: [correlationId, old])
                } else if !stored.insert(member.uuid.uuidString).inserted {
                    try db.execute(sql: "UPDATE sample SET correlationId = ? WHERE uuid = ?", arguments: [correlationId, member.uuid.uuidString])
                } else {
                    try insert(member, sourceId: try sourceId(member.sourceRevision), revision: member.sourceRevision,
                               correlationId: correlationId, savedAt: created[member.uuid] ?? now, in: db, cache: cache)
                    counts.added[member.sampleType.identifier, default: 0] += 1
                }
            }
        }
        return counts
    }
}

extension SampleStore {
    /// In a store that holds imports made before identities held the creation date, leaves out what such an import
    /// stored already: a row, object or route whose legacy UUID is stored with the same creation date (its save time).
    /// One with another creation date is a copy an earlier import could not tell apart: it is kept, under its UUID now.
    /// Returns how many were left out.
    func dropLegacyMatches(rows: inout [ImportedSample], objects: inout [HKObject], routes: inout [ImportedRoute], created: [UUID: Double],
                           legacy: [UUID: UUID], session: ImportSession, in db: Database) throws -> Int {
        let lookup = try db.cachedStatement(sql: "SELECT savedAt FROM sample WHERE uuid = ?")
        func stored(_ uuid: UUID?, created: Double?) throws -> Bool {
            guard let uuid, let savedAt = try Double.fetchOne(lookup, arguments: [uuid.uuidString]) else { return false }
            return created.map { abs($0 - savedAt) < 0.0005 } ?? true
        }
        var dropped = 0
        var kept: [ImportedSample] = []
        kept.reserveCapacity(rows.count)
        for row in rows {
            if try stored(row.legacyUUID, created: row.created) { dropped += 1 } else { kept.append(row) }
        }
        rows = kept
        objects = try objects.filter { object in
            guard let old = legacy[object.uuid], try stored(old, created: created[object.uuid]) else { return true }
            if object is HKWorkout { session.legacyWorkouts[object.uuid] = old }
            dropped += 1 + ((object as? HKCorrelation)?.objects.count ?? 0)
            return false
        }
        routes = try routes.filter { route in
            guard try stored(legacy[route.route.uuid], created: created[route.route.uuid]) else { return true }
            dropped += 1
            return false
        }
        return dropped
    }
}

/// A statement prepared on the raw connection and bound without GRDB's per-row argument arrays: the bulk-insert path.
/// Text is copied into a buffer the statement owns per parameter and bound without SQLite copying it again (no
/// allocation per bind); a parameter keeps its value until bound again. The statement is finalized with the object.
private final class RawStatement {
    let handle: OpaquePointer
    let connection: OpaquePointer
    /// One buffer per parameter, for its text.
    private var texts: [UnsafeMutableRawBufferPointer]

    init(_ connection: OpaquePointer?, _ sql: String) throws {
        guard let connection else { throw HKError(.errorDatabaseInaccessible, "the store's database is closed") }
        self.connection = connection
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw HKError(.errorDatabaseInaccessible, "cannot prepare an import statement: \(String(cString: sqlite3_errmsg(connection)))")
        }
        handle = statement
        texts = (0...Int(sqlite3_bind_parameter_count(statement))).map { _ in
            UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 1)
        }
    }

    deinit {
        sqlite3_finalize(handle)
        for buffer in texts { buffer.deallocate() }
    }

    func bind(_ index: Int32, _ value: String?) {
        guard var value else { sqlite3_bind_null(handle, index); return }
        value.withUTF8 { bytes in
            if bytes.count > texts[Int(index)].count {
                texts[Int(index)].deallocate()
                texts[Int(index)] = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
            }
            let buffer = texts[Int(index)]
            if let base = bytes.baseAddress { buffer.baseAddress!.copyMemory(from: base, byteCount: bytes.count) }
            // SQLITE_STATIC (nil): the buffer outlives the binding, which the next bind of this parameter replaces.
            sqlite3_bind_text(handle, index, buffer.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil)
        }
    }
    /// A UUID as its uppercase text (`uuidString`), written straight into the parameter's buffer.
    func bind(_ index: Int32, uuid: UUID) {
        let buffer = texts[Int(index)]
        let digits: StaticString = "0123456789ABCDEF"
        var count = 0
        withUnsafeBytes(of: uuid.uuid) { bytes in
            for (offset, byte) in bytes.enumerated() {
                if offset == 4 || offset == 6 || offset == 8 || offset == 10 { buffer[count] = UInt8(ascii: "-"); count += 1 }
                buffer[count] = digits.utf8Start[Int(byte >> 4)]
                buffer[count + 1] = digits.utf8Start[Int(byte & 0x0F)]
                count += 2
            }
        }
        sqlite3_bind_text(handle, index, buffer.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(count), nil)
    }

    func bind(_ index: Int32, _ value: Double?) {
        if let value { sqlite3_bind_double(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    func bind(_ index: Int32, _ value: Int64?) {
        if let value { sqlite3_bind_int64(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    /// Steps the statement once and resets it for the next row.
    func run() throws {
        let code = sqlite3_step(handle)
        sqlite3_reset(handle)
        guard code == SQLITE_DONE else {
            throw HKError(.errorDatabaseInaccessible, "import insert failed: \(String(cString: sqlite3_errmsg(connection)))")
        }
    }

    /// Steps a query of one text column to its end, and resets it.
    func column() throws -> [String] {
        defer { sqlite3_reset(handle) }
        var texts: [String] = []
        while true {
            switch sqlite3_step(handle) {
            case SQLITE_ROW: texts.append(String(cString: sqlite3_column_text(handle, 0)))
            case SQLITE_DONE: return texts
            default: throw HKError(.errorDatabaseInaccessible, "import lookup failed: \(String(cString: sqlite3_errmsg(connection)))")
            }
        }
    }
}
