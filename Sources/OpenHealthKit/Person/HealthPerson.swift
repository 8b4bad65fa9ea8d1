public import Foundation
package import HealthStore

/// The person's side of a store — what the Health app lets its owner do: see which apps asked for what,
/// change any app's permissions (a revocation applies to the very next call), enter and leave guest mode,
/// enter characteristics, and order the sources of each type. The CLI and the web app are built on it.
///
/// ```swift
/// let person = try HealthPerson(storeDirectory: URL(fileURLWithPath: "health-store"))
/// for access in try person.apps() { print(access.app.name, access.types.count) }
/// try person.setPermission(app: "com.example.steps", type: HKQuantityType(.stepCount), share: false, read: false)
/// try person.setBiologicalSex(.female)
/// try person.setSourcePriority(["com.example.watch", "com.example.phone"], for: HKQuantityType(.stepCount))
/// ```
public final class HealthPerson: Sendable {
    package let database: HealthDatabase

    /// Opens (creating if needed) the store in `storeDirectory`; fails with `errorDatabaseInaccessible`.
    public init(storeDirectory: URL) throws {
        database = try HealthDatabase(directory: storeDirectory)
    }

    /// The person's side of a store already open (the daemon's, for its web Health app).
    package init(database: HealthDatabase) {
        self.database = database
    }

    private var authorization: AuthorizationService { AuthorizationService(database: database) }
    var sampleStore: SampleStore { SampleStore(database: database) }
    var characteristics: CharacteristicStore { CharacteristicStore(database: database) }

    // MARK: - Apps and permissions

    /// Every app that registered with the store, by name, with the types each asked for and the decisions.
    public func apps() throws -> [AppAccess] { try authorization.apps() }

    /// Allows or denies an app writing (`share`) and reading (`read`) a type; `nil` leaves that direction alone.
    /// Applies at once. An unknown app, or allowing writes of a read-only type, is `errorInvalidArgument`.
    public func setPermission(app bundleIdentifier: String, type: HKObjectType, share: Bool?, read: Bool?) throws {
        try authorization.setPermission(app: bundleIdentifier, type: type.identifier, share: share, read: read)
    }

    /// Denies an app every type it was allowed, in both directions.
    public func revokeAll(app bundleIdentifier: String) throws {
        guard let access = try apps().first(where: { $0.app.bundleIdentifier == bundleIdentifier }) else {
            throw HKError.invalidArgument("no app \"\(bundleIdentifier)\" is known to this store")
        }
        for type in access.types where type.share == true || type.read == true {
            try authorization.setPermission(app: bundleIdentifier, type: type.typeIdentifier,
                                            share: type.share == true ? false : nil, read: type.read == true ? false : nil)
        }
    }

    // MARK: - Guest mode

    /// Whether the store is in guest mode: apps may read what they were allowed, and nothing is saved or deleted.
    public func isGuestMode() throws -> Bool { try authorization.isGuestMode() }

    /// Enters or leaves guest mode.
    public func setGuestMode(_ on: Bool) throws { try authorization.setGuestMode(on) }

    // MARK: - Characteristics (only the person sets them)

    public func setBiologicalSex(_ value: HKBiologicalSex) throws {
        try characteristics.set(.biologicalSex, to: value == .notSet ? nil : String(value.rawValue))
    }

    public func setBloodType(_ value: HKBloodType) throws {
        try characteristics.set(.bloodType, to: value == .notSet ? nil : String(value.rawValue))
    }

    public func setFitzpatrickSkinType(_ value: HKFitzpatrickSkinType) throws {
        try characteristics.set(.fitzpatrickSkinType, to: value == .notSet ? nil : String(value.rawValue))
    }

    public func setWheelchairUse(_ value: HKWheelchairUse) throws {
        try characteristics.set(.wheelchairUse, to: value == .notSet ? nil : String(value.rawValue))
    }

    public func setActivityMoveMode(_ value: HKActivityMoveMode) throws {
        try characteristics.set(.activityMoveMode, to: String(value.rawValue))
    }

    /// Sets the date of birth from year, month and day (Gregorian), or clears it with `nil`. A date that does not
    /// exist or lies in the future is `errorInvalidArgument`.
    public func setDateOfBirth(_ components: DateComponents?) throws {
        guard let components else { return try characteristics.set(.dateOfBirth, to: nil) }
        let calendar = Calendar(identifier: .gregorian)
        guard let year = components.year, let month = components.month, let day = components.day,
              let date = calendar.date(from: DateComponents(year: year, month: month, day: day)),
              calendar.dateComponents([.year, .month, .day], from: date) == DateComponents(year: year, month: month, day: day)
        else {
            throw HKError.invalidArgument("a date of birth needs a valid year, month and day (got \(components))")
        }
        guard date <= Date() else { throw HKError.invalidArgument("a date of birth cannot be in the future") }
        try characteristics.set(.dateOfBirth, to: String(format: "%04d-%02d-%02d", year, month, day))
    }

    // MARK: - Activity summaries (the person's devices write them; apps only read)

    /// Saves activity summaries, all or none, replacing those already stored for the same days; long-running
    /// activity summary queries report them. Each needs its day (`HKActivitySummary(dateComponents:)`) and values
    /// of the right kind (energy; minutes; a count of hours), else `errorInvalidArgument` and nothing is saved.
    public func saveActivitySummaries(_ summaries: [HKActivitySummary]) throws {
        try ActivitySummaryStore(database: database).save(summaries)
    }

    /// Every stored activity summary in day order, or those an activity summary predicate selects.
    public func activitySummaries(matching predicate: NSPredicate? = nil) throws -> [HKActivitySummary] {
        try ActivitySummaryStore(database: database).summaries(matching: try SampleFilter(optional: predicate), visibleTo: nil).summaries
    }

    // MARK: - Source priority

    /// The order of sources for a type: those the person placed, then the others by first write.
    public func sourcePriority(for type: HKSampleType) throws -> [HKSource] {
        try SourcePriorityStore(database: database).order(for: type)
    }

    /// Places these apps (bundle identifiers) first for `type`, in order, replacing the previous order.
    public func setSourcePriority(_ bundleIdentifiers: [String], for type: HKSampleType) throws {
        try SourcePriorityStore(database: database).setOrder(bundleIdentifiers, for: type)
    }
}
