public import Foundation
import HealthStore

extension HealthPerson {
    /// The time zone the person's days are counted in: theirs (`setTimeZone(_:)`), else the one their last imported
    /// export was written in (its `HKTimeZone` metadata), else this machine's (`TZ`). `health stats` and `health query`
    /// use it, so a store gives the same daily totals on a server in UTC as on the person's phone.
    public func timeZone() throws -> TimeZone {
        try PersonTimeZoneStore(database: database).setting()?.zone ?? .current
    }

    /// The stored time zone and whether the person chose it (false: learned from an export); nil when none is stored.
    public func timeZoneSetting() throws -> (zone: TimeZone, byPerson: Bool)? {
        try PersonTimeZoneStore(database: database).setting()
    }

    /// Sets the person's time zone (imports never override it); `nil` forgets it, so the machine's applies again until
    /// an import teaches one.
    public func setTimeZone(_ zone: TimeZone?) throws {
        try PersonTimeZoneStore(database: database).set(zone, byPerson: true)
    }

    /// How many samples of `type` the person's store holds (every source), matching `predicate`.
    public func sampleCount(of type: HKSampleType, predicate: NSPredicate? = nil) throws -> Int {
        try sampleStore.sampleCount(ofType: type, matching: SampleFilter(optional: predicate), visibleTo: AuthorizationService.personReader)
    }

    /// How many samples of `type` match, counting at most `limit`: a page needs to know whether there are more than it
    /// shows, not how many millions.
    package func sampleCount(of type: HKSampleType, predicate: NSPredicate? = nil, upTo limit: Int) throws -> Int {
        try sampleStore.sampleCount(ofType: type, matching: SampleFilter(optional: predicate), visibleTo: AuthorizationService.personReader, limit: limit)
    }
}
