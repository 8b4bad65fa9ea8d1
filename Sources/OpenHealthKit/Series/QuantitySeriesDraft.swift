import Foundation
package import HealthStore

/// A quantity series as `HKQuantitySeriesSampleBuilder` collects it, before it is saved: its type, start, device and the
/// quantities with their intervals. The builder checks each quantity with ``check(_:for:)`` as it is inserted and saves
/// the ``sample()`` this draft makes; the daemon checks and makes the same from what a remote builder sends, so the
/// sample an app gets back and the one the store holds are one and the same.
package struct QuantitySeriesDraft: @unchecked Sendable {
    // @unchecked: HKQuantity, HKDevice and the metadata values are immutable.
    package let type: HKQuantityType
    package let start: Date
    package let device: HKDevice?
    package let uuid: UUID
    /// In start order, no two with the same start.
    package let quantities: [(HKQuantity, DateInterval)]
    package let metadata: [String: HKMetadataValue]?
    package let endDate: Date?

    package init(type: HKQuantityType, start: Date, device: HKDevice?, uuid: UUID = UUID(), quantities: [(HKQuantity, DateInterval)],
                 metadata: [String: HKMetadataValue]?, endDate: Date?) {
        self.type = type
        self.start = start
        self.device = device
        self.uuid = uuid
        self.quantities = quantities.sorted { ($0.1.start, $0.1.end) < ($1.1.start, $1.1.end) }
        self.metadata = metadata
        self.endDate = endDate
    }

    /// What HealthKit refuses of a quantity inserted into a series of `type` starting at `start`: a unit of another
    /// kind, a value that is not finite, a start before the series' start.
    package static func check(_ quantity: HKQuantity, for interval: DateInterval, type: HKQuantityType, start: Date) throws {
        guard quantity.is(compatibleWith: type.canonicalUnit) else {
            throw HKError.invalidArgument("\(quantity) is not a quantity of \(type.identifier) (its unit is \(type.canonicalUnit))")
        }
        guard quantity.doubleValue.isFinite else { throw HKError.invalidArgument("a series quantity must be finite, not \(quantity)") }
        guard interval.start >= start else {
            throw HKError.invalidArgument(
                "a quantity starting at \(interval.start.formatted(.iso8601)) comes before the series' start (\(start.formatted(.iso8601)))")
        }
    }

    /// The sample (sum or average, in the first quantity's unit) and its entries.
    package func sample() throws -> (HKQuantitySample, [QuantitySeriesEntry]) {
        guard !quantities.isEmpty else { throw HKError.invalidArgument("a quantity series needs at least one quantity") }
        let unit = quantities[0].0.unit
        let entries = try quantities.map { quantity, interval in
            QuantitySeriesEntry(start: interval.start.timeIntervalSinceReferenceDate, end: interval.end.timeIntervalSinceReferenceDate,
                                value: try quantity.unit.toBase(quantity.doubleValue), originalValue: quantity.doubleValue(for: unit))
        }
        let lastEnd = quantities.map(\.1.end).max()!
        let end = endDate ?? lastEnd
        guard end >= lastEnd else {
            throw HKError.invalidArgument("the series cannot end (\(end.formatted(.iso8601))) before its last quantity (\(lastEnd.formatted(.iso8601)))")
        }
        let values = entries.map(\.originalValue)
        if type.aggregationStyle == .cumulative {
            let sum = HKQuantity(unit: unit, doubleValue: values.reduce(0, +))
            return (HKQuantitySample.make(type: type, quantity: sum, start: start, end: end, count: entries.count, uuid: uuid,
                                          metadata: metadata, device: device), entries)
        }
        let average = HKQuantity(unit: unit, doubleValue: values.reduce(0, +) / Double(values.count))
        let latest = quantities.max { ($0.1.end, $0.1.start) < ($1.1.end, $1.1.start) }!
        let summary = HKDiscreteQuantitySample.SeriesSummary(
            minimum: HKQuantity(unit: unit, doubleValue: values.min()!), maximum: HKQuantity(unit: unit, doubleValue: values.max()!),
            mostRecent: HKQuantity(unit: unit, doubleValue: latest.0.doubleValue(for: unit)), mostRecentDateInterval: latest.1)
        return (HKDiscreteQuantitySample(type: type, average: average, series: summary, start: start, end: end, count: entries.count,
                                         uuid: uuid, metadata: metadata, sourceRevision: HKObject.unsavedRevision, device: device), entries)
    }
}
