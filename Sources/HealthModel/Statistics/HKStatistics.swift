public import Foundation

/// The result of a statistics calculation over an interval: sum, minimum, maximum, average, most
/// recent value and duration, merged over all sources and, when asked with `.separateBySource`, per source.
///
/// Getters for statistics that were not asked for return `nil`, as in HealthKit:
///
/// ```swift
/// if let steps = statistics.sumQuantity() {
///     print(steps.doubleValue(for: .count()))
/// }
/// ```
///
/// `NSSecureCoding`, as HealthKit's: every value it holds — merged and, when computed by source, per source — comes
/// back exactly, and statistics not computed by source keep ``sources`` `nil`. `NSCopying` gives the statistics
/// themselves: they are immutable.
public final class HKStatistics: NSObject, NSSecureCoding, NSCopying, Sendable {
    /// The quantity type the statistics are about.
    public let quantityType: HKQuantityType
    /// The start of the interval.
    public let startDate: Date
    /// The end of the interval.
    public let endDate: Date
    /// The sources, when the statistics were computed separately by source; otherwise `nil`.
    public let sources: [HKSource]?

    package let merged: Values
    package let bySource: [HKSource: Values]

    /// One set of computed statistics. `nil` means "not asked for" or "no data".
    package struct Values: Sendable, Equatable {
        package var sum: HKQuantity?
        package var minimum: HKQuantity?
        package var maximum: HKQuantity?
        package var average: HKQuantity?
        package var mostRecent: HKQuantity?
        package var mostRecentDateInterval: DateInterval?
        package var duration: HKQuantity?

        package init(
            sum: HKQuantity? = nil, minimum: HKQuantity? = nil, maximum: HKQuantity? = nil, average: HKQuantity? = nil,
            mostRecent: HKQuantity? = nil, mostRecentDateInterval: DateInterval? = nil, duration: HKQuantity? = nil
        ) {
            self.sum = sum
            self.minimum = minimum
            self.maximum = maximum
            self.average = average
            self.mostRecent = mostRecent
            self.mostRecentDateInterval = mostRecentDateInterval
            self.duration = duration
        }
    }

    package init(
        quantityType: HKQuantityType, startDate: Date, endDate: Date,
        merged: Values, bySource: [HKSource: Values]? = nil
    ) {
        self.quantityType = quantityType
        self.startDate = startDate
        self.endDate = endDate
        self.merged = merged
        self.bySource = bySource ?? [:]
        self.sources = bySource.map { $0.keys.sorted { $0.bundleIdentifier < $1.bundleIdentifier } }
    }

    // MARK: NSSecureCoding, NSCopying

    private enum Key {
        static let quantityType = "quantityType"
        static let startDate = "startDate"
        static let endDate = "endDate"
        static let merged = "merged."
        static let sources = "sources"
        /// The prefix of the values of the source at `index` in ``HKStatistics/sources``.
        static func source(_ index: Int) -> String { "source\(index)." }
    }

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        coder.encode(quantityType, forKey: Key.quantityType)
        coder.encodeDate(startDate, forKey: Key.startDate)
        coder.encodeDate(endDate, forKey: Key.endDate)
        merged.encode(with: coder, prefix: Key.merged)
        guard let sources else { return }
        coder.encode(sources, forKey: Key.sources)
        for (index, source) in sources.enumerated() {
            bySource[source, default: Values()].encode(with: coder, prefix: Key.source(index))
        }
    }

    public required convenience init?(coder: NSCoder) {
        guard case let (type, start, end, merged, bySource)? = coder.decodeValid("HKStatistics", {
            let start = try coder.decodeDate(forKey: Key.startDate), end = try coder.decodeDate(forKey: Key.endDate)
            guard end >= start else { throw ArchiveError.invalid("the statistics' interval ends before it starts") }
            var bySource: [HKSource: Values]?
            if let sources = try coder.decodeIfPresent([HKSource].self, forKey: Key.sources) {
                var values: [HKSource: Values] = [:]
                for (index, source) in sources.enumerated() {
                    guard values.updateValue(try Values(coder: coder, prefix: Key.source(index)), forKey: source) == nil else {
                        throw ArchiveError.invalid("the statistics name \(source.bundleIdentifier) twice")
                    }
                }
                bySource = values
            }
            return (try coder.decode(HKQuantityType.self, forKey: Key.quantityType), start, end, try Values(coder: coder, prefix: Key.merged),
                    bySource)
        }) else { return nil }
        self.init(quantityType: type, startDate: start, endDate: end, merged: merged, bySource: bySource)
    }

    /// Statistics are immutable: a copy is the statistics themselves.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    public func sumQuantity() -> HKQuantity? { merged.sum }
    public func sumQuantity(for source: HKSource) -> HKQuantity? { bySource[source]?.sum }
    public func minimumQuantity() -> HKQuantity? { merged.minimum }
    public func minimumQuantity(for source: HKSource) -> HKQuantity? { bySource[source]?.minimum }
    public func maximumQuantity() -> HKQuantity? { merged.maximum }
    public func maximumQuantity(for source: HKSource) -> HKQuantity? { bySource[source]?.maximum }
    public func averageQuantity() -> HKQuantity? { merged.average }
    public func averageQuantity(for source: HKSource) -> HKQuantity? { bySource[source]?.average }
    public func mostRecentQuantity() -> HKQuantity? { merged.mostRecent }
    public func mostRecentQuantity(for source: HKSource) -> HKQuantity? { bySource[source]?.mostRecent }
    public func mostRecentQuantityDateInterval() -> DateInterval? { merged.mostRecentDateInterval }
    public func mostRecentQuantityDateInterval(for source: HKSource) -> DateInterval? { bySource[source]?.mostRecentDateInterval }
    public func duration() -> HKQuantity? { merged.duration }
    public func duration(for source: HKSource) -> HKQuantity? { bySource[source]?.duration }
}

extension HKStatistics.Values {
    private static var quantityKeys: [(String, WritableKeyPath<Self, HKQuantity?>)] {
        [
            ("sum", \.sum), ("minimum", \.minimum), ("maximum", \.maximum), ("average", \.average), ("mostRecent", \.mostRecent),
            ("duration", \.duration),
        ]
    }

    /// Encodes the values present, each under `prefix` and its name; absent ones encode nothing.
    fileprivate func encode(with coder: NSCoder, prefix: String) {
        for (name, path) in Self.quantityKeys {
            coder.encodeIfPresent(self[keyPath: path], forKey: prefix + name)
        }
        if let mostRecentDateInterval { coder.encodeDateInterval(mostRecentDateInterval, forKey: prefix + "mostRecentDate") }
    }

    fileprivate init(coder: NSCoder, prefix: String) throws {
        self.init()
        for (name, path) in Self.quantityKeys {
            self[keyPath: path] = try coder.decodeIfPresent(HKQuantity.self, forKey: prefix + name)
        }
        mostRecentDateInterval = try coder.decodeDateIntervalIfPresent(forKey: prefix + "mostRecentDate")
    }
}
