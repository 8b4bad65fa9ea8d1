import Foundation
import HealthModel

/// A date given on the command line (`--start`, `--end`, `--from`, `--to`), refused when it names a day or a time
/// that does not exist — Foundation would move 30 February to 2 March and second 60 to the next minute unsaid.
///
/// ```swift
/// try DateArgument.instant("2026-02-30T10:00:00Z", option: "--start")
/// // --start 2026-02-30T10:00:00Z: February 2026 has no day 30
/// ```
enum DateArgument {
    /// An ISO 8601 time (`2026-11-23T08:00:00Z`).
    static func instant(_ text: String, option: String) throws -> Date {
        guard let date = try? Date(text, strategy: .iso8601) else {
            throw CommandFailure("\(option) \(text) is not an ISO 8601 time; write it as 2026-11-23T08:00:00Z")
        }
        if let match = text.firstMatch(of: /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2}))?/) {
            try check(text, option: option, year: Int(match.1)!, month: Int(match.2)!, day: Int(match.3)!)
            let (hour, minute, second) = (Int(match.4)!, Int(match.5)!, match.6.flatMap { Int($0) } ?? 0)
            if hour > 23 { throw CommandFailure("\(option) \(text): there is no hour \(hour) (hours run from 00 to 23)") }
            if minute > 59 { throw CommandFailure("\(option) \(text): there is no minute \(minute) (minutes run from 00 to 59)") }
            if second > 59 { throw CommandFailure("\(option) \(text): there is no second \(second) (seconds run from 00 to 59)") }
        }
        return date
    }

    /// The start of a day written yyyy-MM-dd, in `calendar`.
    static func day(_ text: String, option: String, in calendar: Calendar) throws -> Date {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 3, let year = parts[0], let month = parts[1], let day = parts[2],
              let date = calendar.date(from: DateComponents(year: year, month: month, day: day)) else {
            throw CommandFailure("\(option) \(text) is not a day; write yyyy-MM-dd")
        }
        try check(text, option: option, year: year, month: month, day: day)
        return date
    }

    /// Refuses a month or a day of the month that does not exist.
    private static func check(_ text: String, option: String, year: Int, month: Int, day: Int) throws {
        guard (1...12).contains(month) else {
            throw CommandFailure("\(option) \(text): there is no month \(month) (months run from 01 to 12)")
        }
        guard (1...CivilDate.daysIn(month: month, year: year)).contains(day) else {
            let name = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
                        "December"][month - 1]
            throw CommandFailure("\(option) \(text): \(name) \(year) has no day \(day)")
        }
    }
}
