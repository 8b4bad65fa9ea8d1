package import Foundation

extension SampleFilter {
    /// The filter an `NSPredicate` stands for: one made by `HKQuery.predicateFor…` or by `NSPredicate(format:)` over
    /// HealthKit's key paths, or an `NSCompoundPredicate` of such. Any other predicate (blocks) cannot be compiled to
    /// SQL and is an `HKError(.errorInvalidArgument)` rather than a silent scan.
    package init(_ predicate: NSPredicate) throws {
        switch predicate {
        case let predicate as HKFilterPredicate:
            self = predicate.filter
        case let compound as NSCompoundPredicate:
            let parts = try compound.subpredicates.map { try SampleFilter($0) }
            switch compound.compoundPredicateType {
            case .and: self = .and(parts)
            case .or: self = .or(parts)
            case .not:
                guard parts.count == 1 else { throw HKError.invalidArgument("a NOT predicate must hold exactly one predicate") }
                self = .not(parts[0])
            @unknown default: throw HKError.invalidArgument("unknown compound predicate type \(compound.compoundPredicateType.rawValue)")
            }
        default:
            let probe = FilterProbe()
            if predicate.evaluate(with: probe), let filter = probe.filter {
                self = filter  // made by NSPredicate(format:)
                return
            }
            throw HKError.invalidArgument(
                "a \(type(of: predicate)) is not a predicate OpenHealthKit can run; build predicates with "
                    + "HKQuery.predicateFor…, NSPredicate(format:) over HealthKit's key paths, and NSCompoundPredicate")
        }
    }

    /// The filter for an optional predicate: `nil` matches everything.
    package init?(optional predicate: NSPredicate?) throws {
        guard let predicate else { return nil }
        try self.init(predicate)
    }
}
