/// Exact scaling by powers of ten: `scale(x, by: k)` multiplies or divides by 10^|k| in one correctly
/// rounded operation while 10^|k| is exactly representable (|k| ≤ 22), so 1 kPa → Pa is exactly 1000 and
/// 1 g → kg exactly 0.001.
///
/// ```swift
/// PowerOfTen.scale(453.59237, by: -3)   // 0.45359237 (lb → kg)
/// ```
package enum PowerOfTen {
    private static let exact: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    @inline(__always)
    package static func scale(_ value: Double, by exponent: Int) -> Double {
        if exponent == 0 { return value }
        if exponent > 0 {
            return exponent <= 22 ? value * exact[exponent] : value * power(exponent)
        }
        return exponent >= -22 ? value / exact[-exponent] : value / power(-exponent)
    }

    private static func power(_ exponent: Int) -> Double {
        // Past 10^22 the result is inexact anyway; beyond 10^308 it is infinity (and the scaled value 0 or inf).
        var result = 1.0
        var remaining = min(exponent, 400)
        while remaining > 22 {
            result *= 1e22
            remaining -= 22
        }
        return result * exact[remaining]
    }
}
