package import Foundation
package import GRDB
import HealthModel

/// One person's store: a SQLite file (`health.sqlite`) in a folder, opened in WAL mode so many
/// threads and several processes can use it at once, with its schema created by ordered migrations.
package final class HealthDatabase: Sendable {
    package let writer: DatabasePool
    package let directory: URL

    /// Opens (creating if needed) the store in `directory`.
    package init(directory: URL) throws {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            var configuration = Configuration()
            configuration.foreignKeysEnabled = true
            configuration.busyMode = .timeout(10)
            writer = try DatabasePool(path: directory.appendingPathComponent("health.sqlite").path, configuration: configuration)
            self.directory = directory
            try HealthDatabase.migrator.migrate(writer)
        } catch let error as DatabaseError {
            throw HKError(.errorDatabaseInaccessible, "cannot open the store at \(directory.path): \(error.message ?? "SQLite error \(error.resultCode)")")
        } catch let error as CocoaError {
            throw HKError(.errorDatabaseInaccessible, "cannot create the store folder \(directory.path): \(error.localizedDescription)")
        }
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
        return migrator
    }()
}
