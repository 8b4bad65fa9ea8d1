import Benchmark
import Foundation
import GRDB
import OpenHealthKit

// Queries on a year of a synthetic person (`health generate`: phone + watch minute steps, heart rate every 5 s
// while awake, sleep, workouts, weight), in one run:
// - daily merged step totals for the year (HKStatisticsCollectionQuery, sources merged by priority, exactly and on
//   HealthKit's observed 15-minute grid) beside a
//   hand-written SQL GROUP BY of unmerged daily sums on the same database (the baseline);
// - hourly heart-rate average / minimum / maximum for a month;
// - the first 100 heart-rate samples in a date range (HKSampleQuery).
// The store is generated once into $OHK_BENCH_STORE (default /tmp/ohk-bench-year) and reused.

let folder = URL(fileURLWithPath: ProcessInfo.processInfo.environment["OHK_BENCH_STORE"] ?? "/tmp/ohk-bench-year")
let plan = SyntheticPerson(days: 365)
let yearStart = plan.end.addingTimeInterval(-365 * 86_400)
let reader = AppManifest(bundleIdentifier: "com.example.reader", name: "Reader", version: "1", shareUsageDescription: "bench")

var utc: Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar
}

/// The same year, encrypted (`EncryptedStore.encrypt` of a copy of the plain store), beside it.
let encryptedFolder = URL(fileURLWithPath: folder.path + "-encrypted")
let benchmarkPassphrase = "a passphrase for the benchmark"

/// The year store, generated on first use, and a reader app allowed to read everything; with `encrypted`, its
/// encrypted copy, made on first use.
func yearStore(merge: HKStatisticsMergeMode = .exact, encrypted: Bool = false) async throws -> HKHealthStore {
    let marker = folder.appendingPathComponent("generated")
    if !FileManager.default.fileExists(atPath: marker.path) {
        try? FileManager.default.removeItem(at: folder)
        let started = Date()
        let summary = try HealthPerson(storeDirectory: folder).generate(plan)
        print("generated \(summary.total) samples in \(Int(Date().timeIntervalSince(started))) s: \(summary.samplesByType)")
        try Data().write(to: marker)
    }
    var directory = folder
    if encrypted {
        directory = encryptedFolder
        let encryptedMarker = encryptedFolder.appendingPathComponent("encrypted")
        if !FileManager.default.fileExists(atPath: encryptedMarker.path) {
            try? FileManager.default.removeItem(at: encryptedFolder)
            try FileManager.default.copyItem(at: folder, to: encryptedFolder)
            try EncryptedStore.encrypt(at: encryptedFolder, passphrase: benchmarkPassphrase)
            try Data().write(to: encryptedMarker)
        } else if !EncryptedStore.isEncrypted(at: encryptedFolder) {
            throw CocoaError(.fileReadCorruptFile)
        }
        try EncryptedStore.unlock(at: encryptedFolder, passphrase: benchmarkPassphrase)
    }
    let store = HKHealthStore(configuration: .init(storeDirectory: directory, app: reader, presenter: ScriptedPresenter(.allowAll),
                                                   statisticsMergeMode: merge))
    try await store.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount), HKQuantityType(.heartRate)])
    return store
}

