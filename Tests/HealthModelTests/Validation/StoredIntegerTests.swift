import Testing
@testable import HealthModel

/// Stored doubles become integers without trapping, whatever an older store holds.
@Suite struct StoredIntegerTests {
    @Test func valuesBeyondIntsRangeBecomeItsBoundsAndNaNZero() {
        #expect(storedInteger(42) == 42 && storedInteger(-7.9) == -7)
        #expect(storedInteger(9.223372036854776e18) == .max && storedInteger(-1e300) == .min)
        #expect(storedInteger(.infinity) == .max && storedInteger(-.infinity) == .min && storedInteger(.nan) == 0)
    }
}
