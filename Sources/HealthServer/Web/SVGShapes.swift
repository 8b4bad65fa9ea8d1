import Foundation

/// The Health app's other drawings, as inline SVG (colours from the stylesheet's classes): activity rings, a workout's
/// route from its points (no map tiles), and a night's sleep stages on a timeline.
enum SVGShapes {
    /// Move, Exercise and Stand as three concentric rings, each filled to its share of the goal (a full turn at the goal;
    /// beyond it the ring stays full and the figure says how far).
    static func rings(move: Double, exercise: Double, stand: Double, label: String, size: Int = 120) -> HTML {
        let center = 60.0, width = 12.0
        var parts: [HTML] = []
        for (index, (name, share)) in [("move", move), ("exercise", exercise), ("stand", stand)].enumerated() {
            let radius = 52 - Double(index) * (width + 2)
            let circumference = 2 * Double.pi * radius
            let filled = max(0, min(share, 1)) * circumference
            parts.append("""
                <circle class="ring-track \(name)" cx="60" cy="60" r="\(format(radius))" stroke-width="\(format(width))"/>\
                <circle class="ring \(name)" cx="60" cy="60" r="\(format(radius))" stroke-width="\(format(width))" \
                stroke-dasharray="\(format(filled)) \(format(circumference))" transform="rotate(-90 \(format(center)) \(format(center)))"/>
                """)
        }
        return """
            <svg class="rings" width="\(size)" height="\(size)" viewBox="0 0 120 120" role="img" xmlns="http://www.w3.org/2000/svg">\
            <title>\(label)</title>\(parts)</svg>
            """
    }

    /// A route drawn from its points: longitude and latitude projected flat (scaled by the cosine of the latitude, so a
    /// city-sized route keeps its shape), fitted into the box with a margin; the start and end marked.
    static func route(_ points: [(latitude: Double, longitude: Double)], title: String) -> HTML {
        guard points.count >= 2 else { return "<p class=\"muted\">The route has fewer than two points.</p>" }
        let width = 480.0, height = 360.0, margin = 16.0
        let meanLatitude = points.map(\.latitude).reduce(0, +) / Double(points.count)
        let scaleX = cos(meanLatitude * .pi / 180)
        let xs = points.map { $0.longitude * scaleX }, ys = points.map { -$0.latitude }
        let minX = xs.min()!, maxX = xs.max()!, minY = ys.min()!, maxY = ys.max()!
        let scale = min((width - 2 * margin) / max(maxX - minX, 1e-9), (height - 2 * margin) / max(maxY - minY, 1e-9))
        let offsetX = (width - (maxX - minX) * scale) / 2, offsetY = (height - (maxY - minY) * scale) / 2
        let projected = zip(xs, ys).map { (x: offsetX + ($0 - minX) * scale, y: offsetY + ($1 - minY) * scale) }
        // At most one point per pixel or so: a long route's thousands of points draw the same line.
        var kept: [(x: Double, y: Double)] = []
        for point in projected {
            if let last = kept.last, abs(last.x - point.x) < 0.75, abs(last.y - point.y) < 0.75 { continue }
            kept.append(point)
        }
        if let last = projected.last, kept.last.map({ $0.x != last.x || $0.y != last.y }) ?? true { kept.append(last) }
        let line = kept.map { "\(format($0.x)),\(format($0.y))" }.joined(separator: " ")
        let start = projected.first!, end = projected.last!
        return """
            <svg class="route" viewBox="0 0 \(Int(width)) \(Int(height))" role="img" aria-labelledby="route-title" xmlns="http://www.w3.org/2000/svg">\
            <title id="route-title">\(title)</title><rect class="route-ground" x="0" y="0" width="\(Int(width))" height="\(Int(height))" rx="8"/>\
            <polyline class="route-line" points="\(line)"/>\
            <circle class="route-start" cx="\(format(start.x))" cy="\(format(start.y))" r="6"><title>Start</title></circle>\
            <circle class="route-end" cx="\(format(end.x))" cy="\(format(end.y))" r="6"><title>End</title></circle></svg>
            """
    }

    /// One sleep stage on the timeline.
    struct SleepSpan: Sendable {
        var stage: Int
        var start: Date
        var end: Date
    }

    /// The stages of sleep analysis as rows, top to bottom (HealthKit's values): awake, REM, core, deep, asleep
    /// (unspecified), in bed.
    static let sleepRows: [(value: Int, name: String, style: String)] = [
        (2, "Awake", "awake"), (5, "REM", "rem"), (3, "Core", "core"), (4, "Deep", "deep"), (1, "Asleep", "asleep"), (0, "In bed", "inbed"),
    ]

    /// A night's stages on a timeline from `interval.start` to `interval.end`, one row per stage present, hour marks
    /// below.
    static func sleepTimeline(_ spans: [SleepSpan], interval: DateInterval, calendar: Calendar, title: String) -> HTML {
        let rows = sleepRows.filter { row in spans.contains { $0.stage == row.value } }
        guard !rows.isEmpty else { return "<p class=\"muted\">No sleep recorded in this time.</p>" }
        let width = 640.0, left = 64.0, right = 8.0, rowHeight = 28.0, top = 8.0
        let height = top + Double(rows.count) * rowHeight + 28
        let plot = width - left - right
        func x(_ date: Date) -> Double { left + plot * max(0, min(1, date.timeIntervalSince(interval.start) / interval.duration)) }
        var marks: [HTML] = []
        var style = Date.FormatStyle.dateTime.hour().minute()
        style.timeZone = calendar.timeZone
        for (index, row) in rows.enumerated() {
            let y = top + Double(index) * rowHeight
            marks.append("<text class=\"axis\" x=\"\(format(left - 6))\" y=\"\(format(y + rowHeight / 2 + 4))\" text-anchor=\"end\">\(row.name)</text>")
            marks.append("<line class=\"grid\" x1=\"\(format(left))\" x2=\"\(format(width - right))\" y1=\"\(format(y + rowHeight))\" y2=\"\(format(y + rowHeight))\"/>")
            for span in spans where span.stage == row.value {
                let start = x(span.start), end = x(span.end)
                marks.append("""
                    <rect class="sleep \(row.style)" x="\(format(start))" y="\(format(y + 4))" width="\(format(max(end - start, 1)))" \
                    height="\(format(rowHeight - 8))" rx="3"><title>\(row.name): \(span.start.formatted(style))–\(span.end.formatted(style))</title></rect>
                    """)
            }
        }
        var hour = calendar.dateInterval(of: .hour, for: interval.start)?.end ?? interval.start
        while hour < interval.end {
            let h = calendar.component(.hour, from: hour)
            if h % 3 == 0 {
                marks.append("<text class=\"axis\" x=\"\(format(x(hour)))\" y=\"\(format(height - 8))\" text-anchor=\"middle\">\(String(format: "%02d:00", h))</text>")
            }
            hour = calendar.date(byAdding: .hour, value: 1, to: hour) ?? interval.end
        }
        return """
            <svg class="chart sleep-timeline" viewBox="0 0 \(Int(width)) \(Int(height))" role="img" aria-labelledby="sleep-title" \
            xmlns="http://www.w3.org/2000/svg"><title id="sleep-title">\(title)</title>\(marks)</svg>
            """
    }

    private static func format(_ value: Double) -> String { String(format: "%.1f", value) }
}
