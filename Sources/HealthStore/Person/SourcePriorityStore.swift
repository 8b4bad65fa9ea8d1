import Foundation
import GRDB
package import HealthModel

/// The person's per-type order of sources: when several sources recorded the same stretch of time, the
/// first in this order wins in merged statistics. Sources the person has not placed follow the placed ones,
/// in the order they first wrote the type.
package struct SourcePriorityStore: Sendable {
    package let database: HealthDatabase

    package init(database: HealthDatabase) {
        self.database = database
    }

    /// The order for a type: the person's placed sources, then every other source with samples of the type in the
    /// default order (see `rankedSources(for:in:)`).
    package func order(for type: HKSampleType) throws -> [HKSource] {
        try database.read { db in try SourcePriorityStore.rankedSources(for: type.identifier, in: db).map(\.source) }
    }

    /// The sources of a type in priority order, highest first, with their row ids. The person's placed sources come
    /// first; the rest follow the Health app's default (support.apple.com/HT204351 and the query issue): the
    /// person's manual entries (the Health app, `com.apple.Health`), then the person's Apple devices — watches
    /// before phones (`com.apple.health.*` sources, told apart by the product type of their samples) — then apps
    /// in the order they first wrote the type.
    static func rankedSources(for type: String, in db: Database) throws -> [(id: Int64, source: HKSource)] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT source.id, source.bundleIdentifier, source.name FROM sourcePriority JOIN source ON source.id = sourcePriority.sourceId
            WHERE sourcePriority.type = ? ORDER BY sourcePriority.position
            """, arguments: [type])
        + Row.fetchAll(db, sql: """
            SELECT * FROM (
                SELECT source.id, source.bundleIdentifier, source.name,
                       (SELECT id FROM sample WHERE sample.sourceId = source.id AND sample.typeCode = ?2 ORDER BY id LIMIT 1) AS firstSample,
                       (SELECT productType FROM sample WHERE sample.sourceId = source.id AND sample.typeCode = ?2 ORDER BY id LIMIT 1)
                           LIKE 'Watch%' AS isWatch
                FROM source
                WHERE source.id NOT IN (SELECT sourceId FROM sourcePriority WHERE type = ?1))
            WHERE firstSample IS NOT NULL
            ORDER BY CASE
                       WHEN bundleIdentifier = 'com.apple.Health' THEN 0
                       WHEN bundleIdentifier LIKE 'com.apple.health.%' AND isWatch THEN 1
                       WHEN bundleIdentifier LIKE 'com.apple.health.%' THEN 2
                       ELSE 3
                     END, firstSample
            """, arguments: [type, SampleTypeCode.code(type)])
        return rows.map { (id: $0["id"], source: HKSource(name: $0["name"], bundleIdentifier: $0["bundleIdentifier"])) }
    }

    /// Places `bundleIdentifiers` first, in this order, for `type`, replacing the previous order. Each must be an
    /// app the store knows (it registered or saved data); none may repeat.
    package func setOrder(_ bundleIdentifiers: [String], for type: HKSampleType) throws {
        var seen = Set<String>()
        for id in bundleIdentifiers where !seen.insert(id).inserted {
            throw HKError.invalidArgument("\(id) appears twice in the source order for \(type.identifier)")
        }
        try database.write { db in
            try db.execute(sql: "DELETE FROM sourcePriority WHERE type = ?", arguments: [type.identifier])
            for (position, id) in bundleIdentifiers.enumerated() {
                let sourceId: Int64
                if let existing = try Int64.fetchOne(db, sql: "SELECT id FROM source WHERE bundleIdentifier = ?", arguments: [id]) {
                    sourceId = existing
                } else if let name = try String.fetchOne(db, sql: "SELECT name FROM app WHERE bundleIdentifier = ?", arguments: [id]) {
                    try db.execute(sql: "INSERT INTO source (bundleIdentifier, name) VALUES (?, ?)", arguments: [id, name])
                    sourceId = db.lastInsertedRowID
                } else {
                    throw HKError.invalidArgument("no source \"\(id)\" is known to this store")
                }
                try db.execute(sql: "INSERT INTO sourcePriority (type, sourceId, position) VALUES (?, ?, ?)",
                               arguments: [type.identifier, sourceId, position])
            }
        }
    }
}
