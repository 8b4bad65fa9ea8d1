import Benchmark
import Foundation
import OpenHealthKit

// The unit engine's hot paths, with Foundation's `Measurement.converted(to:)` as the side-by-side baseline
// for the same conversions in the same run. Run from Benchmarks/:
//   swift package --disable-sandbox benchmark --target UnitBenchmarks

/// Unit strings as they appear in real Apple Health exports (Reference/hkunit.md §6).
let exportUnitStrings = [
    "count", "count/min", "count/s", "kcal", "Cal", "kJ", "km", "mi", "m", "cm", "in", "ft", "kg", "lb", "%", "ms",
    "W", "km/hr", "mi/hr", "min", "hr", "mL", "mmHg", "dBASPL", "dBHL", "Hz", "degC", "degF", "mg/dL",
    "mmol<180.1558800000541>/L", "mL/min·kg", "mL/kg·min", "kcal/hr·kg",
]

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        scalingFactor: .kilo,
        maxDuration: .seconds(3),
        maxIterations: 1_000_000
    )

    // Parsing: one iteration parses every export unit string once (33 strings); ×1000 per sample.
    Benchmark("Parse 33 export unit strings") { benchmark in
        for _ in benchmark.scaledIterations {
            for string in exportUnitStrings {
                blackHole(try! HKUnit.parse(string))
            }
        }
    }

    // Conversion: one iteration makes a quantity and reads it in another unit, on both sides.
    let pound = HKUnit.pound(), kilogram = HKUnit.gramUnit(with: .kilo)
    Benchmark("Convert lb→kg: HKQuantity.doubleValue(for:)") { benchmark in
        for i in benchmark.scaledIterations {
            blackHole(HKQuantity(unit: pound, doubleValue: Double(i)).doubleValue(for: kilogram))
        }
    }
    Benchmark("Convert lb→kg: Foundation Measurement.converted(to:) (baseline)") { benchmark in
        for i in benchmark.scaledIterations {
            blackHole(Measurement(value: Double(i), unit: UnitMass.pounds).converted(to: .kilograms).value)
        }
    }

    let fahrenheit = HKUnit.degreeFahrenheit(), celsius = HKUnit.degreeCelsius()
    Benchmark("Convert degF→degC: HKQuantity.doubleValue(for:)") { benchmark in
        for i in benchmark.scaledIterations {
            blackHole(HKQuantity(unit: fahrenheit, doubleValue: Double(i)).doubleValue(for: celsius))
        }
    }
    Benchmark("Convert degF→degC: Foundation Measurement.converted(to:) (baseline)") { benchmark in
        for i in benchmark.scaledIterations {
            blackHole(Measurement(value: Double(i), unit: UnitTemperature.fahrenheit).converted(to: .celsius).value)
        }
    }

    let mgPerDL = HKUnit(from: "mg/dL"), mmolPerL = HKUnit(from: "mmol<180.15588000005408>/L")
    Benchmark("Convert mg/dL→mmol/L: HKQuantity.doubleValue(for:)") { benchmark in
        for i in benchmark.scaledIterations {
            blackHole(HKQuantity(unit: mgPerDL, doubleValue: Double(i)).doubleValue(for: mmolPerL))
        }
    }
}
