package import Foundation
import HealthModel
package import HealthStore
package import Logging
package import OpenHealthKit

/// The days of a chart from the store's kept daily statistics (``DailyStatistics``): the days kept are read, the
/// missing ones computed by the statistics engine (merged, in the person's time zone, a day each) and kept for the next
/// time. A month's chart shows the days as they are; a year's combines them by month: the totals added, the lowest
/// minimum and the highest maximum, and the average of the days' averages.
package struct ChartDays {
    let person: HealthPerson
    let database: HealthDatabase

    package init(person: HealthPerson, database: HealthDatabase) {
        self.person = person
        self.database = database
    }

    /// Each day of `interval` (days starting at midnight in `calendar`'s time zone), in the type's canonical unit.
    func days(of type: HKQuantityType, in interval: DateInterval, calendar: Calendar) async throws -> [DailyStatistics.Day] {
        var starts: [Date] = []
        var cursor = interval.start
        while cursor < interval.end {
            starts.append(cursor)
            guard let next = calendar.date(byAdding: .day, value: 1, to: cursor) else { break }
            cursor = next
        }
        let kept = DailyStatistics(database: database)
        var found = try kept.days(of: type.identifier, zone: calendar.timeZone, starts: starts)
        let missing = starts.filter { found[$0] == nil }
        if let first = missing.first, let last = missing.last, let end = calendar.date(byAdding: .day, value: 1, to: last) {
            let computation = try kept.begin(type.identifier, zone: calendar.timeZone)
            do {
                let computed = try await compute(type, from: first, to: end, calendar: calendar)
                let fresh = missing.map { computed[$0] ?? DailyStatistics.Day(start: $0) }
                try kept.keep(fresh, of: computation)
                for day in fresh { found[day.start] = day }
            } catch {
                kept.abandon(computation)
                throw error
            }
        }
        return starts.map { found[$0] ?? DailyStatistics.Day(start: $0) }
    }

    /// The engine's merged statistics of each day from `start` to `end`.
    private func compute(_ type: HKQuantityType, from start: Date, to end: Date, calendar: Calendar) async throws -> [Date: DailyStatistics.Day] {
        let cumulative = type.aggregationStyle == .cumulative
        var descriptor = HKStatisticsCollectionQueryDescriptor(
            predicate: .quantitySample(type: type, predicate: HKQuery.predicateForSamples(withStart: start, end: end)),
            options: cumulative ? .cumulativeSum : [.discreteAverage, .discreteMin, .discreteMax],
            anchorDate: start, intervalComponents: DateComponents(day: 1))
        descriptor.calendar = calendar
        let unit = type.canonicalUnit
        var days: [Date: DailyStatistics.Day] = [:]
        for statistics in try await descriptor.result(for: person.healthStore).statistics() {
            days[statistics.startDate] = DailyStatistics.Day(
                start: statistics.startDate, minimum: statistics.minimumQuantity()?.doubleValue(for: unit),
                maximum: statistics.maximumQuantity()?.doubleValue(for: unit), average: statistics.averageQuantity()?.doubleValue(for: unit),
                total: statistics.sumQuantity()?.doubleValue(for: unit))
        }
        return days
    }

    /// The chart's buckets (each starting at one of `starts`) from the days: a day each, or the days of each bucket
    /// combined; figures converted to `unit`.
    static func buckets(_ buckets: [SVGChart.Bucket], starts: [Date], days: [DailyStatistics.Day], type: HKQuantityType,
                        unit: HKUnit) -> [SVGChart.Bucket] {
        let canonical = type.canonicalUnit
        func convert(_ value: Double?) -> Double? { value.map { HKQuantity(unit: canonical, doubleValue: $0).doubleValue(for: unit) } }
        var result = buckets
        for (index, start) in starts.enumerated() {
            let end = index + 1 < starts.count ? starts[index + 1] : .distantFuture
            let inside = days.filter { $0.start >= start && $0.start < end }
            if type.aggregationStyle == .cumulative {
                let totals = inside.compactMap(\.total)
                result[index].value = totals.isEmpty ? nil : convert(totals.reduce(0, +))
            } else {
                let averages = inside.compactMap(\.average)
                result[index].value = averages.isEmpty ? nil : convert(averages.reduce(0, +) / Double(averages.count))
                result[index].minimum = convert(inside.compactMap(\.minimum).min())
                result[index].maximum = convert(inside.compactMap(\.maximum).max())
            }
        }
        return result
    }
}

extension ChartDays {
    /// Computes and keeps the days of the last year of every quantity type with data (ending at its last sample), so
    /// nobody meets a cold year's chart: run in the background when the daemon starts (or first unlocks) and after an
    /// import, the web app's or `health import`'s. Days kept already are only read; a store that cannot be read now
    /// (locked) is left for later.
    package func warmUp(calendar: () throws -> Calendar, logger: Logger?) async {
        do {
            let calendar = try calendar()
            for span in try person.typeSpans() {
                guard let type = span.type as? HKQuantityType, !Task.isCancelled else { continue }
                let interval = TypePage.interval(.year, endingOn: span.last.addingTimeInterval(-0.001), calendar: calendar)
                _ = try await days(of: type, in: interval, calendar: calendar)
            }
        } catch {
            logger?.debug("the charts' days were not all kept ahead", metadata: ["error": "\(error)"])
        }
    }
}
