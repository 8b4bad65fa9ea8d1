import Foundation
import GRDB
package import HealthModel

/// Where an anchored query stands: the last sample row and the last tombstone it has delivered. Row ids only
/// grow (AUTOINCREMENT; SQLite commits one writer at a time), so "after the anchor" is "id greater than".
package struct AnchorPosition: Sendable, Hashable, Codable {
    package var sample: Int64
    package var deleted: Int64

    package init(sample: Int64, deleted: Int64) {
        self.sample = sample
        self.deleted = deleted
    }

    package static let start = AnchorPosition(sample: 0, deleted: 0)
}

/// What changed since an anchor, as one app may see it.
package struct AnchoredChanges: Sendable {
    package var samples: [HKSample]
    package var deleted: [HKDeletedObject]
    package var position: AnchorPosition
}

extension SampleStore {
    /// What makes `app`'s anchors opaque, from this store's secret.
    package func anchorSeal(for app: String) throws -> AnchorSeal {
        AnchorSeal(secret: try database.secret(named: "anchor"), app: app)
    }

    /// The samples matching any of `queries` (each a type and an optional filter) saved after `position`, and the
    /// tombstones of those types after it — only as `app` may see them, oldest first, at most `limit` in all
    /// (samples first). The new position comes from the rows returned, so it never reveals rows the app may not see.
    package func anchoredChanges(
        _ queries: [(type: HKSampleType, filter: SampleFilter?)], visibleTo app: String, after position: AnchorPosition, limit: Int?
    ) throws -> AnchoredChanges {
        let (samplesWhere, deletedWhere) = try conditions(queries, visibleTo: app)
        return try database.read { db in
            let sampleLimit: SQL = limit.map { "LIMIT \($0)" } ?? ""
            let rows = try SampleRecord.fetchAll(db, SQLRequest<SampleRecord>(literal: """
                SELECT * FROM sample WHERE id > \(position.sample) AND (\(samplesWhere)) ORDER BY id \(sampleLimit)
                """))
            var next = position
            next.sample = rows.last?.id ?? position.sample
            var deleted: [HKDeletedObject] = []
            let remaining = limit.map { $0 - rows.count }
            if remaining.map({ $0 > 0 }) ?? true {
                let deletedLimit: SQL = remaining.map { "LIMIT \($0)" } ?? ""
                let tombstones = try Row.fetchAll(db, SQLRequest<Row>(literal: """
                    SELECT id, uuid, syncIdentifier, syncVersion FROM deletedObject AS sample
                    WHERE id > \(position.deleted) AND (\(deletedWhere)) ORDER BY id \(deletedLimit)
                    """))
                deleted = tombstones.map(SampleStore.deletedObject(from:))
                next.deleted = tombstones.last?["id"] ?? position.deleted
            }
            return AnchoredChanges(samples: try SampleStore.samples(from: rows, in: db), deleted: deleted, position: next)
        }
    }
}

extension SampleStore {
    /// The conditions on `sample` and on `deletedObject` (aliased `sample`) that keep the rows matching any of
    /// `queries` which `app` may see.
    private func conditions(_ queries: [(type: HKSampleType, filter: SampleFilter?)], visibleTo app: String) throws -> (SQL, SQL) {
        var sampleParts: [SQL] = [], deletedParts: [SQL] = []
        for (type, filter) in queries {
            let visibility = try readVisibility(app: app, type: type.identifier)
            sampleParts.append("(typeCode = \(SampleTypeCode.code(type.identifier)) AND \(visibility.condition()) AND \(try SampleFilter.condition(try self.filter(filter, visibleTo: app), type: type.identifier)))")
            deletedParts.append("(type = \(type.identifier) AND \(visibility.condition(tombstones: true)))")
        }
        return (sampleParts.isEmpty ? "0" : sampleParts.joined(separator: " OR "),
                deletedParts.isEmpty ? "0" : deletedParts.joined(separator: " OR "))
    }

