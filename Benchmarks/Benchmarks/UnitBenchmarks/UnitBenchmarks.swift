import Benchmark
import Foundation
import OpenHealthKit

/// Unit strings as they appear in real Apple Health exports (shared/reference/hkunit.md §6).
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
        maxIterations: 10_000
    )

    // Parsing: one iteration parses every export unit string once (33 strings).
    Benchmark("Parse 33 export unit strings") { benchmark in
        for _ in benchmark.scaledIterations {
            for string in exportUnitStrings {
                blackHole(try! HKUnit.parse(string))
            }
        }
    }

    // Conversion, OpenHealthKit and Foundation's Measurement side by side.
    let pound = HKUnit.pound(), kilogram = HKUnit.gramUnit(with: .kilo)
    Benchmark("Convert lb→kg: HKQuantity") { benchmark in
        for i in benchmark.scaledIterations {
            blackHole(try! HKQuantity(unit: pound, doubleValue: Double(i)).value(in: kilogram))
        }
    }
    Benchmark("Convert lb→kg: Foundation Measurement (baseline)") { benchmark in
        for i in benchmark.scaledIterations {
            blackHole(Measurement(value: Double(i), unit: UnitMass.pounds).converted(to: .kilograms).value)
        }
    }

    let fahrenheit = HKUnit.degreeFahrenheit(), kelvin = HKUnit.kelvin()
    Benchmark("Convert degF→K: HKQuantity") { benchmark in
        for i in benchmark.scaledIterations {
            blackHole(try! HKQuantity(unit: fahrenheit, doubleValue: Double(i)).value(in: kelvin))
        }
    }
    Benchmark("Convert degF→K: Foundation Measurement (baseline)") { benchmark in
        for i in benchmark.scaledIterations {
            blackHole(Measurement(value: Double(i), unit: UnitTemperature.fahrenheit).converted(to: .kelvin).value)
        }
    }

    let mgPerDL = HKUnit(from: "mg/dL"), mmolPerL = HKUnit(from: "mmol<180.15588000005408>/L")
    Benchmark("Convert mg/dL→mmol/L: HKQuantity") { benchmark in
        for i in benchmark.scaledIterations {
            blackHole(try! HKQuantity(unit: mgPerDL, doubleValue: Double(i)).value(in: mmolPerL))
        }
    }
}
