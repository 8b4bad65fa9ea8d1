package import Foundation
import HealthModel

/// The date forms of Apple Health exports: `yyyy-MM-dd HH:mm:ss ±hhmm`, and the compact `yyyyMMddHHmmss±hhmm` of
/// 2015 exports. Parsed by hand — a `DateFormatter` per date costs more than everything else an import does.
package enum ExportDates {
    package static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse($0) }.map(Date.init(timeIntervalSince1970:))
    }

    /// Seconds since 1970 of a date written in one of the export's forms, read straight from its UTF-8 bytes.
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> TimeInterval? {
        // 14 digits of date and time, then the offset's sign and 4 digits.
        var digits = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0, sign = 0
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard count < 18 else { return nil }
                withUnsafeMutableBytes(of: &digits) { $0.storeBytes(of: Int(byte - 48), toByteOffset: count * MemoryLayout<Int>.stride, as: Int.self) }
                count += 1
            case UInt8(ascii: "+") where count == 14: sign = 1
            case UInt8(ascii: "-") where count == 14: sign = -1
            case UInt8(ascii: "-"), UInt8(ascii: ":"), UInt8(ascii: " "): continue
            default: return nil
            }
        }
        guard count == 18, sign != 0 else { return nil }
        return withUnsafeBytes(of: &digits) { raw -> TimeInterval? in
            let d = raw.bindMemory(to: Int.self)
            func number(_ from: Int, _ count: Int) -> Int { d[from..<from + count].reduce(0) { $0 * 10 + $1 } }
            let year = number(0, 4), month = number(4, 2), day = number(6, 2)
            let offsetHours = number(14, 2), offsetMinutes = number(16, 2)
            guard offsetHours <= 14, offsetMinutes < 60 else { return nil }
            return secondsSince1970(year: year, month: month, day: day, hour: number(8, 2), minute: number(10, 2), second: number(12, 2),
                                    offset: sign * (offsetHours * 3600 + offsetMinutes * 60)).map { TimeInterval($0) }
        }
    }

    /// Seconds since 1970 of a civil date and time at `offset` seconds east of UTC, or nil when no such instant was
    /// ever written on a clock: a day past its month's end (30 February; 29 February outside leap years), an hour past
    /// 23, a minute or second past 59 (no leap seconds: Apple's clocks do not show them), a year outside 1...9999.
    /// Refusing them here keeps an impossible date from being silently moved to another day.
    package static func secondsSince1970(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, offset: Int) -> Int? {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: year),
              (0..<24).contains(hour), (0..<60).contains(minute), (0..<60).contains(second) else { return nil }
        let days = CivilDate.daysFrom1970(year: year, month: month, day: day)
        return days * 86_400 + hour * 3600 + minute * 60 + second - offset
    }
}
