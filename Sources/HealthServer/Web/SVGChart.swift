import Foundation

/// A chart as server-rendered SVG, inline in the page (no script, no inline style: colours come from the stylesheet's
/// classes): bars for a cumulative type's sums, a minimum–maximum band with the average for a discrete type.
///
/// The chart is an image with a title and a description for screen readers, and each bar or band carries its own
/// `<title>` (the figure, as a tooltip). The page also lists the figures as text.
struct SVGChart: Sendable {
    /// One period of the chart.
    struct Bucket: Sendable {
        /// The axis label ("Mon", "14", "Jun"); empty to leave the period unlabelled.
        var label: String
        /// What the period is, for its tooltip ("Mon 3 Jun").
        var name: String
        /// The sum (bars) or the average (band).
        var value: Double?
        var minimum: Double?
        var maximum: Double?
    }

    enum Style: Sendable { case bars, band }

    var buckets: [Bucket]
    var style: Style
    /// The unit the figures are in, for the tooltips ("count", "count/min").
    var unit: String
    var title: String
    /// What the chart shows, for screen readers; by default what its style draws.
    var description: String?

    static let width = 640.0, height = 240.0
    // Room on the left for the figures at phone width, where they are drawn larger (the stylesheet).
    private static let left = 72.0, right = 8.0, top = 12.0, bottom = 28.0

    func render() -> HTML {
        let plotWidth = Self.width - Self.left - Self.right, plotHeight = Self.height - Self.top - Self.bottom
        let values = buckets.flatMap { [$0.value, $0.minimum, $0.maximum].compactMap { $0 } }
        let (low, high) = scale(values)
        let slot = buckets.isEmpty ? plotWidth : plotWidth / Double(buckets.count)
        func y(_ value: Double) -> Double { Self.top + plotHeight * (1 - (value - low) / max(high - low, .leastNonzeroMagnitude)) }
        func number(_ value: Double) -> String { String(format: "%.1f", value) }

        var marks: [HTML] = []
        // Grid lines and their figures.
        for step in 0...4 {
            let value = low + (high - low) * Double(step) / 4
            let position = y(value)
            marks.append("<line class=\"grid\" x1=\"\(number(Self.left))\" x2=\"\(number(Self.width - Self.right))\" y1=\"\(number(position))\" y2=\"\(number(position))\"/>")
            marks.append("<text class=\"axis\" x=\"\(number(Self.left - 6))\" y=\"\(number(position + 4))\" text-anchor=\"end\">\(Self.short(value))</text>")
        }
        var averages: [String] = []
        for (index, bucket) in buckets.enumerated() {
            let x = Self.left + slot * Double(index)
            let center = x + slot / 2
            if !bucket.label.isEmpty {
                marks.append("<text class=\"axis\" x=\"\(number(center))\" y=\"\(number(Self.height - 8))\" text-anchor=\"middle\">\(bucket.label)</text>")
            }
            switch style {
            case .bars:
                guard let value = bucket.value else { continue }
                let barWidth = max(slot * 0.7, 1), top = y(max(value, low))
                marks.append("""
                    <rect class="bar" x="\(number(center - barWidth / 2))" y="\(number(top))" width="\(number(barWidth))" \
                    height="\(number(max(y(low) - top, 0)))"><title>\(bucket.name): \(Self.figure(value)) \(unit)</title></rect>
                    """)
            case .band:
                guard let average = bucket.value else { continue }
                let minimum = bucket.minimum ?? average, maximum = bucket.maximum ?? average
                let bandWidth = max(slot * 0.5, 2)
                marks.append("""
                    <rect class="band" x="\(number(center - bandWidth / 2))" y="\(number(y(maximum)))" width="\(number(bandWidth))" \
                    height="\(number(max(y(minimum) - y(maximum), 1)))" rx="\(number(min(bandWidth / 2, 4)))"><title>\(bucket.name): \
                    \(Self.figure(minimum))–\(Self.figure(maximum)) \(unit), average \(Self.figure(average))</title></rect>
                    """)
                averages.append("\(number(center)),\(number(y(average)))")
            }
        }
        if averages.count > 1 {
            marks.append("<polyline class=\"average\" points=\"\(averages.joined(separator: " "))\"/>")
        }
        let description = self.description ?? (style == .bars ? "Bars: the total of each period." : "For each period, a band from the lowest to the highest value, and a line through the averages.")
        return """
            <svg class="chart" viewBox="0 0 \(Int(Self.width)) \(Int(Self.height))" role="img" aria-labelledby="chart-title chart-desc" \
            xmlns="http://www.w3.org/2000/svg"><title id="chart-title">\(title)</title><desc id="chart-desc">\(description)</desc>\(marks)</svg>
            """
    }

    /// The axis: from zero for bars (or the lowest figure below it), around the figures for a band; rounded outward to
    /// a figure that reads well.
    private func scale(_ values: [Double]) -> (Double, Double) {
        guard let smallest = values.min(), let largest = values.max() else { return (0, 1) }
        var low = style == .bars ? min(0, smallest) : smallest, high = style == .bars ? max(largest, 0) : largest
        if high - low < .ulpOfOne { low -= 1; high += 1 }
        let step = Self.niceStep((high - low) / 4)
        low = (low / step).rounded(.down) * step
        high = (high / step).rounded(.up) * step
        if style == .band, low < 0, smallest >= 0 { low = 0 }
        return (low, high)
    }

    /// 1, 2, 2.5 or 5 times a power of ten, at least `raw`.
    static func niceStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        let power = pow(10, (log10(raw)).rounded(.down))
        for factor in [1, 2, 2.5, 5, 10] where factor * power >= raw { return factor * power }
        return 10 * power
    }

    /// An axis figure: short (12k, 1.5M, 0.25).
    static func short(_ value: Double) -> String {
        let magnitude = abs(value)
        if magnitude >= 1_000_000 { return trimmed(value / 1_000_000) + "M" }
        if magnitude >= 10_000 { return trimmed(value / 1_000) + "k" }
        return trimmed(value)
    }

    /// A figure as the page shows it: whole numbers plainly, others to two decimals at most.
    static func figure(_ value: Double) -> String {
        value.formatted(.number.precision(.fractionLength(0...2)).locale(Locale(identifier: "en_US")))
    }

    private static func trimmed(_ value: Double) -> String {
        value.formatted(.number.precision(.fractionLength(0...2)).locale(Locale(identifier: "en_US_POSIX")).grouping(.never))
    }
}
