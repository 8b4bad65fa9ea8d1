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

    /// Daily activity summaries and health records stored.
    package let activitySummaries: Int
    package let clinicalRecords: Int

    package init(database: HealthDatabase) throws {
        (types, sources, activitySummaries, clinicalRecords) = try database.read { db in
            // Each part reads one index only (covering): counts and first starts from (typeCode, startDate), the last
            // end per type by one seek in (typeCode, endDate), counts per type and source from (sourceId, typeCode) —
            // which also give each source's total.
            let rows = try Row.fetchAll(db, sql: """
                SELECT typeCode, COUNT(*) AS count, MIN(startDate) AS first,
                       (SELECT MAX(endDate) FROM sample AS later WHERE later.typeCode = sample.typeCode) AS last
                FROM sample GROUP BY typeCode
                """)
            let sourceRows = try Row.fetchAll(db, sql: """
                SELECT sample.typeCode, sample.sourceId, source.name, source.bundleIdentifier, COUNT(*) AS count
                FROM sample JOIN source ON source.id = sample.sourceId
                GROUP BY sample.sourceId, sample.typeCode
                """)
            var byType: [Int64: [(name: String, count: Int)]] = [:]
            var bySource: [Int64: (name: String, bundleIdentifier: String, count: Int)] = [:]
            for row in sourceRows {
                let count: Int = row["count"]
                byType[row["typeCode"], default: []].append((row["name"], count))
                bySource[row["sourceId"], default: (row["name"], row["bundleIdentifier"], 0)].count += count
            }
            let types = try rows.map { row in
                let code: Int64 = row["typeCode"]
                guard let type = SampleTypeCode.identifier(code) else {
                    throw HKError(.errorDatabaseInaccessible, "the store holds samples of a type it does not know (code \(code))")
                }
                let names = (byType[code] ?? []).sorted { ($0.count, $1.name) > ($1.count, $0.name) }.map(\.name)
                return TypeSummary(type: type, count: row["count"], first: Date(timeIntervalSinceReferenceDate: row["first"]),
                                   last: Date(timeIntervalSinceReferenceDate: row["last"]), sources: names)
            }.sorted { $0.type < $1.type }
            let sources = bySource.values.sorted { ($0.count, $1.name) > ($1.count, $0.name) }
            let others = try Self.otherCounts(db)
            return (types, sources, others.activitySummaries, others.clinicalRecords)
        }
    }
}

extension StoreSummary {
    /// Each sample type the store holds with its first start and last end, by index seeks alone — a loose scan of
    /// (typeCode, endDate) for the types, one seek each for the ends — so its cost grows with the number of types, not
    /// of samples (the web Summary; `init` counts every sample, which a year of heart rate makes slow).
    package static func spans(in database: HealthDatabase) throws -> [(type: String, first: Date, last: Date)] {
        try database.read { db in
            try Row.fetchAll(db, sql: """
                WITH RECURSIVE present(code) AS (
                    SELECT MIN(typeCode) FROM sample
                    UNION ALL
                    SELECT (SELECT MIN(typeCode) FROM sample WHERE typeCode > present.code) FROM present WHERE present.code IS NOT NULL
                )
                SELECT code, (SELECT MIN(startDate) FROM sample WHERE typeCode = present.code) AS first,
                       (SELECT MAX(endDate) FROM sample WHERE typeCode = present.code) AS last
                FROM present WHERE code IS NOT NULL
                """).map { row in
                let code: Int64 = row["code"]
                guard let type = SampleTypeCode.identifier(code) else {
                    throw HKError(.errorDatabaseInaccessible, "the store holds samples of a type it does not know (code \(code))")
                }
                return (type, Date(timeIntervalSinceReferenceDate: row["first"]), Date(timeIntervalSinceReferenceDate: row["last"]))
            }
        }
    }

    /// Daily activity summaries and health records stored.
    package static func otherCounts(in database: HealthDatabase) throws -> (activitySummaries: Int, clinicalRecords: Int) {
        try database.read(otherCounts)
    }

    private static func otherCounts(_ db: Database) throws -> (activitySummaries: Int, clinicalRecords: Int) {
        (try Int.fetchOne(db, sql: "SELECT count(*) FROM activitySummary") ?? 0, try Int.fetchOne(db, sql: "SELECT count(*) FROM clinicalRecord") ?? 0)
    }
}

extension StoreSummary {
    /// Every source with samples (name, bundle identifier), by name: one index seek per source, no count.
    package static func sourcesPresent(in database: HealthDatabase) throws -> [(name: String, bundleIdentifier: String)] {
        try database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT name, bundleIdentifier FROM source WHERE EXISTS (SELECT 1 FROM sample WHERE sample.sourceId = source.id)
                ORDER BY name COLLATE NOCASE, bundleIdentifier
                """).map { ($0["name"], $0["bundleIdentifier"]) }
        }
    }
}
