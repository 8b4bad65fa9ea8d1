public import Foundation

/// An `HKUserAnnotatedMedicationQuery` with Swift concurrency (HealthKit's `HKUserAnnotatedMedicationQueryDescriptor`).
///
/// ```swift
/// let scheduled = HKQuery.predicateForUserAnnotatedMedications(hasSchedule: true)
/// let medications = try await HKUserAnnotatedMedicationQueryDescriptor(predicate: scheduled).result(for: store)
/// ```
public struct HKUserAnnotatedMedicationQueryDescriptor: HKAsyncQuery, @unchecked Sendable {
    // @unchecked: the NSPredicate is immutable once made by HKQuery.

    /// The predicate the medications must match.
    public var predicate: NSPredicate?
    /// At most this many medications (`nil`: all).
    public var limit: Int?

    public init(predicate: NSPredicate? = nil, limit: Int? = nil) {
        self.predicate = predicate
        self.limit = limit
    }

    /// The matching medications the app may read, in the order the person added them; none when nothing matches.
    public func result(for healthStore: HKHealthStore) async throws -> [HKUserAnnotatedMedication] {
        try await HKUserAnnotatedMedicationQuery.medications(predicate: predicate, limit: limit, on: healthStore)
    }
}