func dailySteps(_ store: HKHealthStore) async throws -> HKStatisticsCollection {
    let query = HKStatisticsCollectionQuery(quantityType: HKQuantityType(.stepCount),
                                            quantitySamplePredicate: HKQuery.predicateForSamples(withStart: yearStart, end: plan.end),
                                            options: .cumulativeSum, anchorDate: yearStart, intervalComponents: DateComponents(day: 1))
    query.calendar = utc
    return try await withCheckedThrowingContinuation { continuation in
        query.initialResultsHandler = { _, collection, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: collection!) }
        }
        store.execute(query)
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .peakMemoryResident],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(60),
        maxIterations: 10
    )

    Benchmark("Daily merged step totals for a year: HKStatisticsCollectionQuery") { benchmark in
        let store = try await yearStore()
        benchmark.startMeasurement()
        let days = try await dailySteps(store)
        benchmark.stopMeasurement()
        blackHole(days.statistics().count)
    }

    Benchmark("Daily merged step totals for a year: HKStatisticsCollectionQuery, encrypted store") { benchmark in
        let store = try await yearStore(encrypted: true)
        benchmark.startMeasurement()
        let days = try await dailySteps(store)
        benchmark.stopMeasurement()
        blackHole(days.statistics().count)
    }

    Benchmark("Daily merged step totals for a year, HealthKit's 15-minute grid (appleGrid900)") { benchmark in
        let store = try await yearStore(merge: .appleGrid900)
        benchmark.startMeasurement()
        let days = try await dailySteps(store)
        benchmark.stopMeasurement()
        blackHole(days.statistics().count)
    }

    Benchmark("Daily unmerged step sums for a year: SQL GROUP BY (baseline)") { benchmark in
        _ = try await yearStore()
        let queue = try DatabaseQueue(path: folder.appendingPathComponent("health.sqlite").path)
        benchmark.startMeasurement()
        let rows = try await queue.read { db in
            try Row.fetchAll(db, sql: """
                SELECT CAST((startDate - ?) / 86400 AS INTEGER) AS day, SUM(value) FROM sample
                WHERE typeCode = (SELECT code FROM sampleType WHERE identifier = 'HKQuantityTypeIdentifierStepCount')
                  AND endDate >= ? AND startDate < ?
                GROUP BY day
                """, arguments: [yearStart.timeIntervalSinceReferenceDate, yearStart.timeIntervalSinceReferenceDate,
                                 plan.end.timeIntervalSinceReferenceDate])
        }
        benchmark.stopMeasurement()
        blackHole(rows.count)
    }

    Benchmark("Hourly heart-rate average/min/max for a month: HKStatisticsCollectionQuery") { benchmark in
        let store = try await yearStore()
        let monthStart = plan.end.addingTimeInterval(-30 * 86_400)
        let query = HKStatisticsCollectionQuery(quantityType: HKQuantityType(.heartRate),
                                                quantitySamplePredicate: HKQuery.predicateForSamples(withStart: monthStart, end: plan.end),
                                                options: [.discreteAverage, .discreteMin, .discreteMax],
                                                anchorDate: monthStart, intervalComponents: DateComponents(hour: 1))
        query.calendar = utc
        benchmark.startMeasurement()
        let hours: HKStatisticsCollection = try await withCheckedThrowingContinuation { continuation in
            query.initialResultsHandler = { _, collection, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: collection!) }
            }
            store.execute(query)
        }
        benchmark.stopMeasurement()
        blackHole(hours.statistics().count)
    }

    Benchmark("First 100 heart-rate samples in a date range: HKSampleQuery",
              configuration: .init(metrics: [.wallClock], timeUnits: .microseconds, warmupIterations: 10,
                                   maxDuration: .seconds(20), maxIterations: 1000)) { benchmark in
        try await firstHundredHeartRates(try await OpenStores.shared.embedded(), benchmark)
    }

    Benchmark("First 100 heart-rate samples in a date range: HKSampleQuery, encrypted store",
              configuration: .init(metrics: [.wallClock], timeUnits: .microseconds, warmupIterations: 10,
                                   maxDuration: .seconds(20), maxIterations: 1000)) { benchmark in
        try await firstHundredHeartRates(try await OpenStores.shared.encrypted(), benchmark)
    }

    // The same query through the daemon, when Benchmarks/Scripts/remote_query.py started `health serve` on the year store
    // and connected an app (its Unix socket and token in OHK_BENCH_SERVER and OHK_BENCH_TOKEN): the remote HKHealthStore.
    let environment = ProcessInfo.processInfo.environment
    if let server = environment["OHK_BENCH_SERVER"], let token = environment["OHK_BENCH_TOKEN"] {
        // The daemon computes the statistics and sends 365 days, not the samples behind them.
        Benchmark("Daily merged step totals for a year: HKStatisticsCollectionQuery through health serve (remote HKHealthStore)") { benchmark in
            _ = try await yearStore()
            let store = HKHealthStore(configuration: .init(server: .init(address: server, token: token)))
            benchmark.startMeasurement()
            let days = try await dailySteps(store)
            benchmark.stopMeasurement()
            precondition(days.statistics().count == 365, "the daemon gave \(days.statistics().count) days, not 365")
            blackHole(days.statistics().count)
        }

        Benchmark("First 100 heart-rate samples in a date range: HKSampleQuery through health serve (remote HKHealthStore)",
                  configuration: .init(metrics: [.wallClock], timeUnits: .microseconds, warmupIterations: 10,
                                       maxDuration: .seconds(20), maxIterations: 1000)) { benchmark in
            try await firstHundredHeartRates(try await OpenStores.shared.remote(server: server, token: token), benchmark)
        }
    }
}

/// The stores of the sample-query benchmarks, each opened once and kept for all the iterations, as an app keeps its
/// HKHealthStore: each iteration measures a query in a running app, and nothing is opened between two of them.
actor OpenStores {
    static let shared = OpenStores()
    private var embeddedStore: HKHealthStore?
    private var remoteStore: HKHealthStore?
    private var encryptedStore: HKHealthStore?

    func encrypted() async throws -> HKHealthStore {
        if let encryptedStore { return encryptedStore }
        let store = try await yearStore(encrypted: true)
        encryptedStore = store
        return store
    }

    func embedded() async throws -> HKHealthStore {
        if let embeddedStore { return embeddedStore }
        let store = try await yearStore()
        embeddedStore = store
        return store
    }

    func remote(server: String, token: String) async throws -> HKHealthStore {
        if let remoteStore { return remoteStore }
        _ = try await yearStore()   // generates the year store if it is not there yet
        let store = HKHealthStore(configuration: .init(server: .init(address: server, token: token)))
        remoteStore = store
        return store
    }
}

/// The measured query: the first 100 heart-rate samples of a week, by start date (HKSampleQuery).
func firstHundredHeartRates(_ store: HKHealthStore, _ benchmark: Benchmark) async throws {
    let from = plan.end.addingTimeInterval(-200 * 86_400)
    let predicate = HKQuery.predicateForSamples(withStart: from, end: from.addingTimeInterval(7 * 86_400))
    benchmark.startMeasurement()
    let samples: [HKSample] = try await withCheckedThrowingContinuation { continuation in
        store.execute(HKSampleQuery(sampleType: HKQuantityType(.heartRate), predicate: predicate, limit: 100,
                                    sortDescriptors: [NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: true)]) { _, samples, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: samples ?? []) }
        })
    }
    benchmark.stopMeasurement()
    precondition(samples.count == 100, "the query found \(samples.count) samples, not 100")
    blackHole(samples.count)
}
