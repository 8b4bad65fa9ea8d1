import Foundation  // not `package import`: with it, Swift 6.3 warns of a recursion in NSPredicate's synthesized members

/// The `NSPredicate` that `HKQuery.predicateFor…` return. It carries what it means as a `SampleFilter`,
/// so the store can compile it to SQL, and it evaluates on objects in memory with `evaluate(with:)`.
/// Combine them with `NSCompoundPredicate` (AND, OR, NOT), as in HealthKit.
final class HKFilterPredicate: NSPredicate {
    let filter: SampleFilter

    init(filter: SampleFilter) {
        self.filter = filter
        super.init(value: true)
    }

    required init?(coder: NSCoder) { nil }

    override func evaluate(with object: Any?, substitutionVariables bindings: [String: Any]?) -> Bool {
        evaluate(with: object)
    }

    override func evaluate(with object: Any?) -> Bool {
        if let summary = object as? HKActivitySummary {
            return summary.day.map { (try? filter.matches(summaryOf: $0)) ?? false } ?? false
        }
        if let medication = object as? HKUserAnnotatedMedication {
            return (try? filter.matches(medication: medication)) ?? false
        }
        guard let object = object as? HKObject else { return false }
        return (try? filter.matches(object)) ?? false
    }
}
