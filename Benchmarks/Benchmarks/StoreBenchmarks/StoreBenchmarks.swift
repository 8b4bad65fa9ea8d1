import Benchmark
import Foundation
import GRDB
import OpenHealthKit

// Saving 1,000,000 quantity samples in batches of 10,000 through HKHealthStore, and the same rows through
// a bare GRDB prepared INSERT into the same schema, in one run. One iteration each: the figure is the
// wall-clock time of the whole million (samples/s = 1,000,000 / time).

let total = 1_000_000
let batchSize = 10_000
let start = Date(timeIntervalSinceReferenceDate: 700_000_000)
let app = AppManifest(bundleIdentifier: "com.example.bench", name: "Bench", version: "1",
                      shareUsageDescription: "bench", updateUsageDescription: "bench")

func freshStore(encrypted: Bool = false) async throws -> (HKHealthStore, URL) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-bench-\(UUID().uuidString)")
    if encrypted { try EncryptedStore.create(at: folder, passphrase: "a passphrase for the benchmark") }
    let store = HKHealthStore(configuration: .init(storeDirectory: folder, app: app, presenter: ScriptedPresenter(.allowAll)))
    try await store.requestAuthorization(toShare: [HKQuantityType(.stepCount)], read: [])
    return (store, folder)
}

/// The million samples, one minute apart, built before measuring.
func makeSamples() -> [[HKObject]] {
    let steps = HKQuantityType(.stepCount), count = HKUnit.count()
    return stride(from: 0, to: total, by: batchSize).map { first in
        (first..<first + batchSize).map { i in
            let t = start.addingTimeInterval(Double(i) * 60)
            return HKQuantitySample(type: steps, quantity: HKQuantity(unit: count, doubleValue: Double(i % 100)),
                                    start: t, end: t.addingTimeInterval(60))
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .peakMemoryResident],
        timeUnits: .milliseconds,
        warmupIterations: 0,
        maxDuration: .seconds(600),
        maxIterations: 1
    )

    Benchmark("Save 1,000,000 samples: HKHealthStore.save, batches of 10,000") { benchmark in
        let (store, folder) = try await freshStore()
        let batches = makeSamples()
        benchmark.startMeasurement()
        for batch in batches { try await store.save(batch) }
        benchmark.stopMeasurement()
        try? FileManager.default.removeItem(at: folder)
    }

    // The same saves into an encrypted store (every page sealed with AES-256-GCM on its way to disk).
    Benchmark("Save 1,000,000 samples: HKHealthStore.save, batches of 10,000, encrypted store") { benchmark in
        let (store, folder) = try await freshStore(encrypted: true)
        let batches = makeSamples()
        benchmark.startMeasurement()
        for batch in batches { try await store.save(batch) }
        benchmark.stopMeasurement()
        try? FileManager.default.removeItem(at: folder)
    }

    Benchmark("Save 1,000,000 samples: bare GRDB prepared INSERT, same schema (baseline)") { benchmark in
        let (_, folder) = try await freshStore()  // creates the schema by the store's own migrations
        let pool = try DatabasePool(path: folder.appendingPathComponent("health.sqlite").path)
        let sourceId = try await pool.write { db -> Int64 in
            try db.execute(sql: "INSERT INTO source (bundleIdentifier, name) VALUES ('com.example.bench', 'Bench')")
            return db.lastInsertedRowID
        }
        let rows = makeSamples().map { batch in batch.map { ($0.uuid.uuidString, ($0 as! HKQuantitySample)) } }
        benchmark.startMeasurement()
        for batch in rows {
            try await pool.write { db in
                let insert = try db.cachedStatement(sql: """
                    INSERT INTO sample (uuid, type, kind, startDate, endDate, value, originalValue, unit, count, sourceId,
                                        sourceVersion, productType, osVersion, savedAt)
                    VALUES (?, ?, 0, ?, ?, ?, ?, 'count', 1, ?, '1', 'Linux x86_64', '0.0.0', ?)
                    """)
                let now = Date().timeIntervalSinceReferenceDate
                for (uuid, sample) in batch {
                    let value = sample.quantity.doubleValue(for: .count())
                    try insert.execute(arguments: [uuid, "HKQuantityTypeIdentifierStepCount",
                                                   sample.startDate.timeIntervalSinceReferenceDate,
                                                   sample.endDate.timeIntervalSinceReferenceDate, value, value, sourceId, now])
                }
            }
        }
        benchmark.stopMeasurement()
        try? FileManager.default.removeItem(at: folder)
    }
}
