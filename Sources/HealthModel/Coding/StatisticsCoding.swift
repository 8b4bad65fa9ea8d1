package import Foundation

/// How workouts and workout activities archive their statistics by quantity type: as an array of ``HKStatistics``,
/// each keyed again by its own quantity type when decoded (two statistics of one type are an error).
package enum StatisticsCoding {
    package static func encode(_ statistics: [HKQuantityType: HKStatistics], forKey key: String, with coder: NSCoder) {
        coder.encode(statistics.values.sorted { $0.quantityType.identifier < $1.quantityType.identifier }, forKey: key)
    }

    package static func decode(forKey key: String, from coder: NSCoder) throws -> [HKQuantityType: HKStatistics] {
        var statistics: [HKQuantityType: HKStatistics] = [:]
        for item in try coder.decode([HKStatistics].self, forKey: key) {
            guard statistics.updateValue(item, forKey: item.quantityType) == nil else {
                throw ArchiveError.invalid("\"\(key)\" holds two statistics of \(item.quantityType.identifier)")
            }
        }
        return statistics
    }
}
