public import Foundation

/// One day of the person's activity rings: move (active energy or, in move-time mode, minutes), exercise minutes
/// and stand hours, each with its goal. Read them with `HKActivitySummaryQuery`; apps cannot save them (the
/// person's devices — or an imported export, or `HealthPerson.saveActivitySummaries(_:)` — do).
///
/// ```swift
/// let summary = HKActivitySummary(dateComponents: DateComponents(year: 2026, month: 11, day: 20))
/// summary.activeEnergyBurned = HKQuantity(unit: .kilocalorie(), doubleValue: 487)
/// summary.activeEnergyBurnedGoal = HKQuantity(unit: .kilocalorie(), doubleValue: 300)
/// summary.dateComponents(for: Calendar(identifier: .gregorian))  // era 1, year 2026, month 11, day 20
/// ```
///
/// Like Apple's, the object is mutable, and changing one never changes the store. Its properties are guarded by a
/// lock, so a summary may be handed between tasks.
///
/// `NSSecureCoding`, as HealthKit's: every value and goal, the move mode, the pause and the day come back as archived.
/// `NSCopying` makes an independent summary with the same values (it is mutable).
public final class HKActivitySummary: NSObject, NSSecureCoding, NSCopying, @unchecked Sendable {
    // @unchecked: every stored value lives in `values`, read and written under `lock`.

    private struct Values {
        var day: ActivityDay?
        var activityMoveMode: HKActivityMoveMode = .activeEnergy
        var isPaused = false
        var activeEnergyBurned = HKQuantity(unit: .kilocalorie(), doubleValue: 0)
        var appleMoveTime = HKQuantity(unit: .minute(), doubleValue: 0)
        var appleExerciseTime = HKQuantity(unit: .minute(), doubleValue: 0)
        var appleStandHours = HKQuantity(unit: .count(), doubleValue: 0)
        var activeEnergyBurnedGoal = HKQuantity(unit: .kilocalorie(), doubleValue: 0)
        var appleMoveTimeGoal = HKQuantity(unit: .minute(), doubleValue: 0)
        var exerciseTimeGoal: HKQuantity?
        var standHoursGoal: HKQuantity?
    }

    private let lock = NSLock()
    private var values = Values()

    /// An empty summary (every value zero, no day), as Apple's `init()` makes.
    public override init() { super.init() }

    /// A summary of one day, named by year, month and day in the Gregorian calendar (or in `dateComponents.calendar`
    /// when it is set). OpenHealthKit's addition: Apple's summaries get their day from the store only.
    public convenience init(dateComponents: DateComponents) {
        self.init()
        values.day = ActivityDay(dateComponents)
    }

    package convenience init(day: ActivityDay) {
        self.init()
        values.day = day
    }

    private func read<T>(_ path: KeyPath<Values, T>) -> T { lock.withLock { values[keyPath: path] } }
    private func write<T>(_ path: WritableKeyPath<Values, T>, _ value: T) { lock.withLock { values[keyPath: path] = value } }

    /// The day, as `yyyy-MM-dd` in the Gregorian calendar; `nil` for a summary made with `init()`.
    package var day: ActivityDay? { read(\.day) }

    /// The components that name the summary's day in `calendar` (for the Gregorian calendar: era, year, month,
    /// day), with `calendar` set. Empty for a summary that has no day.
    public func dateComponents(for calendar: Calendar) -> DateComponents {
        day?.dateComponents(for: calendar) ?? DateComponents()
    }

    public var activityMoveMode: HKActivityMoveMode { get { read(\.activityMoveMode) } set { write(\.activityMoveMode, newValue) } }
    public var isPaused: Bool { get { read(\.isPaused) } set { write(\.isPaused, newValue) } }
    /// Active energy burned that day (energy).
    public var activeEnergyBurned: HKQuantity { get { read(\.activeEnergyBurned) } set { write(\.activeEnergyBurned, newValue) } }
    /// Move minutes, for people whose move ring counts time (``activityMoveMode`` `.appleMoveTime`).
    public var appleMoveTime: HKQuantity { get { read(\.appleMoveTime) } set { write(\.appleMoveTime, newValue) } }
    /// Minutes of brisk activity (time).
    public var appleExerciseTime: HKQuantity { get { read(\.appleExerciseTime) } set { write(\.appleExerciseTime, newValue) } }
    /// Hours with at least a minute of standing (count).
    public var appleStandHours: HKQuantity { get { read(\.appleStandHours) } set { write(\.appleStandHours, newValue) } }
    public var activeEnergyBurnedGoal: HKQuantity {
        get { read(\.activeEnergyBurnedGoal) } set { write(\.activeEnergyBurnedGoal, newValue) }
    }
    public var appleMoveTimeGoal: HKQuantity { get { read(\.appleMoveTimeGoal) } set { write(\.appleMoveTimeGoal, newValue) } }
    public var exerciseTimeGoal: HKQuantity? { get { read(\.exerciseTimeGoal) } set { write(\.exerciseTimeGoal, newValue) } }
    public var standHoursGoal: HKQuantity? { get { read(\.standHoursGoal) } set { write(\.standHoursGoal, newValue) } }

