package import Foundation
package import OpenHealthKit

/// What the statistics suites share (embedded in OpenHealthKitTests, on both backends in HealthServerTests): the two
/// statistics queries run and awaited as an app runs them, and the fixed day their samples fall on.

/// Runs an HKStatisticsQuery and waits for it; nil when nothing matched (HealthKit's `errorNoData`).
package func statistics(_ store: HKHealthStore, _ type: HKQuantityType = HKQuantityType(.stepCount), predicate: NSPredicate? = nil,
                        options: HKStatisticsOptions, noDataIsNil: Bool = true) async throws -> HKStatistics? {
    try await withCheckedThrowingContinuation { continuation in
        store.execute(HKStatisticsQuery(quantityType: type, quantitySamplePredicate: predicate, options: options) { _, statistics, error in
            if noDataIsNil, (error as? HKError)?.code == .errorNoData, statistics == nil { return continuation.resume(returning: nil) }
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: statistics) }
        })
    }
}

/// Runs an HKStatisticsCollectionQuery in `calendar` and waits for its initial results.
package func collection(_ store: HKHealthStore, _ type: HKQuantityType = HKQuantityType(.stepCount), predicate: NSPredicate? = nil,
                        options: HKStatisticsOptions, anchor: Date, interval: DateComponents, calendar: Calendar = utc) async throws
    -> HKStatisticsCollection
{
    try await withCheckedThrowingContinuation { continuation in
        let query = HKStatisticsCollectionQuery(quantityType: type, quantitySamplePredicate: predicate, options: options,
                                                anchorDate: anchor, intervalComponents: interval)
        query.calendar = calendar
        query.initialResultsHandler = { _, collection, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: collection!) }
        }
        store.execute(query)
    }
}

/// The Gregorian calendar in UTC.
package let utc: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar
}()

/// 2026-11-04 00:00:00 UTC.
package let day0 = Date(timeIntervalSinceReferenceDate: 815_443_200)

/// A step-count sample of `value` from `start` to `end` seconds after `base`.
package func stepsSample(_ value: Double, from start: TimeInterval, to end: TimeInterval, base: Date = day0) -> HKQuantitySample {
    HKQuantitySample(type: HKQuantityType(.stepCount), quantity: HKQuantity(unit: .count(), doubleValue: value),
                     start: base.addingTimeInterval(start), end: base.addingTimeInterval(end))
}

/// A quantity's value in `unit` (nil for nil).
package func value(_ quantity: HKQuantity?, _ unit: HKUnit = .count()) -> Double? { quantity?.doubleValue(for: unit) }
