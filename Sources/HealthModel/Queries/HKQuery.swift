public import Foundation

/// The abstract base of every query: the type it asks about and the predicate that narrows it.
/// Its class methods make the predicates (see `HKQuery+Predicates.swift`).
open class HKQuery: NSObject, @unchecked Sendable {
    // @unchecked: `objectType` and `predicate` are set once; the predicates HKQuery makes are immutable.

    /// The type of object the query looks for.
    public let objectType: HKObjectType?
    /// The predicate that narrows the results, if any.
    public let predicate: NSPredicate?

    /// The sample type the query looks for.
    @available(*, deprecated, renamed: "objectType")
    public var sampleType: HKSampleType? { objectType as? HKSampleType }

    package init(objectType: HKObjectType?, predicate: NSPredicate?) {
        self.objectType = objectType
        self.predicate = predicate
    }
}
