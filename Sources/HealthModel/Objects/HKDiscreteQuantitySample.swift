public import Foundation

/// A quantity sample of a discrete type (heart rate, body mass…), whose values are averaged, not added.
/// For a series sample (``HKQuantitySample/count`` > 1) it summarises the series.
///
/// ```swift
/// if let hr = sample as? HKDiscreteQuantitySample { print(hr.minimumQuantity, hr.maximumQuantity) }
/// ```
///
/// `NSSecureCoding`: a series sample archives its summary (minimum, maximum, most recent value and when) with the
/// average and count.
public final class HKDiscreteQuantitySample: HKQuantitySample, @unchecked Sendable {
    /// The summary of a series; `nil` for a single value, whose statistics are the value itself.
    package let series: SeriesSummary?

    /// The minimum, maximum and most recent values of a series the sample stands for.
    package struct SeriesSummary: Sendable {
        package let minimum: HKQuantity
        package let maximum: HKQuantity
        package let mostRecent: HKQuantity
        package let mostRecentDateInterval: DateInterval

        package init(minimum: HKQuantity, maximum: HKQuantity, mostRecent: HKQuantity, mostRecentDateInterval: DateInterval) {
            self.minimum = minimum
            self.maximum = maximum
            self.mostRecent = mostRecent
            self.mostRecentDateInterval = mostRecentDateInterval
        }
    }

    package override init(
        type: HKQuantityType, quantity: HKQuantity, start: Date, end: Date, count: Int = 1,
        uuid: UUID = UUID(), metadata: [String: HKMetadataValue]?,
        sourceRevision: HKSourceRevision = HKObject.unsavedRevision, device: HKDevice?
    ) {
        self.series = nil
        super.init(type: type, quantity: quantity, start: start, end: end, count: count,
                   uuid: uuid, metadata: metadata, sourceRevision: sourceRevision, device: device)
    }

    /// A series sample: `average` is its quantity, `count` the number of values.
    package init(
        type: HKQuantityType, average: HKQuantity, series: SeriesSummary, start: Date, end: Date, count: Int,
        uuid: UUID, metadata: [String: HKMetadataValue]?, sourceRevision: HKSourceRevision, device: HKDevice?
    ) {
        self.series = series
        super.init(type: type, quantity: average, start: start, end: end, count: count,
                   uuid: uuid, metadata: metadata, sourceRevision: sourceRevision, device: device)
    }

    // MARK: NSSecureCoding

    private enum Key {
        static let minimum = "seriesMinimum"
        static let maximum = "seriesMaximum"
        static let mostRecent = "seriesMostRecent"
        static let mostRecentDateInterval = "seriesMostRecentDate"
    }

    public override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        guard let series else { return }
        coder.encode(series.minimum, forKey: Key.minimum)
        coder.encode(series.maximum, forKey: Key.maximum)
        coder.encode(series.mostRecent, forKey: Key.mostRecent)
        coder.encodeDateInterval(series.mostRecentDateInterval, forKey: Key.mostRecentDateInterval)
    }

    public required convenience init?(coder: NSCoder) {
        guard case let (fields, series)? = coder.decodeValid("HKDiscreteQuantitySample", { () throws -> (CodedFields, SeriesSummary?) in
            let fields = try CodedFields(coder: coder, of: HKDiscreteQuantitySample.self)
            guard coder.containsValue(forKey: Key.minimum) else { return (fields, nil) }
            let series = SeriesSummary(
                minimum: try coder.decode(HKQuantity.self, forKey: Key.minimum), maximum: try coder.decode(HKQuantity.self, forKey: Key.maximum),
                mostRecent: try coder.decode(HKQuantity.self, forKey: Key.mostRecent),
                mostRecentDateInterval: try coder.decodeDateInterval(forKey: Key.mostRecentDateInterval))
            for quantity in [series.minimum, series.maximum, series.mostRecent] where !quantity.is(compatibleWith: fields.quantity.unit) {
                throw ArchiveError.invalid("a series value in \(quantity.unit.unitString) does not fit \(fields.type.identifier)")
            }
            return (fields, series)
        }) else { return nil }
        let object = fields.sample.object
        if let series {
            self.init(type: fields.type, average: fields.quantity, series: series, start: fields.sample.start, end: fields.sample.end,
                      count: fields.count, uuid: object.uuid, metadata: object.metadata, sourceRevision: object.sourceRevision,
                      device: object.device)
        } else {
            self.init(type: fields.type, quantity: fields.quantity, start: fields.sample.start, end: fields.sample.end, count: fields.count,
                      uuid: object.uuid, metadata: object.metadata, sourceRevision: object.sourceRevision, device: object.device)
        }
    }

    /// The smallest value in the sample.
    public var minimumQuantity: HKQuantity { series?.minimum ?? quantity }
    /// The average of the values in the sample.
    public var averageQuantity: HKQuantity { quantity }
    /// The largest value in the sample.
    public var maximumQuantity: HKQuantity { series?.maximum ?? quantity }
    /// The most recent value in the sample.
    public var mostRecentQuantity: HKQuantity { series?.mostRecent ?? quantity }
    /// When the most recent value was measured.
    public var mostRecentQuantityDateInterval: DateInterval {
        series?.mostRecentDateInterval ?? DateInterval(start: startDate, end: endDate)
    }
}
