public import Foundation
import HealthStore

extension HealthPerson {
    /// The unit the person sees `type` in (and apps get from `preferredUnits(for:)`): their choice, else the unit of
    /// their last imported export, else the usual unit where they live.
    public func preferredUnit(for type: HKQuantityType) throws -> HKUnit {
        try PreferredUnitStore(database: database).unit(for: type)
    }

    /// Sets the unit the person wants to see `type` in (Health's Settings → Units). Imports never override it.
    /// A unit that does not fit the type is `errorInvalidArgument`.
    public func setPreferredUnit(_ unit: HKUnit, for type: HKQuantityType) throws {
        try PreferredUnitStore(database: database).set(unit, for: type, byPerson: true)
    }

    /// The units set so far, by type: the person's choices and those learned from imports.
    public func preferredUnitSettings() throws -> [(type: HKQuantityType, unit: HKUnit, byPerson: Bool)] {
        try PreferredUnitStore(database: database).all().compactMap { entry in
            guard let type = HKObjectType.type(forIdentifier: entry.type) as? HKQuantityType, let unit = try? HKUnit.parse(entry.unit) else {
                return nil
            }
            return (type, unit, entry.byPerson)
        }
    }
}
