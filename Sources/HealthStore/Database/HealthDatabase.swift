package import Foundation
package import GRDB
import Crypto
import HealthModel
import Synchronization

/// One person's store: a SQLite file (`health.sqlite`) in a folder, opened in WAL mode so many
/// threads and several processes can use it at once, with its schema created by ordered migrations.
package final class HealthDatabase: Sendable {
    package let directory: URL
    /// Whether the store was opened read-only, its folder or files not writable (see `HealthDatabase+ReadOnly`):
    /// reads work, writes are refused.
    package let isReadOnly: Bool
    /// Whether the store is encrypted (its pages sealed by `EncryptingVFS`).
    let isEncrypted: Bool
    /// The store's secrets, once read.
    let secrets = Mutex<[String: Data]>([:])
    /// Whether an encrypted store is locked (`lock()`): its key forgotten, every read and write refused.
    let locked = Atomic<Bool>(false)
    /// The open database; nil only while an encrypted store opened without its key (``init(lockedStoreIn:)``) has not
    /// been unlocked yet.
    private let opened = Mutex<Opened?>(nil)
    /// Held by a first unlock while it opens the database, so two at once open it once.
    private let opening = Mutex(())

    private struct Opened: Sendable {
        let writer: DatabasePool
        /// The key of an encrypted store, with the pages that failed to open; nil for a plain store.
        let cipher: EncryptedFiles.Entry?
    }

    /// The connections to the database. Every read and write goes through ``read(_:)`` and ``write(_:)``, which refuse a
    /// locked store first; a store opened locked has none until its first unlock.
    package var writer: DatabasePool {
        get throws {
            guard let writer = opened.withLock({ $0?.writer }) else { throw lockedError }
            return writer
        }
    }

    /// The key of an encrypted store, with the pages that failed to open; nil for a plain store, and for an encrypted one
    /// not unlocked since it was opened locked.
    var cipher: EncryptedFiles.Entry? { opened.withLock { $0?.cipher } }

    /// Opens (creating if needed) the store in `directory`. A new store is created from the current schema in one
    /// transaction (`currentSchema`, what the migrations build, checked by a test); an existing one is migrated.
    /// `migratingStepByStep` builds a new one migration by migration instead (for that test). A store that cannot be
    /// written is opened read-only, and neither created, migrated nor repaired.
    package init(directory: URL, migratingStepByStep: Bool = false) throws {
        // An encrypted store needs its key in this process first (from `StoreEncryption.unlock` or the environment).
        let cipherID = try StoreEncryption.cipherID(for: directory)
        self.directory = directory
        isReadOnly = Self.isReadOnly(directory)
        isEncrypted = cipherID != nil
        try open(cipherID: cipherID, migratingStepByStep: migratingStepByStep)
    }

    /// Opens the existing encrypted store in `directory` without its key, locked — as a device starts before its first
    /// unlock: nothing is read from it, every read and write is refused with `errorDatabaseInaccessible`, and
    /// ``unlock(with:)`` opens it (migrating it if needed) with the passphrase or key file. For a daemon that starts
    /// with no secret at hand (`health serve --locked`).
    package init(lockedStoreIn directory: URL) throws {
        try StoreEncryption.finishConversion(directory)
        guard StoreEncryption.isEncrypted(directory) else {
            throw HKError(.errorInvalidArgument, "the store in \(directory.path) is not encrypted, so it cannot start locked (`health encrypt`)")
        }
        let file = directory.appendingPathComponent("health.sqlite").path
        guard let size = try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int, size > 0 else {
            throw HKError(.errorInvalidArgument, "the encrypted store in \(directory.path) holds no data yet: open it unlocked once to create it")
        }
        self.directory = directory
        isReadOnly = Self.isReadOnly(directory)
        isEncrypted = true
        locked.store(true, ordering: .releasing)
    }

    /// Opens the database: `init(directory:)`'s work, and a store opened locked's at its first unlock.
    private func open(cipherID: String?, migratingStepByStep: Bool = false) throws {
        let entry = cipherID.flatMap(StoreEncryption.entry)
        do {
            var configuration = Configuration()
            configuration.foreignKeysEnabled = true
            configuration.busyMode = .timeout(10)
            if cipherID != nil {
                EncryptingVFS.register()
                // Sorts, temporary tables and statement journals stay in memory: a temporary file would be in clear. A
                // larger page cache than SQLite's 2 MB: the operating system's cache holds sealed pages, so a page read
                // again from it is opened again, where a plain store's is only copied.
                configuration.prepareDatabase { db in
                    try db.execute(sql: "PRAGMA temp_store = MEMORY")
                    try db.execute(sql: "PRAGMA cache_size = -\(Self.encryptedCacheKiB)")
                }
            }
            if isReadOnly {
                configuration.readonly = true
                let pool = try DatabasePool(path: try Self.readOnlyPath(directory, cipherID: cipherID), configuration: configuration)
                opened.withLock { $0 = Opened(writer: pool, cipher: entry) }
                try checkReadableAsItIs()
                return
            }
            // Health data is private to its person: a new store folder is 0700 and its database 0600 (SQLite gives the
            // WAL and shared-memory files the database's mode), whatever the umask. An existing store keeps its modes.
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let path = directory.appendingPathComponent("health.sqlite").path
            if !FileManager.default.fileExists(atPath: path) {
                guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                    throw HKError(.errorDatabaseInaccessible, "cannot create the store at \(path)")
                }
            }
            if let cipherID { try Self.initializeEncrypted(path, cipherID: cipherID) }
            let pool = try DatabasePool(path: Self.connectionPath(path, cipherID: cipherID), configuration: configuration)
            opened.withLock { $0 = Opened(writer: pool, cipher: entry) }
            if !migratingStepByStep { try createIfEmpty() }
            try HealthDatabase.migrator.migrate(pool)
            try restoreSampleIndexes()
            if try pool.read({ try Int.fetchOne($0, sql: "SELECT count(*) FROM sampleType") ?? 0 }) < SampleTypeCode.catalogTypes.count {
                try pool.write { try HealthDatabase.registerSampleTypes(in: $0) }
            }
        } catch let error as DatabaseError {
            if let failure = entry?.takeFailure() { throw Self.tampered(directory, failure) }
            throw HKError(.errorDatabaseInaccessible, "cannot open the store at \(directory.path): \(error.message ?? "SQLite error \(error.resultCode)")")
        } catch let error as CocoaError {
            throw HKError(.errorDatabaseInaccessible, "cannot create the store folder \(directory.path): \(FileProblem(error))")
        }
    }

    /// The first unlock of a store opened locked: its key registered with the VFS, then the database opened. Nothing
    /// stays half-open: a failure forgets the key and leaves the store locked. False when the store was opened already.
    func openAtFirstUnlock(_ unlock: StoreUnlock) throws -> Bool {
        try opening.withLock { _ in
            guard cipher == nil else { return false }
            try StoreEncryption.unlock(directory, with: unlock)
            do {
                try open(cipherID: try StoreEncryption.cipherID(for: directory))
            } catch {
                if let pool = opened.withLock({ state in defer { state = nil }; return state?.writer }) { try? pool.close() }
                StoreEncryption.forget(directory)
                throw error
            }
            return true
        }
    }

    /// The page cache of each connection to an encrypted store, in KiB: 16 MiB, where a year's merged daily statistics
    /// ran 1.5 times slower encrypted than plain with SQLite's default 2 MB and 1.1 to 1.15 times with this (BENCHMARKS.md).
    static let encryptedCacheKiB = 16_384

    /// The `sample` table's secondary indexes, as the latest migration defines them. A bulk import into an empty store
    /// drops them and builds each once at the end (`SampleStore.beginBulkLoad`); opening a store rebuilds any that an
    /// interrupted import left missing, so queries never lose them for longer than one import.
    /// The source index also holds the type, so counts per source and type (the store's summary) read it alone.
    /// The correlation index holds only correlation members (a partial index: most samples belong to none); lookups by
    /// `correlationId = ?`, including the cascade when a correlation is deleted, use it all the same.
    package static let sampleIndexes: [(name: String, columns: [String], condition: SQL?)] = [
        ("sample_type_start", ["typeCode", "startDate"], nil), ("sample_type_end", ["typeCode", "endDate"], nil),
        ("sample_source", ["sourceId", "typeCode"], nil), ("sample_correlation", ["correlationId"], "correlationId IS NOT NULL"),
    ]

    /// Lists every sample type of the catalog in `sampleType` (a newer version may know more types than the one that
    /// made the store: opening a store lists them when the table holds fewer).
    static func registerSampleTypes(in db: Database) throws {
        let insert = try db.makeStatement(sql: "INSERT OR IGNORE INTO sampleType (code, identifier) VALUES (?, ?)")
        for type in SampleTypeCode.catalogTypes { try insert.execute(arguments: [type.code, type.identifier]) }
    }

    /// Creates the schema of an empty database in one transaction, with the migrations that built it marked as run.
    private func createIfEmpty() throws {
        try writer.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                // Another process may have created it meanwhile: checked inside the write lock.
                guard try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") == 0 else { return .commit }
                for statement in Self.currentSchema { try db.execute(sql: statement) }
                try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
                for identifier in Self.migrator.migrations {
                    try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [identifier])
                }
                return .commit
            }
        }
    }

    /// Creates the `sample` indexes that are missing.
    package func restoreSampleIndexes() throws {
        let names = Self.sampleIndexes.map(\.name)
        let present = try writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name IN (\(databaseQuestionMarks(count: names.count)))",
                             arguments: StatementArguments(names)) ?? 0
        }
        guard present < names.count else { return }
        try writer.write { db in
            for index in Self.sampleIndexes {
                try db.create(index: index.name, on: "sample", columns: index.columns, options: .ifNotExists, condition: index.condition)
            }
        }
    }

    /// Reads in a snapshot; SQLite failures become `HKError(.errorDatabaseInaccessible)`, HealthKit's error for them.
    package func read<T>(_ body: (Database) throws -> T) throws -> T {
        try checkUnlocked()
        do { return try writer.read(body) } catch let error as DatabaseError { throw inaccessible(error) }
    }

    /// Runs one statement outside any transaction (a single statement is atomic by itself): for the reads of one row
    /// made on every request (a token), where BEGIN and COMMIT would be most of the work. Never for several statements
    /// whose answers must agree.
    package func readOneStatement<T>(_ body: (Database) throws -> T) throws -> T {
        try checkUnlocked()
        do { return try writer.unsafeRead(body) } catch let error as DatabaseError { throw inaccessible(error) }
    }

    /// Writes in one transaction, rolled back if `body` throws; SQLite failures become `errorDatabaseInaccessible`.
    package func write<T>(_ body: (Database) throws -> T) throws -> T {
        guard !isReadOnly else { throw readOnlyError }
        try checkUnlocked()
        do { return try writer.write(body) } catch let error as DatabaseError { throw inaccessible(error) }
    }

    /// Writes in one transaction, as `write` does, with SQLite's foreign-key checks off: for bulk inserts whose
    /// references the caller has just looked up or created itself (an import batch), where checking each row's source
    /// and device again is a tenth of the work. Other writers wait meanwhile, so none runs unchecked.
    package func writeTrusted<T>(_ body: (Database) throws -> T) throws -> T {
        guard !isReadOnly else { throw readOnlyError }
        try checkUnlocked()
        do {
            return try writer.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA foreign_keys = OFF")
                defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
                var result: T?
                try db.inTransaction {
                    result = try body(db)
                    return .commit
                }
                return result!
            }
        } catch let error as DatabaseError { throw inaccessible(error) }
    }

    /// The store's random 256-bit secret named `name`, made on first use and kept in the store (one per store, the
    /// same for every process that opens it; on a read-only store that has none, one per process).
    package func secret(named name: String) throws -> Data {
        if let known = secrets.withLock({ $0[name] }) { return known }
        let select = "SELECT value FROM storeSecret WHERE name = ?"
        let stored = try read { try Data.fetchOne($0, sql: select, arguments: [name]) }
        // A read-only store that never made this secret cannot keep one: it lives as long as this process.
        let value = try stored ?? (isReadOnly ? SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) } : write { db in
            let fresh = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
            try db.execute(sql: "INSERT OR IGNORE INTO storeSecret (name, value) VALUES (?, ?)", arguments: [name, fresh])
            return try Data.fetchOne(db, sql: select, arguments: [name])!
        })
        secrets.withLock { $0[name] = value }
        return value
    }

    private func inaccessible(_ error: DatabaseError) -> HKError {
        if isLocked {
            _ = cipher?.takeFailure()
            return lockedError
        }
        if let failure = cipher?.takeFailure() { return Self.tampered(directory, failure) }
        return HKError(.errorDatabaseInaccessible,
                       "the store could not be read or written: SQLite error \(error.resultCode)\(error.message.map { ": \($0)" } ?? "")")
    }

    /// The error of an encrypted store's page that does not open: reported, never read as data.
    private static func tampered(_ directory: URL, _ failure: String) -> HKError {
        HKError(.errorDatabaseInaccessible,
                "the store in \(directory.path) is damaged or was altered: \(failure) does not authenticate, so nothing was read from it")
    }

    /// The schema, one migration per change, in order. Never edit a shipped migration: add one.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: apps and authorization") { db in
            try db.create(table: "app") { t in
                t.primaryKey("bundleIdentifier", .text).check { length($0) > 0 }
                t.column("name", .text).notNull()
                t.column("version", .text)
                t.column("shareUsageDescription", .text)
                t.column("updateUsageDescription", .text)
                t.column("clinicalUsageDescription", .text)
                t.column("registeredAt", .double).notNull()
            }
            try db.create(table: "requiredReadType") { t in
                t.column("app", .text).notNull().references("app", onDelete: .cascade)
                t.column("typeIdentifier", .text).notNull()
                t.primaryKey(["app", "typeIdentifier"])
            }
            // One row per app and type; each direction is NULL until the person decides it.
            try db.create(table: "authorization") { t in
                t.column("app", .text).notNull().references("app", onDelete: .cascade)
                t.column("typeIdentifier", .text).notNull()
                t.column("share", .integer).check { $0 == nil || $0 == 0 || $0 == 1 }  // 1 allowed, 0 denied
                t.column("read", .integer).check { $0 == nil || $0 == 0 || $0 == 1 }
                t.column("shareRequested", .boolean).notNull().defaults(to: false)
                t.column("readRequested", .boolean).notNull().defaults(to: false)
                t.column("updatedAt", .double).notNull()
                t.primaryKey(["app", "typeIdentifier"])
            }
            // The person: a single row.
            try db.create(table: "person") { t in
                t.primaryKey("id", .integer).check { $0 == 1 }
                t.column("guestMode", .boolean).notNull().defaults(to: false)
            }
            try db.execute(sql: "INSERT INTO person (id, guestMode) VALUES (1, 0)")
        }
        migrator.registerMigration("v2: samples, metadata, sources, devices, tombstones, characteristics") { db in
            try db.create(table: "source") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("bundleIdentifier", .text).notNull().unique()
                t.column("name", .text).notNull()
            }
            try db.create(table: "device") { t in
                t.autoIncrementedPrimaryKey("id")
                // The eight properties joined, so one device is stored once whatever its NULLs.
                t.column("fingerprint", .text).notNull().unique()
                for column in DeviceRecord.propertyColumns { t.column(column, .text) }
            }
            try db.create(table: "sample") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("uuid", .text).notNull().unique()
                t.column("type", .text).notNull()
                t.column("kind", .integer).notNull().check(sql: "kind IN (0, 1, 2)")  // SampleKind
                t.column("startDate", .double).notNull()
                t.column("endDate", .double).notNull()
                // Quantity: the value in the SI base unit of its dimension; category: the value.
                t.column("value", .double)
                // Quantity as the app gave it: value and unit string.
                t.column("originalValue", .double)
                t.column("unit", .text)
                t.column("count", .integer).notNull().defaults(to: 1).check { $0 >= 1 }
                t.column("sourceId", .integer).notNull().references("source")
                t.column("sourceVersion", .text)
                t.column("productType", .text)
                t.column("osVersion", .text)
                t.column("deviceId", .integer).references("device")
                t.column("correlationId", .integer).references("sample", onDelete: .cascade)
                t.column("savedAt", .double).notNull()
                t.check(sql: "endDate >= startDate")
                t.check(sql: "kind != 0 OR (value IS NOT NULL AND unit IS NOT NULL AND originalValue IS NOT NULL)")
            }
            try db.create(index: "sample_type_start", on: "sample", columns: ["type", "startDate"])
            try db.create(index: "sample_type_end", on: "sample", columns: ["type", "endDate"])
            try db.create(index: "sample_source", on: "sample", columns: ["sourceId"])
            try db.create(index: "sample_correlation", on: "sample", columns: ["correlationId"])
            try db.create(table: "metadata") { t in
                t.column("sampleId", .integer).notNull().references("sample", onDelete: .cascade)
                t.column("key", .text).notNull()
                t.column("kind", .integer).notNull().check(sql: "kind BETWEEN 0 AND 5")  // MetadataRecord.Kind
                t.column("text", .text)       // string, or a quantity's unit
                t.column("number", .double)   // double, date (seconds since 2001), or a quantity's value
                t.column("integer", .integer) // integer or Bool
                t.primaryKey(["sampleId", "key"])
            }
            try db.create(table: "deletedObject") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("uuid", .text).notNull()
                t.column("type", .text).notNull()
                t.column("sourceId", .integer).notNull().references("source")
                t.column("deletedAt", .double).notNull()
                t.column("syncIdentifier", .text)
                t.column("syncVersion", .integer)
            }
            try db.create(index: "deletedObject_type", on: "deletedObject", columns: ["type", "id"])
            try db.create(table: "characteristic") { t in
                t.primaryKey("type", .text)
                t.column("value", .text).notNull()
            }
        }
        migrator.registerMigration("v3: workouts") { db in
            // SQLite cannot change a CHECK in place: rebuild `sample` so `kind` admits workouts (3).
            // Foreign keys are off during migrations and checked before commit.
            try db.create(table: "newSample") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("uuid", .text).notNull().unique()
                t.column("type", .text).notNull()
                t.column("kind", .integer).notNull().check(sql: "kind IN (0, 1, 2, 3)")  // SampleKind
                t.column("startDate", .double).notNull()
                t.column("endDate", .double).notNull()
                t.column("value", .double)
                t.column("originalValue", .double)
                t.column("unit", .text)
                t.column("count", .integer).notNull().defaults(to: 1).check { $0 >= 1 }
                t.column("sourceId", .integer).notNull().references("source")
                t.column("sourceVersion", .text)
                t.column("productType", .text)
                t.column("osVersion", .text)
                t.column("deviceId", .integer).references("device")
                t.column("correlationId", .integer).references("sample", onDelete: .cascade)
                t.column("savedAt", .double).notNull()
                t.check(sql: "endDate >= startDate")
                t.check(sql: "kind != 0 OR (value IS NOT NULL AND unit IS NOT NULL AND originalValue IS NOT NULL)")
            }
            try db.execute(sql: "INSERT INTO newSample SELECT * FROM sample")
            try db.drop(table: "sample")
            try db.rename(table: "newSample", to: "sample")
            try db.create(index: "sample_type_start", on: "sample", columns: ["type", "startDate"])
            try db.create(index: "sample_type_end", on: "sample", columns: ["type", "endDate"])
            try db.create(index: "sample_source", on: "sample", columns: ["sourceId"])
            try db.create(index: "sample_correlation", on: "sample", columns: ["correlationId"])

            try db.create(table: "workout") { t in
                t.primaryKey("sampleId", .integer).references("sample", onDelete: .cascade)
                t.column("activityType", .integer).notNull()
                t.column("duration", .double).notNull().check { $0 >= 0 }
            }
            try db.create(index: "workout_activityType", on: "workout", columns: ["activityType"])
            try db.create(table: "workoutActivity") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("uuid", .text).notNull().unique()
                t.column("workoutId", .integer).notNull().indexed().references("sample", onDelete: .cascade)
                t.column("position", .integer).notNull()
                t.column("activityType", .integer).notNull()
                t.column("locationType", .integer).notNull()
                t.column("swimmingLocationType", .integer).notNull()
                t.column("lapLength", .double)
                t.column("lapLengthUnit", .text)
                t.column("startDate", .double).notNull()
                t.column("endDate", .double)
                t.check(sql: "endDate IS NULL OR endDate >= startDate")
            }
            // Events of the workout (activityId NULL) or of one of its activities.
            try db.create(table: "workoutEvent") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("workoutId", .integer).notNull().indexed().references("sample", onDelete: .cascade)
                t.column("activityId", .integer).references("workoutActivity", onDelete: .cascade)
                t.column("position", .integer).notNull()
                t.column("type", .integer).notNull()
                t.column("startDate", .double).notNull()
                t.column("endDate", .double).notNull()
                t.check(sql: "endDate >= startDate")
            }
            // Statistics of the workout (activityId NULL) or of one activity; quantities in `unit`, duration in seconds.
            try db.create(table: "workoutStatistic") { t in
                t.column("workoutId", .integer).notNull().indexed().references("sample", onDelete: .cascade)
                t.column("activityId", .integer).references("workoutActivity", onDelete: .cascade)
                t.column("quantityType", .text).notNull()
                t.column("unit", .text).notNull()
                for column in ["sum", "minimum", "maximum", "average", "mostRecent", "mostRecentStart", "mostRecentEnd", "duration"] {
                    t.column(column, .double)
                }
            }
            // Metadata of workout events and activities (a sample's own metadata is in `metadata`).
            try db.create(table: "workoutPartMetadata") { t in
                t.column("eventId", .integer).references("workoutEvent", onDelete: .cascade)
                t.column("activityId", .integer).references("workoutActivity", onDelete: .cascade)
                t.column("key", .text).notNull()
                t.column("kind", .integer).notNull().check(sql: "kind BETWEEN 0 AND 5")
                t.column("text", .text)
                t.column("number", .double)
                t.column("integer", .integer)
                t.check(sql: "(eventId IS NULL) != (activityId IS NULL)")
            }
            try db.create(index: "workoutPartMetadata_event", on: "workoutPartMetadata", columns: ["eventId"])
            try db.create(index: "workoutPartMetadata_activity", on: "workoutPartMetadata", columns: ["activityId"])
        }
        migrator.registerMigration("v4: source priority") { db in
            // The person's order of sources per type, for merging statistics; sources not listed follow, by first write.
            try db.create(table: "sourcePriority") { t in
                t.column("type", .text).notNull()
                t.column("sourceId", .integer).notNull().references("source", onDelete: .cascade)
                t.column("position", .integer).notNull().check { $0 >= 0 }
                t.primaryKey(["type", "sourceId"])
                t.uniqueKey(["type", "position"])
            }
        }
        migrator.registerMigration("v5: background delivery") { db in
            // What each app asked with enableBackgroundDelivery(for:frequency:): HKUpdateFrequency raw values 1…4.
            try db.create(table: "backgroundDelivery") { t in
                t.column("app", .text).notNull()
                t.column("type", .text).notNull()
                t.column("frequency", .integer).notNull().check { $0 >= 1 && $0 <= 4 }
                t.column("updatedAt", .double).notNull()
                t.primaryKey(["app", "type"])
            }
        }
        migrator.registerMigration("v6: workout statistics in base units") { db in
            // Workout totals keep their original unit; these copies in base units let predicates compare them in SQL.
            for column in ["sumBase", "minimumBase", "maximumBase", "averageBase"] {
                try db.alter(table: "workoutStatistic") { t in t.add(column: column, .double) }
            }
            for row in try Row.fetchAll(db, sql: "SELECT rowid, unit, sum, minimum, maximum, average FROM workoutStatistic") {
                let unit = try HKUnit.parse(row["unit"])
                let base = try ["sum", "minimum", "maximum", "average"].map { try (row[$0] as Double?).map(unit.toBase) }
                try db.execute(sql: "UPDATE workoutStatistic SET sumBase = ?, minimumBase = ?, maximumBase = ?, averageBase = ? WHERE rowid = ?",
                               arguments: [base[0], base[1], base[2], base[3], row["rowid"]])
            }
        }
        migrator.registerMigration("v7: longest sample per type") { db in
            // Lets a date range on end dates also bound start dates, so the (type, startDate) index serves it.
            try db.create(table: "typeSpan") { t in
                t.primaryKey("type", .text)
                t.column("maxDuration", .double).notNull().check { $0 >= 0 }
            }
            try db.execute(sql: "INSERT INTO typeSpan SELECT type, MAX(endDate - startDate) FROM sample GROUP BY type")
        }
        migrator.registerMigration("v8: activity summaries") { db in
            // One row per day (Gregorian yyyy-MM-dd). Each quantity keeps its value and unit as given. `revision`
            // grows with every write, so long-running queries report exactly the new and changed days.
            try db.create(table: "activitySummary") { t in
                t.primaryKey("day", .text).check(sql: "day GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'")
                t.column("moveMode", .integer).notNull()
                t.column("paused", .boolean).notNull()
                for name in ["energy", "energyGoal", "moveTime", "moveTimeGoal", "exercise", "stand"] {
                    t.column(name, .double).notNull().check { $0 >= 0 }
                    t.column(name + "Unit", .text).notNull()
                }
                for name in ["exerciseGoal", "standGoal"] {
                    t.column(name, .double).check { $0 >= 0 }
                    t.column(name + "Unit", .text)
                }
                t.column("revision", .integer).notNull().indexed()
            }
        }
        migrator.registerMigration("v9: samples associated with workouts") { db in
            // HKHealthStore.add(_:to:): which samples detail which workout. Deleting either side drops the link.
            try db.create(table: "workoutAssociation") { t in
                t.column("workoutId", .integer).notNull().references("sample", onDelete: .cascade)
                t.column("sampleId", .integer).notNull().indexed().references("sample", onDelete: .cascade)
                t.primaryKey(["workoutId", "sampleId"])
            }
        }
        migrator.registerMigration("v10: documents") { db in
            // Rebuild `sample` (as v3 did) so `kind` admits documents (4) and, for the clinical records to come,
            // 5; then keep each document's XML and the names read from it beside its sample row.
            try db.create(table: "newSample") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("uuid", .text).notNull().unique()
                t.column("type", .text).notNull()
                t.column("kind", .integer).notNull().check(sql: "kind IN (0, 1, 2, 3, 4, 5)")  // SampleKind
                t.column("startDate", .double).notNull()
                t.column("endDate", .double).notNull()
                t.column("value", .double)
                t.column("originalValue", .double)
                t.column("unit", .text)
                t.column("count", .integer).notNull().defaults(to: 1).check { $0 >= 1 }
                t.column("sourceId", .integer).notNull().references("source")
                t.column("sourceVersion", .text)
                t.column("productType", .text)
                t.column("osVersion", .text)
                t.column("deviceId", .integer).references("device")
                t.column("correlationId", .integer).references("sample", onDelete: .cascade)
                t.column("savedAt", .double).notNull()
                t.check(sql: "endDate >= startDate")
                t.check(sql: "kind != 0 OR (value IS NOT NULL AND unit IS NOT NULL AND originalValue IS NOT NULL)")
            }
            try db.execute(sql: "INSERT INTO newSample SELECT * FROM sample")
            try db.drop(table: "sample")
            try db.rename(table: "newSample", to: "sample")
            try db.create(index: "sample_type_start", on: "sample", columns: ["type", "startDate"])
            try db.create(index: "sample_type_end", on: "sample", columns: ["type", "endDate"])
            try db.create(index: "sample_source", on: "sample", columns: ["sourceId"])
            try db.create(index: "sample_correlation", on: "sample", columns: ["correlationId"])
            try db.create(table: "document") { t in
                t.primaryKey("sampleId", .integer).references("sample", onDelete: .cascade)
                t.column("data", .blob).notNull()
                for column in ["title", "patientName", "authorName", "custodianName"] { t.column(column, .text).notNull() }
            }
        }
        migrator.registerMigration("v11: clinical records") { db in
            // A clinical record's FHIR resource beside its sample row (kind 5). One resource per (source,
            // resourceType, FHIR id): a newer download replaces the row.
            try db.create(table: "clinicalRecord") { t in
                t.primaryKey("sampleId", .integer).references("sample", onDelete: .cascade)
                t.column("sourceId", .integer).notNull().references("source")
                t.column("resourceType", .text).notNull()
                t.column("identifier", .text).notNull()
                t.column("fhirVersion", .text).notNull()
                t.column("sourceURL", .text)
                t.column("displayName", .text).notNull()
                t.column("data", .blob).notNull()
                t.uniqueKey(["sourceId", "resourceType", "identifier"])
            }
            try db.create(index: "clinicalRecord_resourceType", on: "clinicalRecord", columns: ["resourceType"])
            // Patient resources: kept (they say whose records these are), never surfaced as samples.
            try db.create(table: "fhirPatient") { t in
                t.column("sourceId", .integer).notNull().references("source")
                t.column("identifier", .text).notNull()
                t.column("fhirVersion", .text).notNull()
                t.column("sourceURL", .text)
                t.column("name", .text).notNull()
                t.column("receivedDate", .double).notNull()
                t.column("data", .blob).notNull()
                t.primaryKey(["sourceId", "identifier"])
            }
            // The institutions the person connected: a source each, with the FHIR base URL when known.
            try db.create(table: "clinicalProvider") { t in
                t.primaryKey("sourceId", .integer).references("source")
                t.column("url", .text)
            }
        }
        migrator.registerMigration("v12: verifiable clinical records") { db in
            // SMART Health Cards the person imported: the JWS (the card itself) and the fields read from it, so
            // queries filter in SQL. `verified` is false only for a card the person kept from an unknown issuer.
            try db.create(table: "verifiableRecord") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("uuid", .text).notNull().unique()
                t.column("jws", .text).notNull().unique()
                t.column("sourceType", .text).notNull()
                t.column("verified", .boolean).notNull()
                t.column("issuer", .text).notNull()
                t.column("recordTypes", .text).notNull()  // JSON array
                t.column("itemNames", .text).notNull()    // JSON array
                t.column("subjectName", .text).notNull()
                t.column("birthYear", .integer)
                t.column("birthMonth", .integer)
                t.column("birthDay", .integer)
                t.column("issuedDate", .double).notNull()
                t.column("relevantDate", .double).notNull().indexed()
                t.column("expirationDate", .double)
                t.column("importedAt", .double).notNull()
            }
        }
        migrator.registerMigration("v13: workout routes") { db in
            // Routes are samples of kind 6. SQLite cannot change a CHECK in place; rather than rebuild `sample` again
            // (80 s on a 4.4 M-sample store) the CHECK is widened in the schema text, which SQLite documents as safe
            // when every row meets the new constraint (lang_altertable.html, "other kinds of table schema changes").
            // Widened to 0…15, so later kinds need no change.
            let old = "CHECK (kind IN (0, 1, 2, 3, 4, 5))", new = "CHECK (kind BETWEEN 0 AND 15)"
            let version = try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? 0
            try db.execute(sql: "PRAGMA writable_schema = ON")
            try db.execute(sql: "UPDATE sqlite_master SET sql = replace(sql, ?, ?) WHERE type = 'table' AND name = 'sample'", arguments: [old, new])
            try db.execute(sql: "PRAGMA schema_version = \(version + 1)")
            try db.execute(sql: "PRAGMA writable_schema = OFF")
            guard try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'sample'")?.contains(new) == true else {
                throw HKError(.errorDatabaseInaccessible, "the store's sample table does not have the expected kind constraint")
            }
            // A route's points, in order (CLLocation's fields; accuracies, course and speed negative when unknown).
            try db.create(table: "routeLocation", options: .withoutRowID) { t in
                t.column("sampleId", .integer).notNull().references("sample", onDelete: .cascade)
                t.column("position", .integer).notNull()
                t.column("timestamp", .double).notNull()
                t.column("latitude", .double).notNull()
                t.column("longitude", .double).notNull()
                t.column("altitude", .double).notNull()
                t.column("horizontalAccuracy", .double).notNull()
                t.column("verticalAccuracy", .double).notNull()
                t.column("course", .double).notNull()
                t.column("speed", .double).notNull()
                t.primaryKey(["sampleId", "position"])
            }
        }
        migrator.registerMigration("v14: export elements kept as written") { db in
            // What an Apple Health export holds that the model does not (yet): unknown record types, audiograms,
            // vision prescriptions — each element as written, once — and a record's children such as a heart-rate
            // variability beat list; sidecar files such as electrocardiograms/*.csv. A later export writes them back.
            try db.create(table: "exportElement") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("xml", .text).notNull().unique()
                t.column("importedAt", .double).notNull()
            }
            try db.create(table: "sampleExtra") { t in
                t.primaryKey("sampleId", .integer).references("sample", onDelete: .cascade)
                t.column("xml", .text).notNull()
            }
            try db.create(table: "exportFile") { t in
                t.primaryKey("path", .text)
                t.column("data", .blob).notNull()
                t.column("importedAt", .double).notNull()
            }
        }
        migrator.registerMigration("v15: preferred units") { db in
            // The unit the person wants to see each quantity type in (Health's Settings → Units), chosen by the person
            // or learned from an export (the unit of its latest record); the person's choice is never overwritten.
            try db.create(table: "preferredUnit") { t in
                t.primaryKey("type", .text)
                t.column("unit", .text).notNull()
                t.column("byPerson", .boolean).notNull()
                t.column("updatedAt", .double).notNull()
            }
        }
        migrator.registerMigration("v16: sample types as codes") { db in
            // Each row named its type in full (30 to 60 bytes, again in both (type, date) indexes): rows now hold a
            // 32-bit code (SampleTypeCode), and `sampleType` says which identifier each code stands for.
            try db.create(table: "sampleType") { t in
                t.primaryKey("code", .integer)
                t.column("identifier", .text).notNull().unique()
            }
            try registerSampleTypes(in: db)
            for identifier in try String.fetchAll(db, sql: "SELECT DISTINCT type FROM sample") {
                let code = SampleTypeCode.code(identifier)
                try db.execute(sql: "INSERT OR IGNORE INTO sampleType (code, identifier) VALUES (?, ?)", arguments: [code, identifier])
                guard try String.fetchOne(db, sql: "SELECT identifier FROM sampleType WHERE code = ?", arguments: [code]) == identifier else {
                    throw HKError(.errorDatabaseInaccessible, "the sample types \(identifier) and another have the same code \(code)")
                }
            }
            // Rebuilt (SQLite cannot drop a column that indexes use), keeping row ids and the AUTOINCREMENT counter so
            // anchors stay valid. Foreign keys are off during migrations and checked before commit.
            let sequence = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'sample'")
            try db.create(table: "newSample") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("uuid", .text).notNull().unique()
                t.column("typeCode", .integer).notNull()
                t.column("kind", .integer).notNull().check(sql: "kind BETWEEN 0 AND 15")  // SampleKind
                t.column("startDate", .double).notNull()
                t.column("endDate", .double).notNull()
                t.column("value", .double)
                t.column("originalValue", .double)
                t.column("unit", .text)
                t.column("count", .integer).notNull().defaults(to: 1).check { $0 >= 1 }
                t.column("sourceId", .integer).notNull().references("source")
                t.column("sourceVersion", .text)
                t.column("productType", .text)
                t.column("osVersion", .text)
                t.column("deviceId", .integer).references("device")
                t.column("correlationId", .integer).references("sample", onDelete: .cascade)
                t.column("savedAt", .double).notNull()
                t.check(sql: "endDate >= startDate")
                t.check(sql: "kind != 0 OR (value IS NOT NULL AND unit IS NOT NULL AND originalValue IS NOT NULL)")
            }
            try db.execute(sql: """
                INSERT INTO newSample (id, uuid, typeCode, kind, startDate, endDate, value, originalValue, unit, count, sourceId,
                                       sourceVersion, productType, osVersion, deviceId, correlationId, savedAt)
                SELECT id, uuid, (SELECT code FROM sampleType WHERE identifier = sample.type), kind, startDate, endDate, value,
                       originalValue, unit, count, sourceId, sourceVersion, productType, osVersion, deviceId, correlationId, savedAt
                FROM sample ORDER BY id
                """)
            try db.drop(table: "sample")
            try db.rename(table: "newSample", to: "sample")
            if let sequence {
                try db.execute(sql: "UPDATE sqlite_sequence SET seq = MAX(seq, ?) WHERE name = 'sample'", arguments: [sequence])
                if db.changesCount == 0 {
                    try db.execute(sql: "INSERT INTO sqlite_sequence (name, seq) VALUES ('sample', ?)", arguments: [sequence])
                }
            }
            for index in sampleIndexes { try db.create(index: index.name, on: "sample", columns: index.columns, condition: index.condition) }
        }
        migrator.registerMigration("v17: export identities with creation dates, kept elements by meaning, the person's time zone") { db in
            // Facts about the store as a whole.
            try db.create(table: "storeFlag") { t in
                t.primaryKey("name", .text)
                t.column("value", .integer).notNull()
            }
            // Imports now count an object's creation date in its identity (an app's copies of one workout are distinct
            // objects). Samples an earlier import stored keep their UUIDs: a store that may hold some is flagged, and its
            // imports look each record up under its former UUID too, so that importing again adds nothing twice.
            let imported = try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM sample JOIN source ON source.id = sample.sourceId
                               WHERE source.bundleIdentifier LIKE 'export.%' OR source.bundleIdentifier LIKE 'com.apple.health.%'
                                  OR source.bundleIdentifier = 'com.apple.Health')
                """) ?? false
            if imported { try db.execute(sql: "INSERT INTO storeFlag (name, value) VALUES ('legacyExportIdentities', 1)") }
            // Kept elements are one per meaning, not per spelling: the same record exported at another UTC offset is the
            // same element (ExportElement.identity).
            try db.create(table: "newExportElement") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("xml", .text).notNull()
                t.column("identity", .text).notNull().unique()
                t.column("importedAt", .double).notNull()
            }
            for row in try Row.fetchAll(db, sql: "SELECT id, name, xml, importedAt FROM exportElement ORDER BY id") {
                try db.execute(sql: "INSERT OR IGNORE INTO newExportElement (id, name, xml, identity, importedAt) VALUES (?, ?, ?, ?, ?)",
                               arguments: [row["id"], row["name"], row["xml"], ExportElement.identity(of: row["xml"]), row["importedAt"]])
            }
            try db.drop(table: "exportElement")
            try db.rename(table: "newExportElement", to: "exportElement")
            // The person's time zone (PersonTimeZoneStore): statistics' days begin at their midnight, not the machine's.
            try db.alter(table: "person") { t in
                t.add(column: "timeZone", .text)
                t.add(column: "timeZoneByPerson", .boolean).notNull().defaults(to: false)
            }
        }
        migrator.registerMigration("v18: heartbeat series") { db in
            // Heartbeat series are samples of kind 7 (the kind CHECK allows 0…15 since v13); their beats, in order:
            // seconds since the series' start, and whether beats may be missing before each.
            try db.create(table: "heartbeat", options: .withoutRowID) { t in
                t.column("sampleId", .integer).notNull().references("sample", onDelete: .cascade)
                t.column("position", .integer).notNull()
                t.column("offset", .double).notNull()
                t.column("precededByGap", .boolean).notNull()
                t.primaryKey(["sampleId", "position"])
            }
        }
        migrator.registerMigration("v19: electrocardiograms") { db in
            // Electrocardiograms are samples of kind 8: the ECG app's conclusion, and the voltages (microvolts, one lead,
            // little-endian doubles at the sampling frequency).
            try db.create(table: "electrocardiogram") { t in
                t.primaryKey("sampleId", .integer).references("sample", onDelete: .cascade)
                t.column("classification", .integer).notNull()
                t.column("symptomsStatus", .integer).notNull()
                t.column("averageHeartRate", .double)
                t.column("samplingFrequency", .double)
                t.column("voltages", .blob).notNull()
            }
        }
        migrator.registerMigration("v20: quantity series") { db in
            // The quantities of a series sample (`HKQuantitySeriesSampleBuilder`; a quantity sample whose count is more
            // than 1), in order: each interval, its value in the type's base unit and in the sample's unit.
            try db.create(table: "quantitySeriesEntry", options: .withoutRowID) { t in
                t.column("sampleId", .integer).notNull().references("sample", onDelete: .cascade)
                t.column("position", .integer).notNull()
                t.column("startDate", .double).notNull()
                t.column("endDate", .double).notNull()
                t.column("value", .double).notNull()
                t.column("originalValue", .double).notNull()
                t.primaryKey(["sampleId", "position"])
            }
        }
        migrator.registerMigration("v21: workout route spans") { db in
            // Imports before this version stored routes without recording their longest duration, so a date range
            // starting inside a route missed it.
            try db.execute(sql: """
                INSERT INTO typeSpan (type, maxDuration)
                SELECT t.identifier, MAX(s.endDate - s.startDate) FROM sample s JOIN sampleType t ON t.code = s.typeCode
                WHERE s.kind = 6 GROUP BY t.identifier
                ON CONFLICT (type) DO UPDATE SET maxDuration = MAX(maxDuration, excluded.maxDuration)
                """)
        }
        migrator.registerMigration("v22: correlation member types") { db in
            // The member types each correlation was saved with: they decide which apps may see it, even after members
            // are deleted. A correlation already emptied gets the type code -1, which no app may read: it stays hidden.
            try db.create(table: "correlationMemberType", options: .withoutRowID) { t in
                t.column("correlationId", .integer).notNull().references("sample", onDelete: .cascade)
                t.column("typeCode", .integer).notNull()
                t.primaryKey(["correlationId", "typeCode"])
            }
            try db.execute(sql: """
                INSERT OR IGNORE INTO correlationMemberType (correlationId, typeCode)
                SELECT correlationId, typeCode FROM sample WHERE correlationId IS NOT NULL
                """)
            try db.execute(sql: """
                INSERT OR IGNORE INTO correlationMemberType (correlationId, typeCode)
                SELECT id, -1 FROM sample c WHERE c.kind = 2 AND NOT EXISTS (SELECT 1 FROM sample m WHERE m.correlationId = c.id)
                """)
        }
        migrator.registerMigration("v23: deleted correlations' member types") { db in
            // A deleted correlation is reported to the apps that may read every member type it was saved with.
            try db.create(table: "deletedCorrelationMemberType", options: .withoutRowID) { t in
                t.column("deletedId", .integer).notNull().references("deletedObject", onDelete: .cascade)
                t.column("typeCode", .integer).notNull()
                t.primaryKey(["deletedId", "typeCode"])
            }
        }
        migrator.registerMigration("v24: store secrets") { db in
            // Random keys made on first use: the one that seals the anchors apps get.
            try db.create(table: "storeSecret", options: .withoutRowID) { t in
                t.primaryKey("name", .text)
                t.column("value", .blob).notNull()
            }
        }
        migrator.registerMigration("v25: app registrations") { db in
            // Apps of the daemon (`health serve`): each registration's manifest, the person's decision, and the hashes of
            // the secret that claims its credential and of the credential itself (never the secrets).
            try db.create(table: "appRegistration", options: .withoutRowID) { t in
                t.primaryKey("id", .text)
                t.column("bundleIdentifier", .text).notNull().indexed()
                t.column("manifest", .blob).notNull()
                t.column("state", .text).notNull().check { ["pending", "approved", "denied", "revoked"].contains($0) }
                t.column("secretHash", .blob).notNull()
                t.column("tokenHash", .blob)
                t.column("createdAt", .double).notNull()
                t.column("decidedAt", .double)
                t.column("tokenIssuedAt", .double)
            }
        }
        migrator.registerMigration("v26: access log") { db in
            // What each app read and wrote through the daemon, for the person (`health access-log`): when, which app,
            // which operation on which type, how many objects, and whether it was allowed. Kept for a bounded time.
            try db.create(table: "accessLog") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("time", .double).notNull().indexed()
                t.column("app", .text).notNull()
                t.column("operation", .text).notNull()
                t.column("type", .text)
                t.column("count", .integer).notNull()
                t.column("outcome", .text).notNull()
            }
        }
        migrator.registerMigration("v27: authorization requests waiting for the person") { db in
            // An app's authorization sheet the daemon holds until the person answers it (`health authorize --pending`)
            // or it times out: the types asked (JSON arrays of identifiers) and, once answered, the types allowed.
            try db.create(table: "authorizationRequest", options: .withoutRowID) { t in
                t.primaryKey("id", .text)
                t.column("manifest", .blob).notNull()
                t.column("shareTypes", .text).notNull()
                t.column("readTypes", .text).notNull()
                t.column("requiredReadTypes", .text).notNull()
                t.column("state", .text).notNull().check { ["pending", "decided", "dismissed", "expired"].contains($0) }
                t.column("allowedShare", .text)
                t.column("allowedRead", .text)
                t.column("createdAt", .double).notNull()
                t.column("answeredAt", .double)
            }
        }
        migrator.registerMigration("v28: background deliveries to callback URLs") { db in
            // Each app's callback URL and the key its deliveries are signed with (`health serve` delivers to it).
            try db.create(table: "deliveryCallback", options: .withoutRowID) { t in
                t.primaryKey("app", .text)
                t.column("url", .text).notNull()
                t.column("secret", .blob).notNull()
                t.column("registeredAt", .double).notNull()
            }
            // Per enabled type, the store position up to which its changes were queued, and when the last delivery
            // naming it was queued (its frequency counts from then). Types enabled before this version start now.
            try db.alter(table: "backgroundDelivery") { t in
                t.add(column: "sampleMark", .integer).notNull().defaults(to: 0)
                t.add(column: "deletedMark", .integer).notNull().defaults(to: 0)
                t.add(column: "queuedAt", .double)
            }
            try db.execute(sql: """
                UPDATE backgroundDelivery SET sampleMark = (SELECT IFNULL(MAX(id), 0) FROM sample),
                                              deletedMark = (SELECT IFNULL(MAX(id), 0) FROM deletedObject)
                """)
            // The queue: a delivery stays pending until its callback answers 2xx, or it gives up (failed), or is
            // dropped (cancelled). `uuid` is the id the app sees.
            try db.create(table: "delivery") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("uuid", .text).notNull().unique()
                t.column("app", .text).notNull()
                t.column("types", .text).notNull()
                t.column("createdAt", .double).notNull()
                t.column("state", .text).notNull().check { ["pending", "delivered", "failed", "cancelled"].contains($0) }
                t.column("attempts", .integer).notNull().check { $0 >= 0 }
                t.column("nextAttemptAt", .double).notNull()
                t.column("deliveredAt", .double)
                t.column("lastError", .text)
            }
            try db.create(index: "delivery_pending", on: "delivery", columns: ["app", "id"], condition: Column("state") == "pending")
        }
        migrator.registerMigration("v29: record-sharing sheets waiting for the person") { db in
            // An app's verifiable-record query the daemon holds until the person chooses what to share
            // (`health authorize --pending`) or it times out: the records put before the person (a JSON array of
            // {uuid, verified}) and, once answered, the UUIDs shared.
            try db.create(table: "recordSharingRequest", options: .withoutRowID) { t in
                t.primaryKey("id", .text)
                t.column("manifest", .blob).notNull()
                t.column("candidates", .text).notNull()
                t.column("state", .text).notNull().check { ["pending", "shared", "cancelled", "expired"].contains($0) }
                t.column("shared", .text)
                t.column("createdAt", .double).notNull()
                t.column("answeredAt", .double)
            }
        }
        migrator.registerMigration("v30: replaying the writes made while the store was locked") { db in
            // How far the journal of writes made while locked (`LockedWriteJournal`, named by its random id) has been
            // replayed into the store: the end of the last entry applied. Written after each entry, so it is never ahead
            // of what the store holds; an entry applied but not yet counted is applied again, which changes nothing.
            try db.create(table: "journalReplay", options: .withoutRowID) { t in
                t.primaryKey("journal", .text)
                t.column("appliedThrough", .integer).notNull().check { $0 >= 0 }
            }
        }
        migrator.registerMigration("v31: certificates the person trusts to sign samples") { db in
            // Device manufacturers' certificates: a sample's HKMetadataKeyDigitalSignature counts as verified only when
            // its signer chains to one of these (by the SHA-256 of its DER).
            try db.create(table: "trustedSigner", options: .withoutRowID) { t in
                t.primaryKey("fingerprint", .text)
                t.column("subject", .text).notNull()
                t.column("certificate", .blob).notNull()
                t.column("addedAt", .double).notNull()
            }
        }
        migrator.registerMigration("v32: merged daily statistics kept for the person's charts") { db in
            // Each day's merged statistics of a type in a time zone, as the statistics engine computed them
            // (`DailyStatistics`), so a year's chart combines 365 rows instead of reading every sample. Values are in the
            // type's canonical unit; a day without data is kept with NULLs. Rows with a negative day are a computation's
            // marker: a write of the type removes them, and the computation then keeps nothing.
            try db.create(table: "dailyStatistics", options: .withoutRowID) { t in
                t.column("typeCode", .integer).notNull()
                t.column("day", .double).notNull()
                t.column("zone", .text).notNull()
                t.column("type", .text).notNull()
                t.column("minimum", .double)
                t.column("maximum", .double)
                t.column("average", .double)
                t.column("total", .double)
                t.primaryKey(["typeCode", "day", "zone"])
            }
            // Kept exact by the store itself, whatever writes: a sample written, changed or deleted drops the days it can
            // touch (a day's start lies within two days before its start and its end plus a day and the longest hold of
            // a temporally weighted reading) and every marker of its type; a change of a type's source order drops the
            // type. The WHEN clause keeps imports into a store without kept days at one index seek a row.
            let drop = { (row: String) in """
                DELETE FROM dailyStatistics WHERE typeCode = \(row).typeCode
                    AND (day < 0 OR (day > \(row).startDate - 172800 AND day < \(row).endDate + 87000));
                """ }
            let kept = { (row: String) in "EXISTS (SELECT 1 FROM dailyStatistics WHERE typeCode = \(row).typeCode)" }
            try db.execute(sql: """
                CREATE TRIGGER dailyStatistics_sample_insert AFTER INSERT ON sample WHEN \(kept("NEW")) BEGIN \(drop("NEW")) END;
                CREATE TRIGGER dailyStatistics_sample_delete AFTER DELETE ON sample WHEN \(kept("OLD")) BEGIN \(drop("OLD")) END;
                CREATE TRIGGER dailyStatistics_sample_update AFTER UPDATE ON sample BEGIN \(drop("OLD")) \(drop("NEW")) END;
                CREATE TRIGGER dailyStatistics_priority_insert AFTER INSERT ON sourcePriority BEGIN
                    DELETE FROM dailyStatistics WHERE type = NEW.type; END;
                CREATE TRIGGER dailyStatistics_priority_delete AFTER DELETE ON sourcePriority BEGIN
                    DELETE FROM dailyStatistics WHERE type = OLD.type; END;
                CREATE TRIGGER dailyStatistics_priority_update AFTER UPDATE ON sourcePriority BEGIN
                    DELETE FROM dailyStatistics WHERE type = OLD.type OR type = NEW.type; END;
                """)
        }
        migrator.registerMigration("v33: workout effort relationships") { db in
            // HKHealthStore.relateWorkoutEffortSample: which effort score rates which workout, or one activity of it. A
            // sample rates one workout; deleting the sample, the workout or the activity drops the relationship.
            try db.create(table: "workoutEffort", options: .withoutRowID) { t in
                t.column("sampleId", .integer).notNull().primaryKey().references("sample", onDelete: .cascade)
                t.column("workoutId", .integer).notNull().indexed().references("sample", onDelete: .cascade)
                t.column("activityId", .integer).references("workoutActivity", onDelete: .cascade)
            }
        }
        migrator.registerMigration("v34: states of mind") { db in
            // A state of mind is a sample of kind 9 whose `value` is its valence (−1…+1); here its kind, and its labels and
            // associations as the comma-separated raw values in the order the app gave them ("17,15", or "" for none).
            try db.create(table: "stateOfMind") { t in
                t.primaryKey("sampleId", .integer).references("sample", onDelete: .cascade)
                t.column("kind", .integer).notNull()
                t.column("labels", .text).notNull()
                t.column("associations", .text).notNull()
            }
        }
        migrator.registerMigration("v35: scored assessments") { db in
            // A GAD-7 or PHQ-9 result is a sample of kind 10 whose `value` is its score; here its answers' raw values in
            // question order, comma-separated ("1,0,0,1,0,2,0").
            try db.create(table: "scoredAssessment") { t in
                t.primaryKey("sampleId", .integer).references("sample", onDelete: .cascade)
                t.column("answers", .text).notNull()
            }
        }
        migrator.registerMigration("v36: audiograms") { db in
            // An audiogram is a sample of kind 11; here its sensitivity points as JSON (HKAudiogramSensitivityPoint.Stored:
            // frequency in Hz, each test's sensitivity and clamping bounds in dBHL, side, masking, conduction type).
            try db.create(table: "audiogram") { t in
                t.primaryKey("sampleId", .integer).references("sample", onDelete: .cascade)
                t.column("points", .text).notNull()
            }
        }
        migrator.registerMigration("v37: vision prescriptions") { db in
            // A vision prescription is a sample of kind 12 from its issue date to its expiration (Date.distantFuture when
            // it does not expire); here its type (1 glasses, 2 contacts), the contacts brand, and each eye's lens as JSON
            // (HKLensSpecification.Stored: diopters, degrees, millimetres, the prism in prism diopters and degrees).
            try db.create(table: "visionPrescription") { t in
                t.primaryKey("sampleId", .integer).references("sample", onDelete: .cascade)
                t.column("prescriptionType", .integer).notNull()
                t.column("brand", .text)
                t.column("rightEye", .text)
                t.column("leftEye", .text)
            }
            // Per-object read grants (vision prescriptions): the objects the person chose to let an app read, by UUID, so
            // a deleted object's tombstone stays visible to the apps that could read it.
            try db.create(table: "objectReadGrant", options: .withoutRowID) { t in
                t.column("app", .text).notNull()
                t.column("uuid", .text).notNull()
                t.column("typeCode", .integer).notNull()
                t.column("grantedAt", .double).notNull()
                t.primaryKey(["app", "uuid"])
            }
            // Per-object sheets the daemon parks until the person answers (as recordSharingRequest): the objects listed
            // (UUIDs, JSON) and, once answered, those the app may read.
            try db.create(table: "objectAuthorizationRequest") { t in
                t.primaryKey("id", .text)
                t.column("manifest", .blob).notNull()
                t.column("typeIdentifier", .text).notNull()
                t.column("candidates", .text).notNull()
                t.column("state", .text).notNull()
                t.column("allowed", .text)
                t.column("createdAt", .double).notNull()
                t.column("answeredAt", .double)
            }
        }
        migrator.registerMigration("v38: per-object choices on an app's own objects") { db in
            // As in HealthKit, an app reads the objects it saved by default, but the person may turn them off too: a row
            // now records the person's choice either way (`allowed`), and an object without one is readable only by the
            // app that saved it.
            try db.alter(table: "objectReadGrant") { t in
                t.add(column: "allowed", .boolean).notNull().defaults(to: true)
            }
        }
        migrator.registerMigration("v39: medications") { db in
            // The medications the person tracks (HKUserAnnotatedMedication): one row per concept, with the UUID that
            // per-object grants (`objectReadGrant`) name it by, its codings as JSON (HKClinicalCoding.Stored).
            try db.create(table: "medication") { t in
                t.primaryKey("uuid", .text)
                t.column("conceptId", .text).notNull().unique()
                t.column("displayText", .text).notNull()
                t.column("generalForm", .text).notNull()
                t.column("codings", .text).notNull()
                t.column("nickname", .text)
                t.column("isArchived", .boolean).notNull()
                t.column("hasSchedule", .boolean).notNull()
                t.column("addedAt", .double).notNull()
            }
            // A dose event is a sample of kind 13 at the moment it was logged; here what it says. An app sees it exactly
            // when it may read its medication.
            try db.create(table: "medicationDoseEvent") { t in
                t.primaryKey("sampleId", .integer).references("sample", onDelete: .cascade)
                t.column("conceptId", .text).notNull().indexed()
                t.column("scheduleType", .integer).notNull()
                t.column("scheduledDate", .double)
                t.column("scheduledDose", .double)
                t.column("dose", .double)
                t.column("logStatus", .integer).notNull()
                t.column("unit", .text).notNull()
            }
            // Who may hear of a deleted dose event: the apps that may read its medication, by the medication's UUID (its
            // grants outlive the medication, as tombstones outlive samples).
            try db.create(table: "deletedDoseEvent") { t in
                t.primaryKey("deletedId", .integer).references("deletedObject", onDelete: .cascade)
                t.column("medicationUUID", .text).notNull()
            }
        }
        migrator.registerMigration("v40: kept days dropped by two index ranges") { db in
            // v32's triggers dropped a written sample's days with `day < 0 OR (day > … AND day < …)`, which SQLite runs as
            // a scan of every kept day of the type: once a type's year was kept, each sample written to it cost a scan of
            // 365 rows (an insert 8 times slower). Two statements, one for the markers and one for the days, each an
            // index range on (typeCode, day), drop the same rows.
            let drop = { (row: String) in """
                DELETE FROM dailyStatistics WHERE typeCode = \(row).typeCode AND day < 0;
                DELETE FROM dailyStatistics WHERE typeCode = \(row).typeCode AND day > \(row).startDate - 172800 AND day < \(row).endDate + 87000;
                """ }
            let kept = { (row: String) in "EXISTS (SELECT 1 FROM dailyStatistics WHERE typeCode = \(row).typeCode)" }
            try db.execute(sql: """
                DROP TRIGGER dailyStatistics_sample_insert;
                DROP TRIGGER dailyStatistics_sample_delete;
                DROP TRIGGER dailyStatistics_sample_update;
                CREATE TRIGGER dailyStatistics_sample_insert AFTER INSERT ON sample WHEN \(kept("NEW")) BEGIN \(drop("NEW")) END;
                CREATE TRIGGER dailyStatistics_sample_delete AFTER DELETE ON sample WHEN \(kept("OLD")) BEGIN \(drop("OLD")) END;
                CREATE TRIGGER dailyStatistics_sample_update AFTER UPDATE ON sample BEGIN \(drop("OLD")) \(drop("NEW")) END;
                """)
        }
        return migrator
    }()
}
