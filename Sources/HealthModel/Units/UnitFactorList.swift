/// Accumulates factors, adding the exponents of repeated atoms (`m*m` is `m^2`), keeping first-appearance
/// order. Lookups are a short linear scan, and a hash index once the list grows, so accumulating n factors
/// costs O(n) whatever the input.
///
/// ```swift
/// var list = UnitFactorList()
/// _ = list.add(UnitAtom(.meter), 1)
/// _ = list.add(UnitAtom(.meter), -1)   // returns 0
/// list.result                          // [] — the null unit
/// ```
struct UnitFactorList {
    private(set) var factors: [UnitFactor] = []
    private var index: [UnitAtom: Int] = [:]
    private static let indexThreshold = 12

    init() {}

    init(_ factors: [UnitFactor]) {
        for factor in factors { _ = add(factor.atom, factor.exponent) }
    }

    /// Adds `atom^exponent` and returns the atom's exponent after the addition.
    mutating func add(_ atom: UnitAtom, _ exponent: Int) -> Int {
        if let i = position(of: atom) {
            factors[i].exponent += exponent
            return factors[i].exponent
        }
        factors.append(UnitFactor(atom: atom, exponent: exponent))
        if factors.count > Self.indexThreshold {
            if index.isEmpty {
                for (i, factor) in factors.enumerated() { index[factor.atom] = i }
            } else {
                index[atom] = factors.count - 1
            }
        }
        return exponent
    }

    private func position(of atom: UnitAtom) -> Int? {
        if factors.count > Self.indexThreshold { return index[atom] }
        return factors.firstIndex { $0.atom == atom }
    }

    /// The factors without those whose exponents cancelled to 0.
    var result: [UnitFactor] {
        factors.contains { $0.exponent == 0 } ? factors.filter { $0.exponent != 0 } : factors
    }
}
