import Foundation
import GRDB
import OpenHealthKit
import Synchronization
import Testing
import TestSupport

/// Two processes writing one store at the same time, as two apps on one machine would.
@Suite("Two processes, one store")
struct TwoProcessTests {
    @Test func twoProcessesSaveIntoOneStoreAtOnceAndNothingIsLost() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("two-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (file, id) in [("a.json", "com.example.a"), ("b.json", "com.example.b")] {
            try Data("""
                {"CFBundleIdentifier": "\(id)", "CFBundleName": "\(id)", "NSHealthShareUsageDescription": "r",
                 "NSHealthUpdateUsageDescription": "w"}
                """.utf8).write(to: folder.appendingPathComponent(file))
            let authorized = try await runHealth(["authorize", "--app", file, "--write", "stepCount"], input: "y\n", in: folder)
            #expect(authorized.status == 0, "\(authorized.stderr)")
        }
        // Both start before either finishes: 250 one-sample transactions each.
        let writers = try ["a.json", "b.json"].map { file -> (ChildProcess, Pipe) in
            let process = ChildProcess()
            process.executableURL = healthExecutable
            process.arguments = ["add", "--app", file, "stepCount", "1", "count", "--times", "250"]
            process.currentDirectoryURL = folder
            var environment = ProcessInfo.processInfo.environment
            environment["OPENHEALTHKIT_STORE"] = nil
            environment["XDG_DATA_HOME"] = folder.path
            process.environment = environment
            let err = Pipe()
            process.standardError = err
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            return (process, err)
        }
        for (process, err) in writers {
            let reading = err.fileHandleForReading
            let message = await onOwnThread { String(decoding: reading.readAll(), as: UTF8.self) }
            await process.ended()
            #expect(process.terminationStatus == 0, "\(message)")
        }
        let database = try DatabaseQueue(path: folder.appendingPathComponent("openhealthkit/health.sqlite").path)
        let counts = try await database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT source.bundleIdentifier AS app, COUNT(*) AS n FROM sample JOIN source ON source.id = sample.sourceId
                GROUP BY source.bundleIdentifier ORDER BY app
                """).map { "\($0["app"] as String)=\($0["n"] as Int)" }
        }
        #expect(counts == ["com.example.a=250", "com.example.b=250"])
        #expect(try await database.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") } == "ok")
    }

    @Test(.timeLimit(.minutes(3)))
    func aLongRunningQueryHearsAnotherProcessesSave() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("two-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("""
            {"CFBundleIdentifier": "com.example.a", "CFBundleName": "A", "NSHealthShareUsageDescription": "r",
             "NSHealthUpdateUsageDescription": "w"}
            """.utf8).write(to: folder.appendingPathComponent("a.json"))
        #expect(try await runHealth(["authorize", "--app", "a.json", "--write", "stepCount"], input: "y\n", in: folder).status == 0)

        // This process reads; the `health` process writes.
        let reader = AppManifest(bundleIdentifier: "com.example.reader", name: "Reader", shareUsageDescription: "r")
        let store = HKHealthStore(configuration: .init(storeDirectory: folder.appendingPathComponent("openhealthkit"), app: reader,
                                                       presenter: ScriptedPresenter(.allowAll)))
        let steps = HKQuantityType(.stepCount)
        try await store.requestAuthorization(toShare: [], read: [steps])
        let (answers, continuation) = AsyncStream<Int>.makeStream()
        let query = HKAnchoredObjectQuery(type: steps, predicate: nil, anchor: nil, limit: HKObjectQueryNoLimit) { _, samples, _, _, _ in
            continuation.yield(samples?.count ?? -1)
        }
        query.updateHandler = { _, samples, _, _, _ in continuation.yield(samples?.count ?? -1) }
        store.execute(query)
        var iterator = answers.makeAsyncIterator()
        #expect(await iterator.next() == 0)
        let added = try await runHealth(["add", "--app", "a.json", "stepCount", "7", "count"], in: folder)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(await iterator.next() == 1, "the other process's sample arrives as an update")
        store.stop(query)
    }

    /// The person sets a unit with `health prefer` in another process: the app's store in this process, which asked for
    /// the type's unit, posts `HKUserPreferencesDidChange`.
    @Test(.timeLimit(.minutes(3)))
    func aStoreHearsThePersonChangeAUnitInAnotherProcess() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("two-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let scale = AppManifest(bundleIdentifier: "com.example.scale", name: "Scale", shareUsageDescription: "r")
        let store = HKHealthStore(configuration: .init(storeDirectory: folder.appendingPathComponent("openhealthkit"), app: scale,
                                                       presenter: ScriptedPresenter(.allowAll)))
        let bodyMass = HKQuantityType(.bodyMass)
        try await store.requestAuthorization(toShare: [], read: [bodyMass])
        _ = try await store.preferredUnits(for: [bodyMass])
        let posts = Mutex(0)
        let observer = NotificationCenter.default.addObserver(forName: .HKUserPreferencesDidChange, object: store, queue: nil) { _ in
            posts.withLock { $0 += 1 }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let preferred = try await runHealth(["prefer", "bodyMass", "lb"], in: folder)
        #expect(preferred.status == 0, "\(preferred.stderr)")
        for _ in 0..<300 where posts.withLock({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(100)) }
        #expect(posts.withLock { $0 } == 1, "posted once within 30 s of the other process's change")
        #expect(try await store.preferredUnits(for: [bodyMass]) == [bodyMass: HKUnit.pound()])
    }
}
