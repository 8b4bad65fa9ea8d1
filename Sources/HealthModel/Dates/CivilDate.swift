/// Proleptic Gregorian calendar arithmetic on day counts from 1970-01-01 (Howard Hinnant's `days_from_civil` and
/// `civil_from_days`), without Foundation's `Calendar`, which is slow on hot paths and normalizes impossible dates
/// (30 February becomes 2 March) instead of refusing them. Shared by the export's date reader and writer, the
/// daemon's wire dates and sample validation.
package enum CivilDate {
    /// The seconds from 1970 that dates can be written in: 0001-01-01T00:00:00Z up to, not including, the year 10000.
    package static let writableSeconds: Range<Int> = -62_135_596_800..<253_402_300_800

    /// The length of `month` (1...12) in the Gregorian `year`.
    @inlinable @inline(__always)
    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the civil date `year`-`month`-`day` (any year, the day not checked).
    @inlinable @inline(__always)
    package static func daysFrom1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The civil date `days` after 1970-01-01.
    @inlinable @inline(__always)
    package static func date(daysFrom1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
