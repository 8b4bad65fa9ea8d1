/// A small deterministic generator, so a failing random case can be replayed from its seed. SplitMix64's shape with
/// one multiplier of its own: kept as it is so that the seeds recorded for the predicate and privacy property runs
/// (FUZZING.md) replay the same cases; new tests use `SplitMix64`. Shared by the test targets (the privacy property
/// runs on both backends, in HealthServerTests).
package struct PredicateRandom: RandomNumberGenerator {
    package var state: UInt64

    package init(state: UInt64) {
        self.state = state
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476C_E5B9_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
