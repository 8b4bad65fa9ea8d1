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
        try StoreSummary(database: database).types.compactMap { line in
            guard let type = HKObjectType.type(forIdentifier: line.type) as? HKSampleType else { return nil }
            return StoredTypeSummary(type: type, count: line.count, first: line.first, last: line.last, sources: line.sources)
        }
    }
}

extension HealthPerson {
    /// Every source that saved samples — the person's devices, apps, institutions — with how many samples, most first.
    public func sources() throws -> [(source: HKSource, samples: Int)] {
        try StoreSummary(database: database).sources.map { (HKSource(name: $0.name, bundleIdentifier: $0.bundleIdentifier), $0.count) }
    }
}
