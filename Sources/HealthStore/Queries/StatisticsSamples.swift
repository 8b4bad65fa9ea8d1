import Foundation
import GRDB
package import HealthModel

/// The input of a statistics calculation: the samples one app may see, and their sources in priority order
/// (`Sample.sourceRank` indexes `sources`, which holds only the sources of those samples).
package struct StatisticsSamples: Sendable {
    package var samples: [StatisticsCalculator.Sample]
    package var sources: [HKSource]
}

extension SampleStore {
    /// The samples of `type` that `app` may see and that match `filter`, restricted to those overlapping
    /// `[from, to)` when given (an instant at `from` counts). One indexed range scan; values stay in base units.
    package func statisticsSamples(
        of type: HKQuantityType, matching filter: SampleFilter?, visibleTo app: String, from: Double? = nil, to: Double? = nil
    ) throws -> StatisticsSamples {
        let visibility = try readVisibility(app: app, type: type.identifier)
        let condition = try SampleFilter.condition(try self.filter(filter, visibleTo: app), type: type.identifier)
        var window: [SQL] = []
        if let from {
            window.append("+sample.endDate >= \(from)")  // + : let the start-date range pick the index
            window.append("sample.startDate >= \(from) - IFNULL((SELECT maxDuration FROM typeSpan WHERE type = \(type.identifier)), 0)")
        }
        if let to { window.append("sample.startDate < \(to)") }
        let windowCondition: SQL = window.isEmpty ? "1" : window.joined(separator: " AND ")
        return try database.read { db in
            let ranked = try SourcePriorityStore.rankedSources(for: type.identifier, in: db)
            var rankOf: [Int64: Int] = [:]
            for (rank, entry) in ranked.enumerated() { rankOf[entry.id] = rank }
            var samples: [StatisticsCalculator.Sample] = []
            let request = SQLRequest<Row>(literal: """
                SELECT startDate, endDate, value, sourceId, savedAt, count, id FROM sample
                WHERE typeCode = \(SampleTypeCode.code(type.identifier)) AND \(windowCondition) AND \(visibility.condition()) AND \(condition)
                ORDER BY startDate
                """)
            let rows = try Row.fetchCursor(db, request)
            var expanded = false
            while let row = try rows.next() {
                let sourceId: Int64 = row[3]
                let rank = rankOf[sourceId] ?? ranked.count
                // A series sample counts by its quantities, each over its own interval, as in HealthKit.
                if row[5] as Int > 1, case let entries = try SampleStore.seriesEntries(sampleId: row[6], in: db), !entries.isEmpty {
                    for entry in entries {
                        samples.append(StatisticsCalculator.Sample(start: entry.start, end: entry.end, value: entry.value, sourceRank: rank,
                                                                   savedAt: row[4]))
                    }
                    expanded = true
                    continue
                }
                samples.append(StatisticsCalculator.Sample(start: row[0], end: row[1], value: row[2] ?? 0, sourceRank: rank, savedAt: row[4]))
            }
            if expanded { samples.sort { $0.start < $1.start } }
            // Ranks among the sources of what the app sees, not among every source: a source it may not see coming or
            // going (another app's first or last sample) must not renumber the ones it does see.
            let all = ranked.map(\.source)
            let present = Set(samples.lazy.map(\.sourceRank).filter { $0 < all.count }).sorted()
            if present.count < all.count {
                var dense = [Int: Int](minimumCapacity: present.count)
                for (index, rank) in present.enumerated() { dense[rank] = index }
                for index in samples.indices { samples[index].sourceRank = dense[samples[index].sourceRank] ?? present.count }
            }
            return StatisticsSamples(samples: samples, sources: present.map { all[$0] })
        }
    }
}
