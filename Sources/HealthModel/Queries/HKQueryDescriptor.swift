public import Foundation

/// A sample type and an optional predicate: one part of a query over several types
/// (`HKSampleQuery(queryDescriptors:…)`, `HKAnchoredObjectQuery(queryDescriptors:…)`, `HKObserverQuery(queryDescriptors:…)`).
///
/// ```swift
/// let descriptors = [HKQueryDescriptor(sampleType: HKQuantityType(.stepCount), predicate: today),
///                    HKQueryDescriptor(sampleType: HKQuantityType(.heartRate), predicate: nil)]
/// ```
///
/// Unlike HealthKit's, it is not `NSSecureCoding`: swift-corelibs-foundation cannot archive an `NSPredicate` (its
/// `NSPredicate` and `NSCompoundPredicate` do not adopt `NSCoding`), so a descriptor's predicate would be lost.
public final class HKQueryDescriptor: NSObject, @unchecked Sendable {
    // @unchecked: immutable; the predicates HKQuery makes are immutable.

    public let sampleType: HKSampleType
    public let predicate: NSPredicate?

    public init(sampleType: HKSampleType, predicate: NSPredicate?) {
        self.sampleType = sampleType
        self.predicate = predicate
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let rhs = object as? HKQueryDescriptor else { return false }
        let lhs = self
        return lhs.sampleType == rhs.sampleType && lhs.predicate == rhs.predicate
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(sampleType)
        return hasher.finalize()
    }
}