    /// For observer queries: the types of `queries` of which `app` may see something saved or deleted after
    /// `position`, and the store's newest position (every row, seen or not — it is never shown to the app). Each type
    /// is checked on its own, in one snapshot: a type is reported only for what the app may see of it.
    ///
    /// With `shown` (the position the app was last shown, `.start` for a new observer), the answer also has the
    /// position the app may be shown now: the newest row of `queries` it may see. Unlike the store's newest position,
    /// it does not move when only rows the app cannot see are written, so the ids an observer stream sends say nothing
    /// of other apps' activity. It is looked for only when there is something to show (a new observer, or a change):
    /// after `position`, so a write the app cannot see costs no more than before.
    package func observe(
        _ queries: [(type: HKSampleType, filter: SampleFilter?)], visibleTo app: String, after position: AnchorPosition?,
        shown: AnchorPosition? = nil
    ) throws -> (changed: Set<String>, position: AnchorPosition, shown: AnchorPosition?) {
        let conditions = try queries.map { ($0.type.identifier, try self.conditions([$0], visibleTo: app)) }
        let all = shown == nil ? nil : try self.conditions(queries, visibleTo: app)
        return try database.read { db in
            let newest = AnchorPosition(
                sample: try Int64.fetchOne(db, sql: "SELECT IFNULL(MAX(id), 0) FROM sample") ?? 0,
                deleted: try Int64.fetchOne(db, sql: "SELECT IFNULL(MAX(id), 0) FROM deletedObject") ?? 0)
            var changed = Set<String>()
            if let position {
                for (type, (samplesWhere, deletedWhere)) in conditions where !changed.contains(type) {
                    let found = try Bool.fetchOne(db, SQLRequest<Bool>(literal: """
                        SELECT EXISTS (SELECT 1 FROM sample WHERE id > \(position.sample) AND id <= \(newest.sample) AND (\(samplesWhere)))
                            OR EXISTS (SELECT 1 FROM deletedObject AS sample WHERE id > \(position.deleted) AND id <= \(newest.deleted)
                                       AND (\(deletedWhere)))
                        """)) ?? false
                    if found { changed.insert(type) }
                }
            }
            guard let shown, let (samplesWhere, deletedWhere) = all, position == nil || !changed.isEmpty else {
                return (changed, newest, shown)
            }
            let from = position ?? .start
            let visible = AnchorPosition(
                sample: try Int64.fetchOne(db, SQLRequest<Int64>(literal: """
                    SELECT MAX(id) FROM sample WHERE id > \(from.sample) AND id <= \(newest.sample) AND (\(samplesWhere))
                    """)) ?? 0,
                deleted: try Int64.fetchOne(db, SQLRequest<Int64>(literal: """
                    SELECT MAX(id) FROM deletedObject AS sample WHERE id > \(from.deleted) AND id <= \(newest.deleted) AND (\(deletedWhere))
                    """)) ?? 0)
            return (changed, newest, AnchorPosition(sample: max(shown.sample, visible.sample), deleted: max(shown.deleted, visible.deleted)))
        }
    }

    /// The sources of the samples of `type` matching `filter` that `app` may see, by name: one seek per source in the
    /// (sourceId, typeCode) index when nothing else narrows it, rather than a pass over every sample of the type.
    package func sources(ofType type: HKSampleType, matching filter: SampleFilter?, visibleTo app: String) throws -> [HKSource] {
        let visibility = try readVisibility(app: app, type: type.identifier)
        let condition = try SampleFilter.condition(try self.filter(filter, visibleTo: app), type: type.identifier)
        return try database.read { db in
            try Row.fetchAll(db, SQLRequest<Row>(literal: """
                SELECT name, bundleIdentifier FROM source WHERE EXISTS (
                    SELECT 1 FROM sample WHERE sample.sourceId = source.id AND typeCode = \(SampleTypeCode.code(type.identifier))
                                           AND \(visibility.condition()) AND \(condition))
                ORDER BY name, bundleIdentifier
                """)).map { HKSource(name: $0["name"], bundleIdentifier: $0["bundleIdentifier"]) }
        }
    }
}
