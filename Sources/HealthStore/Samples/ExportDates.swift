package import Foundation

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
            let hour = number(8, 2), minute = number(10, 2), second = number(12, 2)
            let offset = sign * (number(14, 2) * 3600 + number(16, 2) * 60)
            guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
            // Days from 1970-01-01 to the civil date (Howard Hinnant's algorithm).
            let y = month <= 2 ? year - 1 : year
            let era = (y >= 0 ? y : y - 399) / 400
            let yearOfEra = y - era * 400
            let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
            let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
            let days = era * 146_097 + dayOfEra - 719_468
            return TimeInterval(days * 86_400 + hour * 3600 + minute * 60 + second - offset)
        }
    }
}
