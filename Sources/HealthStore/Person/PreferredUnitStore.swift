package import Foundation
import GRDB
package import HealthModel

/// The units the person sees each quantity type in: their own choice, else the unit their last import's records were
/// written in (Apple's export follows the person's Health settings), else the usual unit where they live — km or mi,
/// kg or lb, °C or °F, beats per minute rather than HealthKit's canonical count/s.
package struct PreferredUnitStore: Sendable {
    package let database: HealthDatabase

    package init(database: HealthDatabase) {
        self.database = database
    }

    /// The preferred unit of `type`.
    package func unit(for type: HKQuantityType, locale: Locale = .current) throws -> HKUnit {
        let stored = try database.read { db in try String.fetchOne(db, sql: "SELECT unit FROM preferredUnit WHERE type = ?", arguments: [type.identifier]) }
        if let stored, let unit = try? HKUnit.parse(stored), unit.isCompatible(with: type.canonicalUnit) { return unit }
        return Self.defaultUnit(for: type, locale: locale)
    }

    /// Every preference stored, by type identifier, with whether the person chose it.
    package func all() throws -> [(type: String, unit: String, byPerson: Bool)] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT type, unit, byPerson FROM preferredUnit ORDER BY type").map { ($0["type"], $0["unit"], $0["byPerson"]) }
        }
    }

    /// Sets the preferred unit of `type`. A unit learned from an import (`byPerson` false) never replaces the person's
    /// own choice. An incompatible unit is `errorInvalidArgument`.
    package func set(_ unit: HKUnit, for type: HKQuantityType, byPerson: Bool) throws {
        guard unit.isCompatible(with: type.canonicalUnit) else {
            throw HKError.invalidArgument("\(unit.unitString) is not a unit of \(type.identifier) (its unit is like \(type.canonicalUnit.unitString))")
        }
        try database.write { db in
            try db.execute(sql: """
                INSERT INTO preferredUnit (type, unit, byPerson, updatedAt) VALUES (?, ?, ?, ?)
                ON CONFLICT (type) DO UPDATE SET unit = excluded.unit, byPerson = excluded.byPerson, updatedAt = excluded.updatedAt
                WHERE excluded.byPerson OR NOT preferredUnit.byPerson
                """, arguments: [type.identifier, unit.unitString, byPerson, Date().timeIntervalSinceReferenceDate])
        }
    }

    /// The unit people where `locale` is usually see `type` in: Health's defaults for the common types, else the type's
    /// canonical unit.
    package static func defaultUnit(for type: HKQuantityType, locale: Locale = .current) -> HKUnit {
        let us = locale.measurementSystem == .us
        let canonical = type.canonicalUnit
        if canonical.isCompatible(with: .count().unitDivided(by: .minute())) { return .count().unitDivided(by: .minute()) }
        if canonical.isCompatible(with: .meter()) {
            switch type.identifier {
            case HKQuantityTypeIdentifier.height.rawValue, HKQuantityTypeIdentifier.waistCircumference.rawValue:
                return us ? .inch() : .meterUnit(with: .centi)
            case HKQuantityTypeIdentifier.walkingStepLength.rawValue, HKQuantityTypeIdentifier.runningStrideLength.rawValue:
                return us ? .inch() : .meterUnit(with: .centi)
            default:
                return us ? .mile() : .meterUnit(with: .kilo)
            }
        }
        if canonical.isCompatible(with: .gram()) {
            return type.identifier.hasPrefix("HKQuantityTypeIdentifierDietary") ? canonical : (us ? .pound() : .gramUnit(with: .kilo))
        }
        if canonical.isCompatible(with: .kilocalorie()) { return .kilocalorie() }
        if canonical.isCompatible(with: .degreeCelsius()) { return us ? .degreeFahrenheit() : .degreeCelsius() }
        if canonical.isCompatible(with: .meter().unitDivided(by: .second())) {
            return us ? .mile().unitDivided(by: .hour()) : .meterUnit(with: .kilo).unitDivided(by: .hour())
        }
        if canonical.isCompatible(with: .liter()) { return us ? .fluidOunceUS() : .literUnit(with: .milli) }
        return canonical
    }
}
