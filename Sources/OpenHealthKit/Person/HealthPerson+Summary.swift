public import Foundation
import HealthStore

/// One line of what the store holds.
public struct StoredTypeSummary: Sendable {
    public let type: HKSampleType
    public let count: Int
    public let first: Date
    public let last: Date
    /// Source names, most samples first.
    public let sources: [String]
}

extension HealthPerson {
    /// What the store holds, per sample type: how many samples, their first start and last end, and their sources.
    public func summary() throws -> [StoredTypeSummary] {
        try contents().types
    }

    /// What the store holds, in one read: per sample type (as `summary()`), and how many daily activity summaries and
    /// health records.
    public func contents() throws -> (types: [StoredTypeSummary], activitySummaries: Int, healthRecords: Int) {
        let summary = try StoreSummary(database: database)
        let types = summary.types.compactMap { line -> StoredTypeSummary? in
            guard let type = HKObjectType.type(forIdentifier: line.type) as? HKSampleType else { return nil }
            return StoredTypeSummary(type: type, count: line.count, first: line.first, last: line.last, sources: line.sources)
        }
        return (types, summary.activitySummaries, summary.clinicalRecords)
    }
}

extension HealthPerson {
    /// Every source that saved samples — the person's devices, apps, institutions — with how many samples, most first.
    public func sources() throws -> [(source: HKSource, samples: Int)] {
        try StoreSummary(database: database).sources.map { (HKSource(name: $0.name, bundleIdentifier: $0.bundleIdentifier), $0.count) }
    }
}

extension HealthPerson {
    /// The person's own view of the store as an `HKHealthStore`: every query reads every source's data, as the Health
    /// app does. It is read-only (it may save nothing) and asks nobody anything. The CLI's `query` and `stats` use it.
    public var healthStore: HKHealthStore {
        let you = AppManifest(bundleIdentifier: AuthorizationService.personReader, name: "You")
        // The store's own connections: in the daemon, its locked state holds for the person's reads too.
        return HKHealthStore(configuration: .init(storeDirectory: database.directory, app: you, presenter: ScriptedPresenter(.denyAll)),
                             database: database)
    }
}

extension HealthPerson {
    /// The sample types the store holds, each with its first start and last end: what `summary()` gives without
    /// counting the samples, so it stays fast however many there are.
    package func typeSpans() throws -> [(type: HKSampleType, first: Date, last: Date)] {
        try StoreSummary.spans(in: database).compactMap { line in
            (HKObjectType.type(forIdentifier: line.type) as? HKSampleType).map { ($0, line.first, line.last) }
        }
    }

    /// How many daily activity summaries and health records the store holds.
    package func otherContents() throws -> (activitySummaries: Int, healthRecords: Int) {
        let counts = try StoreSummary.otherCounts(in: database)
        return (counts.activitySummaries, counts.clinicalRecords)
    }
}

extension HealthPerson {
    /// Every source with samples in the store, by name, without counting them (see ``sources()`` for the counts).
    package func sourcesPresent() throws -> [HKSource] {
        try StoreSummary.sourcesPresent(in: database).map { HKSource(name: $0.name, bundleIdentifier: $0.bundleIdentifier) }
    }
}
