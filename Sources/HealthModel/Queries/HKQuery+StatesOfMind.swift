public import Foundation

extension HKQuery {
    /// States of mind whose valence compares so to `valence` (−1 to +1): `<`, `<=`, `>`, `>=`, `==` or `!=`; any other
    /// operator makes a predicate whose query fails with `errorInvalidArgument`.
    public class func predicateForStatesOfMind(withValence valence: Double, operatorType: NSComparisonPredicate.Operator) -> NSPredicate {
        comparison(operatorType, "state of mind valences") { op in
            guard valence.isFinite else { throw HKError.invalidArgument("a valence predicate needs a number, not \(valence)") }
            return .stateOfMindValence(op, valence)
        }
    }

    /// States of mind of this kind (momentary emotions or daily moods).
    public class func predicateForStatesOfMind(with kind: HKStateOfMind.Kind) -> NSPredicate {
        HKFilterPredicate(filter: .stateOfMindKind(kind.rawValue))
    }

    /// States of mind with this label among theirs.
    public class func predicateForStatesOfMind(with label: HKStateOfMind.Label) -> NSPredicate {
        HKFilterPredicate(filter: .stateOfMindLabel(label.rawValue))
    }

    /// States of mind with this association among theirs.
    public class func predicateForStatesOfMind(with association: HKStateOfMind.Association) -> NSPredicate {
        HKFilterPredicate(filter: .stateOfMindAssociation(association.rawValue))
    }
}
