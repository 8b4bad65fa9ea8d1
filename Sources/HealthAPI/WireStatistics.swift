package import Foundation
package import HealthModel

/// `HKStatistics` on the wire, both ways: the daemon writes what it computed, the remote store reads it back into the
/// statistics object an embedded query would have made (same quantities, same date intervals, same sources).
package enum WireStatistics {
    package typealias Statistics = Components.Schemas.Statistics

    package static func wire(_ statistics: HKStatistics) -> Statistics {
        let merged = statistics.merged
        return Statistics(
            startDate: statistics.startDate, endDate: statistics.endDate, sum: merged.sum.map(WireSample.wireQuantity),
            average: merged.average.map(WireSample.wireQuantity), minimum: merged.minimum.map(WireSample.wireQuantity),
            maximum: merged.maximum.map(WireSample.wireQuantity), mostRecent: merged.mostRecent.map(WireSample.wireQuantity),
            mostRecentStartDate: merged.mostRecentDateInterval?.start, mostRecentEndDate: merged.mostRecentDateInterval?.end,
            duration: merged.duration.map(WireSample.wireQuantity),
            sources: statistics.sources?.map { source in
                let values = statistics.bySource[source] ?? .init()
                return .init(source: .init(name: source.name, bundleIdentifier: source.bundleIdentifier),
                             sum: values.sum.map(WireSample.wireQuantity), average: values.average.map(WireSample.wireQuantity),
                             minimum: values.minimum.map(WireSample.wireQuantity), maximum: values.maximum.map(WireSample.wireQuantity),
                             mostRecent: values.mostRecent.map(WireSample.wireQuantity),
                             mostRecentStartDate: values.mostRecentDateInterval?.start, mostRecentEndDate: values.mostRecentDateInterval?.end,
                             duration: values.duration.map(WireSample.wireQuantity))
            })
    }

    /// Each statistics option and its name on the wire.
    private static let options: [(HKStatisticsOptions, Components.Schemas.StatisticsOption)] = [
        (.cumulativeSum, .cumulativeSum), (.discreteAverage, .discreteAverage), (.discreteMin, .discreteMin), (.discreteMax, .discreteMax),
        (.mostRecent, .mostRecent), (.duration, .duration), (.separateBySource, .separateBySource),
    ]

    package static func wire(_ options: HKStatisticsOptions) -> [Components.Schemas.StatisticsOption] {
        Self.options.filter { options.contains($0.0) }.map(\.1)
    }

    package static func options(_ wire: [Components.Schemas.StatisticsOption]) -> HKStatisticsOptions {
        HKStatisticsOptions(Self.options.filter { wire.contains($0.1) }.map(\.0))
    }

    /// A collection's interval components on the wire: `nil` for what the wire does not count in (eras, nanoseconds).
    package static func wire(_ components: DateComponents) -> Components.Schemas.IntervalComponents? {
        guard (components.nanosecond ?? 0) == 0, (components.era ?? 0) == 0 else { return nil }
        return .init(year: components.year, month: components.month, weekOfYear: components.weekOfYear, day: components.day,
                     hour: components.hour, minute: components.minute, second: components.second)
    }

    package static func components(_ wire: Components.Schemas.IntervalComponents) -> DateComponents {
        DateComponents(year: wire.year, month: wire.month, day: wire.day, hour: wire.hour, minute: wire.minute, second: wire.second,
                       weekOfYear: wire.weekOfYear)
    }

    /// The statistics of `type` a response lists (`/statistics/<index>`); `separateBySource` says whether they carry
    /// per-source values (an empty list then, never none, as an embedded query gives).
    package static func stored(_ wires: [Statistics], type: HKQuantityType, separateBySource: Bool) throws -> [HKStatistics] {
        var units: [String: HKUnit] = [:]
        return try wires.enumerated().map { index, wire in
            try stored(wire, type: type, separateBySource: separateBySource, at: "/statistics/\(index)", units: &units)
        }
    }

    /// One statistics object as sent at `pointer`, its unit strings looked up in (or added to) `units`.
    static func stored(_ wire: Statistics, type: HKQuantityType, separateBySource: Bool, at pointer: String,
                       units: inout [String: HKUnit]) throws -> HKStatistics {
        var bySource: [HKSource: HKStatistics.Values]?
        if separateBySource {
            bySource = [:]
            for (position, entry) in (wire.sources ?? []).enumerated() {
                let source = HKSource(name: entry.source.name, bundleIdentifier: entry.source.bundleIdentifier)
                bySource![source] = try values(
                    sum: entry.sum, average: entry.average, minimum: entry.minimum, maximum: entry.maximum, mostRecent: entry.mostRecent,
                    mostRecentStart: entry.mostRecentStartDate, mostRecentEnd: entry.mostRecentEndDate, duration: entry.duration,
                    at: "\(pointer)/sources/\(position)", units: &units)
            }
        }
        let merged = try values(sum: wire.sum, average: wire.average, minimum: wire.minimum, maximum: wire.maximum, mostRecent: wire.mostRecent,
                                mostRecentStart: wire.mostRecentStartDate, mostRecentEnd: wire.mostRecentEndDate, duration: wire.duration,
                                at: pointer, units: &units)
        guard wire.startDate <= wire.endDate else { throw WireFieldError(pointer + "/endDate", "is before startDate") }
        return HKStatistics(quantityType: type, startDate: wire.startDate, endDate: wire.endDate, merged: merged, bySource: bySource)
    }

    private static func values(
        sum: Components.Schemas.Quantity?, average: Components.Schemas.Quantity?, minimum: Components.Schemas.Quantity?,
        maximum: Components.Schemas.Quantity?, mostRecent: Components.Schemas.Quantity?, mostRecentStart: Date?, mostRecentEnd: Date?,
        duration: Components.Schemas.Quantity?, at pointer: String, units: inout [String: HKUnit]
    ) throws -> HKStatistics.Values {
        func quantity(_ wire: Components.Schemas.Quantity?, _ name: String) throws -> HKQuantity? {
            try wire.map { try WireSample.quantity($0, at: "\(pointer)/\(name)", units: &units) }
        }
        var interval: DateInterval?
        if let mostRecentStart, let mostRecentEnd {
            guard mostRecentStart <= mostRecentEnd else { throw WireFieldError(pointer + "/mostRecentEndDate", "is before mostRecentStartDate") }
            interval = DateInterval(start: mostRecentStart, end: mostRecentEnd)
        }
        return HKStatistics.Values(
            sum: try quantity(sum, "sum"), minimum: try quantity(minimum, "minimum"), maximum: try quantity(maximum, "maximum"),
            average: try quantity(average, "average"), mostRecent: try quantity(mostRecent, "mostRecent"), mostRecentDateInterval: interval,
            duration: try quantity(duration, "duration"))
    }
}
