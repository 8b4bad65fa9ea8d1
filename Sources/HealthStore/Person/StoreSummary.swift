package import Foundation
import GRDB
import HealthModel

/// What a store holds, per sample type: how many samples, from when to when, and from which sources — the person's
/// overview (`health summary`), shown at the end of every import. Counted in SQL over the sample indexes alone.
package struct StoreSummary: Sendable {
    package struct TypeSummary: Sendable {
        package let type: String
        package let count: Int
        package let first: Date
        package let last: Date
        /// Source names, most samples first.
        package let sources: [String]
    }

    package let types: [TypeSummary]
    /// Every source with samples: name, bundle identifier and how many samples, most first.
    package let sources: [(name: String, bundleIdentifier: String, count: Int)]

    package init(database: HealthDatabase) throws {
        sources = try database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT source.name, source.bundleIdentifier, COUNT(*) AS count FROM sample JOIN source ON source.id = sample.sourceId
                GROUP BY source.id ORDER BY count DESC, source.name
                """).map { ($0["name"], $0["bundleIdentifier"], $0["count"]) }
        }
        types = try database.read { db in
            // Each part reads one index only (covering): counts and first starts from (typeCode, startDate), the last
            // end per type by one seek in (typeCode, endDate), counts per type and source from (sourceId, typeCode).
            let rows = try Row.fetchAll(db, sql: """
                SELECT typeCode, COUNT(*) AS count, MIN(startDate) AS first,
                       (SELECT MAX(endDate) FROM sample AS later WHERE later.typeCode = sample.typeCode) AS last
                FROM sample GROUP BY typeCode
                """)
            let sourceRows = try Row.fetchAll(db, sql: """
                SELECT sample.typeCode, source.name, COUNT(*) AS count FROM sample JOIN source ON source.id = sample.sourceId
                GROUP BY sample.sourceId, sample.typeCode
                """)
            var sources: [Int64: [(name: String, count: Int)]] = [:]
            for row in sourceRows { sources[row["typeCode"], default: []].append((row["name"], row["count"])) }
            return try rows.map { row in
                let code: Int64 = row["typeCode"]
                guard let type = SampleTypeCode.identifier(code) else {
                    throw HKError(.errorDatabaseInaccessible, "the store holds samples of a type it does not know (code \(code))")
                }
                let names = (sources[code] ?? []).sorted { ($0.count, $1.name) > ($1.count, $0.name) }.map(\.name)
                return TypeSummary(type: type, count: row["count"], first: Date(timeIntervalSinceReferenceDate: row["first"]),
                                   last: Date(timeIntervalSinceReferenceDate: row["last"]), sources: names)
            }.sorted { $0.type < $1.type }
        }
    }
}
