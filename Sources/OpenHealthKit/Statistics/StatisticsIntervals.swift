import Foundation

/// The intervals of a statistics collection: interval k is `[anchor + k·components, anchor + (k+1)·components)`,
/// each computed from the anchor with the calendar (so no drift, month ends clamp relative to the anchor, and
/// days follow the wall clock: 23 or 25 hours on DST days), half-open.
package struct StatisticsIntervals: Sendable {
    package let anchor: Date
    package let components: DateComponents
    package let calendar: Calendar
    /// Roughly one interval, to guess an index before correcting it.
    private let approximateLength: Double

    private static let fields: [Calendar.Component] = [.era, .year, .month, .weekOfYear, .day, .hour, .minute, .second, .nanosecond]

    package init(anchor: Date, components: DateComponents, calendar: Calendar) throws {
        let values = Self.fields.compactMap { components.value(for: $0) }
        guard !values.isEmpty, values.allSatisfy({ $0 >= 0 }), values.contains(where: { $0 > 0 }) else {
            throw HKError.invalidArgument(
                "intervalComponents \(components) must set at least one of year, month, weekOfYear, day, hour, minute, second or nanosecond to a positive value, and none negative")
        }
        self.anchor = anchor
        self.components = components
        self.calendar = calendar
        guard let next = calendar.date(byAdding: components, to: anchor), next > anchor else {
            throw HKError.invalidArgument("intervalComponents \(components) do not advance from the anchor date \(anchor)")
        }
        approximateLength = next.timeIntervalSince(anchor)
    }

    /// The start of interval `k`.
    func start(of k: Int) -> Date {
        var scaled = DateComponents()
        for field in Self.fields {
            if let value = components.value(for: field) { scaled.setValue(value * k, for: field) }
        }
        return calendar.date(byAdding: scaled, to: anchor) ?? anchor.addingTimeInterval(approximateLength * Double(k))
    }

    /// The index of the interval holding `date`.
    func index(containing date: Date) -> Int {
        var k = Int((date.timeIntervalSince(anchor) / approximateLength).rounded(.down))
        while start(of: k) > date { k -= 1 }
        while start(of: k + 1) <= date { k += 1 }
        return k
    }

    /// The interval `k` as a date interval.
    func interval(_ k: Int) -> DateInterval { DateInterval(start: start(of: k), end: start(of: k + 1)) }
}

extension StatisticsIntervals {
    /// The runs of consecutive intervals within `bounds` that `spans` touch, in time order: a span `[start, end)`
    /// touches every interval it overlaps, an instant (`end <= start`) the interval holding it. The cost follows
    /// the intervals touched and the gaps between them, never the calendar distance across a gap.
    func runs(touchedBy spans: [(start: Date, end: Date)], within bounds: ClosedRange<Int>) -> [ClosedRange<Int>] {
        var runs: [ClosedRange<Int>] = []
        // The run being built, and where its last interval ends.
        var first = 0, last = 0, lastEnd = Date.distantPast, building = false
        for span in spans.sorted(by: { $0.start < $1.start }) {
            let instant = span.end <= span.start
            if building, instant ? span.start < lastEnd : span.end <= lastEnd { continue }  // inside the run already
            var k: Int
            if building, span.start < lastEnd {
                k = last
            } else if building, span.start < start(of: last + 2) {
                k = last + 1
            } else {
                k = index(containing: span.start)
            }
            guard k <= bounds.upperBound else { continue }
            k = max(k, bounds.lowerBound)
            var j = k
            if !instant {
                while j < bounds.upperBound, start(of: j + 1) < span.end { j += 1 }
            }
            guard j >= bounds.lowerBound else { continue }
            if building, k <= last + 1 {
                last = max(last, j)
            } else {
                if building { runs.append(first...last) }
                (first, last, building) = (k, j, true)
            }
            lastEnd = start(of: last + 1)
        }
        if building { runs.append(first...last) }
        return runs
    }
}
