package import Foundation

/// The rules every object must satisfy, shared by Apple's trapping initializers and
/// OpenHealthKit's throwing `validated(…)` factories. Each failure is an
/// `HKError(.errorInvalidArgument)` whose message names the problem.
package enum ObjectValidation {
    /// The dates a sample may have: the years 1 to 9999 (UTC, proleptic Gregorian), what an export's dates and
    /// ISO 8601 can write. Past them, dates cannot be exported or shown, and day arithmetic overflows.
    package static let possibleDates = Date(timeIntervalSince1970: TimeInterval(CivilDate.writableSeconds.lowerBound))
        ..< Date(timeIntervalSince1970: TimeInterval(CivilDate.writableSeconds.upperBound))

    /// A sample's dates: both finite, within the years 1 to 9999, and the end not before the start.
    package static func checkInterval(start: Date, end: Date, of what: String) throws {
        guard start.timeIntervalSinceReferenceDate.isFinite else {
            throw HKError.invalidArgument("\(what) has a non-finite start date")
        }
        guard end.timeIntervalSinceReferenceDate.isFinite else {
            throw HKError.invalidArgument("\(what) has a non-finite end date")
        }
        for (name, date) in [("start", start), ("end", end)] where !possibleDates.contains(date) {
            throw HKError.invalidArgument(
                "\(what)'s \(name) date is \(date.timeIntervalSince1970) seconds from 1970, outside the years 1 to 9999 that dates can be written in")
        }
        guard end >= start else {
            throw HKError.invalidArgument(
                "\(what) ends (\(end.formatted(.iso8601))) before it starts (\(start.formatted(.iso8601)))"
            )
        }
    }

    /// A quantity for a quantity type: finite, in a unit of the type's dimension.
    package static func checkQuantity(_ quantity: HKQuantity, for type: HKQuantityType) throws {
        guard quantity.doubleValue.isFinite else {
            throw HKError.invalidArgument("a \(type.identifier) sample's value is \(quantity.doubleValue); values must be finite")
        }
        guard type.is(compatibleWith: quantity.unit) else {
            throw HKError.invalidArgument(
                "unit \"\(quantity.unit.unitString)\" is not compatible with \(type.identifier), whose unit is \"\(type.canonicalUnit.unitString)\" (\(type.canonicalUnit.dimension))"
            )
        }
    }

    /// A quantity of a given kind (e.g. a workout's total energy), finite and compatible with `reference`.
    package static func checkQuantity(_ quantity: HKQuantity?, named name: String, compatibleWith reference: HKUnit) throws {
        guard let quantity else { return }
        guard quantity.doubleValue.isFinite else {
            throw HKError.invalidArgument("\(name) is \(quantity.doubleValue); values must be finite")
        }
        guard quantity.is(compatibleWith: reference) else {
            throw HKError.invalidArgument(
                "\(name) is in \"\(quantity.unit.unitString)\", which is not compatible with \"\(reference.unitString)\""
            )
        }
    }

    /// A category value that is one of the type's enumeration's raw values.
    package static func checkCategoryValue(_ value: Int, for type: HKCategoryType) throws {
        guard let allowed = type.allowedValues else { return }
        guard allowed.contains(value) else {
            let list = allowed.sorted().map(String.init).joined(separator: ", ")
            let enumName = type.info.valueEnumName ?? "its value enum"
            throw HKError.invalidArgument(
                "\(value) is not a valid value for \(type.identifier); \(enumName) allows \(list)"
            )
        }
    }
}

/// Runs a validation for one of Apple's non-throwing initializers: an invalid argument is a
/// programming error there, so it stops the program with the error's message, as HealthKit raises.
/// Use the throwing `validated(…)` factories to recover instead.
package func trapOnInvalidArgument<T>(_ body: () throws -> T) -> T {
    do {
        return try body()
    } catch let error as HKError {
        preconditionFailure(error.message)
    } catch {
        preconditionFailure("\(error)")
    }
}

/// A stored double as an integer without trapping: values beyond `Int`'s range (which no check let in, but an older
/// store may hold) become its bounds, and NaN zero.
package func storedInteger(_ value: Double) -> Int {
    guard value.isFinite else { return value.isNaN ? 0 : (value > 0 ? .max : .min) }
    guard value < 9_223_372_036_854_775_807, value > -9_223_372_036_854_775_808 else { return value > 0 ? .max : .min }
    return Int(value)
}
