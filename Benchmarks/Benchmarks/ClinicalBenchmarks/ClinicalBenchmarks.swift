import Benchmark
import Foundation
import OpenHealthKit

// Importing health records: the two Synthea bundles of Tests/Fixtures/fhir/synthea (R4: 74 resources, DSTU2: 50),
// read, classified and stored 20 times per iteration under 20 provider names — 2,480 resources an iteration.
// - into a fresh store (every record new);
// - again into a store that already holds them all (every record unchanged).
// resources/s = 2,480 × iterations/s (BENCHMARKS.md).

let synthea: [URL] = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let folder = root.appendingPathComponent("Tests/Fixtures/fhir/synthea")
    return ["r4-Edward_Gulgowski_43481611-2459-44f5-ab20-4b142dac160f.json", "dstu2-Boyle_Gonzalo_40.json"]
        .map { folder.appendingPathComponent($0) }
}()
let passes = 20

func freshStore() -> URL { FileManager.default.temporaryDirectory.appendingPathComponent("ohk-clinical-bench-\(UUID().uuidString)") }

@discardableResult
func importAll(into person: HealthPerson) throws -> Int {
    var stored = 0
    for pass in 0..<passes {
        for bundle in synthea {
            let summary = try person.importClinicalRecords(at: bundle, provider: "Synthea Clinic \(pass)")
            stored += summary.added + summary.unchanged + summary.patients
        }
    }
    return stored
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .peakMemoryResident],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(60),
        maxIterations: 20
    )

    Benchmark("Import the Synthea bundles 20 times into a fresh store (2,480 resources)") { benchmark in
        let folder = freshStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let person = try HealthPerson(storeDirectory: folder)
        benchmark.startMeasurement()
        blackHole(try importAll(into: person))
        benchmark.stopMeasurement()
    }

    Benchmark("Re-import the same 2,480 resources (all unchanged)") { benchmark in
        let folder = freshStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let person = try HealthPerson(storeDirectory: folder)
        try importAll(into: person)
        benchmark.startMeasurement()
        blackHole(try importAll(into: person))
        benchmark.stopMeasurement()
    }
}
