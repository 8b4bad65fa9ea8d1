package import Foundation
import GRDB
package import HealthModel

/// One quantity of a series sample: its interval (seconds since 2001), its value in the type's base unit, and its value
/// in the sample's unit.
package struct QuantitySeriesEntry: Sendable, Hashable {
    package var start: Double
    package var end: Double
    package var value: Double
    package var originalValue: Double

    package init(start: Double, end: Double, value: Double, originalValue: Double) {
        self.start = start
        self.end = end
        self.value = value
        self.originalValue = originalValue
    }
}

extension SampleStore {
    /// Saves a series sample (`HKQuantitySeriesSampleBuilder.finishSeries`) and its quantities as `app`, in one
    /// transaction. The sample's count is the number of entries; its quantity their sum or average.
    package func saveSeries(_ sample: HKQuantitySample, entries: [QuantitySeriesEntry], app: AppManifest) throws {
        if try authorization.isGuestMode() {
            throw HKError(.errorNotPermissibleForGuestUserMode, "saving is not permitted in guest mode")
        }
        try checkShare(type: sample.sampleType, app: app)
        let revision = SampleStore.revision(for: app)
        try write { db in
            let sourceId = try SampleStore.sourceId(for: revision.source, in: db, create: true)!
            try SampleStore.recordSpans([sample], in: db)
            try insert(sample, sourceId: sourceId, revision: revision, correlationId: nil, savedAt: Date().timeIntervalSinceReferenceDate, in: db)
            guard let sampleId = try Int64.fetchOne(db, sql: "SELECT id FROM sample WHERE uuid = ?", arguments: [sample.uuid.uuidString]) else {
                throw HKError(.errorDatabaseInaccessible, "series sample \(sample.uuid) was not stored")
            }
            let insertEntry = try db.cachedStatement(sql: """
                INSERT INTO quantitySeriesEntry (sampleId, position, startDate, endDate, value, originalValue) VALUES (?, ?, ?, ?, ?, ?)
                """)
            for (position, entry) in entries.enumerated() {
                try insertEntry.execute(arguments: [sampleId, position, entry.start, entry.end, entry.value, entry.originalValue])
            }
        }
        changes.post([sample.sampleType.identifier])
    }

    /// The quantities of series sample `uuid`, in order (none for a sample holding one quantity). The caller has
    /// checked that the sample is visible to the reader.
    package func seriesEntries(of uuid: UUID) throws -> [QuantitySeriesEntry] {
        try database.read { db in
            guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM sample WHERE uuid = ?", arguments: [uuid.uuidString]) else { return [] }
            return try SampleStore.seriesEntries(sampleId: id, in: db)
        }
    }

    static func seriesEntries(sampleId: Int64, in db: Database) throws -> [QuantitySeriesEntry] {
        try Row.fetchAll(db.cachedStatement(sql: """
            SELECT startDate, endDate, value, originalValue FROM quantitySeriesEntry WHERE sampleId = ? ORDER BY position
            """), arguments: [sampleId])
            .map { QuantitySeriesEntry(start: $0[0], end: $0[1], value: $0[2], originalValue: $0[3]) }
    }

    /// A discrete series sample's minimum, maximum and most recent quantity, from its entries (nil without entries).
    static func seriesSummary(sampleId: Int64, unit: HKUnit, in db: Database) throws -> HKDiscreteQuantitySample.SeriesSummary? {
        let entries = try seriesEntries(sampleId: sampleId, in: db)
        guard let low = entries.min(by: { $0.value < $1.value }), let high = entries.max(by: { $0.value < $1.value }),
              let latest = entries.max(by: { ($0.end, $0.start) < ($1.end, $1.start) }) else { return nil }
        return HKDiscreteQuantitySample.SeriesSummary(
            minimum: HKQuantity(unit: unit, doubleValue: low.originalValue), maximum: HKQuantity(unit: unit, doubleValue: high.originalValue),
            mostRecent: HKQuantity(unit: unit, doubleValue: latest.originalValue),
            mostRecentDateInterval: DateInterval(start: Date(timeIntervalSinceReferenceDate: latest.start),
                                                 end: Date(timeIntervalSinceReferenceDate: latest.end)))
    }
}
