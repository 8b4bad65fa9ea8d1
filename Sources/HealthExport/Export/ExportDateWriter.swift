import Foundation
import HealthModel

/// Writes instants in the export's form, `yyyy-MM-dd HH:mm:ss ±hhmm`, by hand — a `DateFormatter` per date would cost
/// more than the rest of an export. Each instant is shown in a zone: the sample's own (its `HKTimeZone` metadata)
/// when it has one, else the writer's. A zone's UTC offset is looked up once per stretch between its transitions, not
/// per date. Seconds are truncated: the export has no fractions.
struct ExportDateWriter {
    /// The zone dates without one of their own are shown in.
    let defaultZone: TimeZone

    /// For each zone, the offset found last and the stretch of time it holds for.
    private struct Stretch {
        var from: Double
        var until: Double
        var offset: Int
    }

    private var zones: [String: TimeZone?] = [:]
    private var stretches: [String: Stretch] = [:]
    private var scratch: [UInt8] = []

    init(defaultZone: TimeZone) {
        self.defaultZone = defaultZone
    }

    /// The zone named by an `HKTimeZone` value, if it is a known IANA name.
    mutating func zone(named name: String?) -> TimeZone? {
        guard let name else { return nil }
        if let known = zones[name] { return known }
        let zone = TimeZone(identifier: name)
        if zones.count < 1_000 { zones[name] = zone }
        return zone
    }

    /// The UTC offset of `zone` at `seconds` since the reference date.
    mutating func offset(_ zone: TimeZone, at seconds: Double) -> Int {
        let key = zone.identifier
        if let stretch = stretches[key], seconds >= stretch.from, seconds < stretch.until { return stretch.offset }
        let date = Date(timeIntervalSinceReferenceDate: seconds)
        let offset = zone.secondsFromGMT(for: date)
        let until = zone.nextDaylightSavingTimeTransition(after: date)?.timeIntervalSinceReferenceDate ?? .infinity
        if stretches.count < 1_000 || stretches[key] != nil { stretches[key] = Stretch(from: seconds, until: until, offset: offset) }
        return offset
    }

    /// `date` in `zone` (the writer's when nil), as the export writes it.
    mutating func text(_ date: Date, zone: TimeZone? = nil) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(25)
        append(date, zone: zone, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    mutating func append(_ date: Date, zone: TimeZone? = nil, to output: inout ExportXMLOutput) {
        var bytes = scratch
        scratch = []
        bytes.removeAll(keepingCapacity: true)
        append(date, zone: zone, to: &bytes)
        output.bytes(bytes)
        scratch = bytes
    }

    mutating func append(_ date: Date, zone: TimeZone? = nil, to bytes: inout [UInt8]) {
        let reference = date.timeIntervalSinceReferenceDate
        let offset = self.offset(zone ?? defaultZone, at: reference)
        let unix = Int((reference + Date.timeIntervalBetween1970AndReferenceDate).rounded(.down)) + offset
        var days = unix / 86_400, secondOfDay = unix % 86_400
        if secondOfDay < 0 { secondOfDay += 86_400; days -= 1 }
        let (year, month, day) = CivilDate.date(daysFrom1970: days)

        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            var value = value
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                value %= divisor
                divisor /= 10
            }
        }
        digits(min(max(year, 0), 9999), 4)
        bytes.append(UInt8(ascii: "-"))
        digits(month, 2)
        bytes.append(UInt8(ascii: "-"))
        digits(day, 2)
        bytes.append(UInt8(ascii: " "))
        digits(secondOfDay / 3600, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(secondOfDay / 60 % 60, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(secondOfDay % 60, 2)
        bytes.append(UInt8(ascii: " "))
        bytes.append(offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
        let minutes = abs(offset) / 60
        digits(minutes / 60, 2)
        digits(minutes % 60, 2)
    }
}
