package import Foundation

/// The date forms of Apple Health exports: `yyyy-MM-dd HH:mm:ss ±hhmm`, and the compact `yyyyMMddHHmmss±hhmm` of
/// 2015 exports. Parsed by hand — a `DateFormatter` per date costs more than everything else an import does.
package enum ExportDates {
    package static func parse(_ text: String) -> Date? {
        var utf8 = text.utf8.makeIterator()
        var digits: [Int] = []
        digits.reserveCapacity(18)
        var sign = 0
        while let byte = utf8.next() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits.append(Int(byte - 48))
            case UInt8(ascii: "+") where digits.count == 14: sign = 1
            case UInt8(ascii: "-") where digits.count == 14: sign = -1
            case UInt8(ascii: "-"), UInt8(ascii: ":"), UInt8(ascii: " "): continue
            default: return nil
            }
        }
        guard digits.count == 18, sign != 0 else { return nil }
        func number(_ from: Int, _ count: Int) -> Int { digits[from..<from + count].reduce(0) { $0 * 10 + $1 } }
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
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