    /// ``exerciseTimeGoal``, or zero minutes when there is none.
    @available(*, deprecated, renamed: "exerciseTimeGoal")
    public var appleExerciseTimeGoal: HKQuantity {
        get { exerciseTimeGoal ?? HKQuantity(unit: .minute(), doubleValue: 0) }
        set { exerciseTimeGoal = newValue }
    }

    /// ``standHoursGoal``, or zero when there is none.
    @available(*, deprecated, renamed: "standHoursGoal")
    public var appleStandHoursGoal: HKQuantity {
        get { standHoursGoal ?? HKQuantity(unit: .count(), doubleValue: 0) }
        set { standHoursGoal = newValue }
    }

    // MARK: NSSecureCoding, NSCopying

    private enum Key {
        static let day = "day"
        static let activityMoveMode = "activityMoveMode"
        static let isPaused = "isPaused"
        static let exerciseTimeGoal = "exerciseTimeGoal"
        static let standHoursGoal = "standHoursGoal"
    }

    /// The quantities every summary has, with their archive keys.
    private static var quantityKeys: [(String, WritableKeyPath<Values, HKQuantity>)] {
        [
            ("activeEnergyBurned", \.activeEnergyBurned), ("appleMoveTime", \.appleMoveTime), ("appleExerciseTime", \.appleExerciseTime),
            ("appleStandHours", \.appleStandHours), ("activeEnergyBurnedGoal", \.activeEnergyBurnedGoal), ("appleMoveTimeGoal", \.appleMoveTimeGoal),
        ]
    }

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        let v = lock.withLock { values }
        coder.encodeIfPresent(v.day?.text, forKey: Key.day)
        coder.encodeEnum(v.activityMoveMode, forKey: Key.activityMoveMode)
        coder.encode(v.isPaused, forKey: Key.isPaused)
        for (key, path) in HKActivitySummary.quantityKeys {
            coder.encode(v[keyPath: path], forKey: key)
        }
        coder.encodeIfPresent(v.exerciseTimeGoal, forKey: Key.exerciseTimeGoal)
        coder.encodeIfPresent(v.standHoursGoal, forKey: Key.standHoursGoal)
    }

    public required convenience init?(coder: NSCoder) {
        guard let decoded = coder.decodeValid("HKActivitySummary", { () throws -> Values in
            var v = Values()
            if let text = try coder.decodeIfPresent(String.self, forKey: Key.day) {
                guard let day = ActivityDay(text: text) else { throw ArchiveError.invalid("\"\(text)\" is not a day (yyyy-MM-dd)") }
                v.day = day
            }
            v.activityMoveMode = try coder.decodeEnum(HKActivityMoveMode.self, forKey: Key.activityMoveMode)
            v.isPaused = try coder.decodeRequiredBool(forKey: Key.isPaused)
            for (key, path) in HKActivitySummary.quantityKeys {
                v[keyPath: path] = try coder.decode(HKQuantity.self, forKey: key)
            }
            v.exerciseTimeGoal = try coder.decodeIfPresent(HKQuantity.self, forKey: Key.exerciseTimeGoal)
            v.standHoursGoal = try coder.decodeIfPresent(HKQuantity.self, forKey: Key.standHoursGoal)
            return v
        }) else { return nil }
        self.init()
        values = decoded
    }

    /// Summaries are mutable: a copy is a new summary with the same values, which changes on its own.
    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = HKActivitySummary()
        copy.values = lock.withLock { values }
        return copy
    }

    public override var description: String {
        let v = lock.withLock { values }
        return "HKActivitySummary(\(v.day?.text ?? "no day"): move \(v.activeEnergyBurned)/\(v.activeEnergyBurnedGoal), "
            + "exercise \(v.appleExerciseTime)/\(v.exerciseTimeGoal.map(\.description) ?? "-"), "
            + "stand \(v.appleStandHours)/\(v.standHoursGoal.map(\.description) ?? "-"))"
    }

    /// Every value is the right kind of quantity (energy, time, count), finite and not negative, and the summary
    /// has a day; otherwise `HKError(.errorInvalidArgument)` naming the property.
    package func validate() throws {
        let v = lock.withLock { values }
        guard let day = v.day else {
            throw HKError.invalidArgument("an activity summary needs its day: make it with HKActivitySummary(dateComponents:)")
        }
        let checks: [(String, HKQuantity?, HKUnit)] = [
            ("activeEnergyBurned", v.activeEnergyBurned, .kilocalorie()), ("activeEnergyBurnedGoal", v.activeEnergyBurnedGoal, .kilocalorie()),
            ("appleMoveTime", v.appleMoveTime, .minute()), ("appleMoveTimeGoal", v.appleMoveTimeGoal, .minute()),
            ("appleExerciseTime", v.appleExerciseTime, .minute()), ("exerciseTimeGoal", v.exerciseTimeGoal, .minute()),
            ("appleStandHours", v.appleStandHours, .count()), ("standHoursGoal", v.standHoursGoal, .count()),
        ]
        for (name, quantity, unit) in checks {
            guard let quantity else { continue }
            guard quantity.is(compatibleWith: unit) else {
                throw HKError.invalidArgument("the activity summary of \(day.text) has \(name) \(quantity), which is not in a unit compatible with \(unit.unitString)")
            }
            guard quantity.doubleValue.isFinite, quantity.doubleValue >= 0 else {
                throw HKError.invalidArgument("the activity summary of \(day.text) has \(name) \(quantity); it must be a finite value of 0 or more")
            }
        }
    }
}

