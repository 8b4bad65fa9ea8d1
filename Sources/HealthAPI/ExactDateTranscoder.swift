package import Foundation
package import OpenAPIRuntime
package import HealthModel

/// Dates on the wire as RFC 3339 (`2026-11-24T08:30:00.1234567Z`), with as many fractional digits as the `Date` needs
/// to come back identical: an app cannot tell a daemon from the embedded store by its dates (ISO 8601 with
/// milliseconds would move every sample's date by up to half a millisecond). Any offset is read; UTC is written.
package struct ExactDateTranscoder: DateTranscoder {
    package init() {}

    package func encode(_ date: Date) throws -> String {
        // Counted as Date counts (from 2001): converting to seconds from 1970 and back could round.
        let seconds = date.timeIntervalSinceReferenceDate
        guard seconds.isFinite, (Self.firstSecond..<Self.endSecond).contains(seconds) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "the date \(seconds) s from 2001 is outside the years 1 to 9999"))
        }
        // The shortest decimal that reads back as this Double (Swift's description), split at its point; the long way,
        // with 17 significant digits, where that description has an exponent or a minus sign.
        var whole: Int, digits: Substring
        let shortest = seconds.description
        if seconds >= 0, !shortest.utf8.contains(UInt8(ascii: "e")), let point = shortest.firstIndex(of: "."), let integer = Int(shortest[..<point]) {
            whole = integer
            digits = shortest[shortest.index(after: point)...]
        } else {
            let floor = seconds.rounded(.down)
            whole = Int(floor)
            let integerDigits = floor == 0 ? 0 : String(Int(abs(floor))).count
            // The fraction (exact: a Double minus its whole part), with enough decimals for 17 significant digits in all.
            let fraction = String(format: "%.\(integerDigits == 0 ? 40 : max(17 - integerDigits, 1))f", seconds - floor)
            if fraction.hasPrefix("1") { whole += 1; digits = "" }  // rounded up to a whole second
            else { digits = fraction.hasPrefix("0.") ? fraction.dropFirst(2) : "" }
        }
        while digits.hasSuffix("0") { digits.removeLast() }
        let (days, secondOfDay) = (whole + Self.referenceFrom1970).quotientAndRemainder(dividingBy: 86_400)
        let day = secondOfDay < 0 ? days - 1 : days, second = secondOfDay < 0 ? secondOfDay + 86_400 : secondOfDay
        let (year, month, dayOfMonth) = CivilDate.date(daysFrom1970: day)
        var text = [UInt8]()
        text.reserveCapacity(21 + digits.utf8.count)
        func append(_ value: Int, width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            while divisor > 0 { text.append(UInt8(0x30 + value / divisor % 10)); divisor /= 10 }
        }
        append(year, width: 4); text.append(0x2D); append(month, width: 2); text.append(0x2D); append(dayOfMonth, width: 2)
        text.append(0x54); append(second / 3600, width: 2); text.append(0x3A); append(second / 60 % 60, width: 2)
        text.append(0x3A); append(second % 60, width: 2)
        if !digits.isEmpty { text.append(0x2E); text.append(contentsOf: digits.utf8) }
        text.append(0x5A)
        return String(decoding: text, as: UTF8.self)
    }

    /// A `JSONEncoder` writing dates as the generated code does (through this transcoder), keys sorted and slashes
    /// unescaped as the daemon writes them: for the JSON the generated coders do not write themselves.
    package static func jsonEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let dates = ExactDateTranscoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(try dates.encode(date))
        }
        return encoder
    }

    /// A `JSONDecoder` reading dates as the generated code does (through this transcoder).
    package static func jsonDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        let dates = ExactDateTranscoder()
        decoder.dateDecodingStrategy = .custom { decoder in try dates.decode(try decoder.singleValueContainer().decode(String.self)) }
        return decoder
    }

    /// 2001-01-01 in seconds from 1970.
    static let referenceFrom1970 = 978_307_200
    /// The first instant of the year 1 and of the year 10000, in seconds from 2001.
    static let firstSecond = Double(CivilDate.writableSeconds.lowerBound - referenceFrom1970),
               endSecond = Double(CivilDate.writableSeconds.upperBound - referenceFrom1970)

    package func decode(_ text: String) throws -> Date {
        let bytes = Array(text.utf8)
        func fail() -> InvalidDateText { InvalidDateText(text: text) }
        func number(_ range: Range<Int>) throws -> Int {
            guard range.upperBound <= bytes.count, bytes[range].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { throw fail() }
            return bytes[range].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        guard bytes.count >= 20, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54 || bytes[10] == 0x74,
              bytes[13] == 0x3A, bytes[16] == 0x3A else { throw fail() }
        let (year, month, day) = (try number(0..<4), try number(5..<7), try number(8..<10))
        let (hour, minute, second) = (try number(11..<13), try number(14..<16), try number(17..<19))
        guard year >= 1, (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 60 else { throw fail() }
        var index = 19
        var fraction = ""
        if bytes[index] == 0x2E {
            index += 1
            let start = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            guard index > start, index - start <= 30 else { throw fail() }
            fraction = String(decoding: bytes[start..<index], as: UTF8.self)
        }
        var offset = 0
        guard index < bytes.count else { throw fail() }
        if bytes[index] == 0x5A || bytes[index] == 0x7A {
            index += 1
        } else if bytes[index] == 0x2B || bytes[index] == 0x2D, index + 6 == bytes.count, bytes[index + 3] == 0x3A {
            let hours = try number(index + 1..<index + 3), minutes = try number(index + 4..<index + 6)
            guard hours <= 14, minutes < 60 else { throw fail() }
            offset = (hours * 3600 + minutes * 60) * (bytes[index] == 0x2B ? 1 : -1)
            index += 6
        } else {
            throw fail()
        }
        guard index == bytes.count else { throw fail() }
        let whole = CivilDate.daysFrom1970(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset - Self.referenceFrom1970
        // The decimal whole.fraction, read once: the nearest Double, as encode wrote it.
        let decimal: String
        if fraction.isEmpty || whole >= 0 {
            decimal = "\(whole)" + (fraction.isEmpty ? "" : ".\(fraction)")
        } else {
            // whole + 0.f for a negative whole: -(|whole| - 1).(10^n - f)
            let n = fraction.count
            var complement = Array(repeating: UInt8(0), count: n), borrow = 0
            let digits = fraction.utf8.map { Int($0 - 0x30) }
            for position in stride(from: n - 1, through: 0, by: -1) {
                var value = (position == n - 1 ? 10 : 9) - digits[position] - borrow
                borrow = 0
                if value < 0 { value += 10; borrow = 1 }
                complement[position] = UInt8(value)
            }
            let allZero = digits.allSatisfy { $0 == 0 }
            decimal = allZero ? "\(whole)" : "-\(-whole - 1)." + complement.map { String($0) }.joined()
        }
        guard let seconds = Double(decimal) else { throw fail() }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }
}

/// A date-time string that is not an RFC 3339 date-time the store can hold (a malformed one, or one like February 30).
/// JSON decoding passes it on unchanged, without the field it was in; the daemon finds the field in the body.
package struct InvalidDateText: Error, Sendable, Equatable, CustomStringConvertible {
    package let text: String

    package init(text: String) { self.text = text }

    package var description: String { "\"\(text.prefix(64))\" is not an RFC 3339 date-time (such as 2026-11-24T10:00:00Z)" }
}
