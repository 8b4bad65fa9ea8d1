/// One atom raised to an integer power: `kg^2`, `min^-1`. A unit is a list of factors with distinct atoms
/// and non-zero exponents, in the order the atoms first appeared.
///
/// ```swift
/// UnitFactor(atom: UnitAtom(.meter), exponent: 2)   // "m^2"
/// ```
package struct UnitFactor: Hashable, Sendable {
    package let atom: UnitAtom
    package var exponent: Int

    package init(atom: UnitAtom, exponent: Int) {
        self.atom = atom
        self.exponent = exponent
    }

    /// A well-mixed hash of the factor that is the same in every process, so a unit can add the hashes
    /// of its factors into one order-independent identity.
    var identity: UInt64 {
        var x = UInt64(atom.kind.rawValue) | UInt64(atom.prefix.rawValue) << 8
            | UInt64(UInt32(truncatingIfNeeded: exponent)) << 16
        x ^= atom.molarMass.bitPattern &* 0x9E37_79B9_7F4A_7C15
        // SplitMix64 finaliser
        x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
        return x ^ (x >> 31)
    }

    /// A total order used to compare large factor lists irrespective of their order.
    static func precedes(_ a: UnitFactor, _ b: UnitFactor) -> Bool {
        if a.atom.kind != b.atom.kind { return a.atom.kind.rawValue < b.atom.kind.rawValue }
        if a.atom.prefix != b.atom.prefix { return a.atom.prefix.rawValue < b.atom.prefix.rawValue }
        if a.atom.molarMass != b.atom.molarMass { return a.atom.molarMass < b.atom.molarMass }
        return a.exponent < b.exponent
    }
}