/// A calendar day as the person lived it — the day of an activity summary — kept as a Gregorian year, month and
/// day (`text` is `yyyy-MM-dd`, which sorts as the days do).
package struct ActivityDay: Sendable, Hashable, Comparable {
    package let year: Int, month: Int, day: Int

    package init?(year: Int, month: Int, day: Int) {
        var gregorian = Calendar(identifier: .gregorian)
        gregorian.timeZone = TimeZone(identifier: "UTC")!
        guard (1...9999).contains(year),
              let date = gregorian.date(from: DateComponents(year: year, month: month, day: day)),
              gregorian.dateComponents([.year, .month, .day], from: date) == DateComponents(year: year, month: month, day: day)
        else { return nil }
        (self.year, self.month, self.day) = (year, month, day)
    }

    /// The day `components` name in their `calendar` (Gregorian when none is set), or nil when they do not name
    /// one (no year, month or day; a day that does not exist).
    package init?(_ components: DateComponents) {
        guard let calendar = components.calendar, calendar.identifier != .gregorian else {
            guard let year = components.year, let month = components.month, let day = components.day else { return nil }
            if let era = components.era, era != 1 { return nil }
            self.init(year: year, month: month, day: day)
            return
        }
        var wanted = DateComponents()
        (wanted.era, wanted.year, wanted.month, wanted.day) = (components.era, components.year, components.month, components.day)
        guard wanted.year != nil, wanted.month != nil, wanted.day != nil, wanted.isValidDate(in: calendar),
              let date = calendar.date(from: wanted) else { return nil }
        var gregorian = Calendar(identifier: .gregorian)
        gregorian.timeZone = calendar.timeZone
        let parts = gregorian.dateComponents([.year, .month, .day], from: date)
        self.init(year: parts.year!, month: parts.month!, day: parts.day!)
    }

    /// Parses `yyyy-MM-dd`.
    package init?(text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    package var text: String { String(format: "%04d-%02d-%02d", year, month, day) }

    /// The day's components in `calendar` (era, year, month, day), with `calendar` set.
    package func dateComponents(for calendar: Calendar) -> DateComponents {
        var gregorian = Calendar(identifier: .gregorian)
        gregorian.timeZone = calendar.timeZone
        // Noon: every calendar agrees on which day noon belongs to, whatever the DST rules.
        let noon = gregorian.date(from: DateComponents(year: year, month: month, day: day, hour: 12))!
        var components = calendar.dateComponents([.era, .year, .month, .day], from: noon)
        components.calendar = calendar
        return components
    }

    package static func < (lhs: ActivityDay, rhs: ActivityDay) -> Bool { lhs.text < rhs.text }
}
