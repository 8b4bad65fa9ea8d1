import Foundation
import HealthStore
import NIOHTTP1
import Synchronization
import Testing
@testable import OpenHealthKit

private let ecgType = HKObjectType.electrocardiogramType()
private let heartbeatType = HKSeriesType.heartbeat()
private let recorded = Date(timeIntervalSinceReferenceDate: 815_443_200)
private let watch = HKSourceRevision(source: HKSource(name: "Alex’s Apple Watch", bundleIdentifier: "com.apple.health.8F2A"), version: "11.1",
                                     productType: "Watch7,3", operatingSystemVersion: OperatingSystemVersion(majorVersion: 11, minorVersion: 1, patchVersion: 0))

/// An electrocardiogram of four voltages at 512 Hz and a heartbeat series of three beats, put in the store as an import
/// does (from the person's watch), not by any app.
private func importRecordings(into folder: URL) throws -> (HKElectrocardiogram, HKHeartbeatSeriesSample) {
    let ecg = HKElectrocardiogram(
        start: recorded, end: recorded.addingTimeInterval(30), voltages: [-107.825, -103.391, -98.957, -94.523], numberOfVoltageMeasurements: 4,
        samplingFrequency: HKQuantity(unit: .hertz(), doubleValue: 512), classification: .sinusRhythm,
        averageHeartRate: HKQuantity(unit: HKUnit.count().unitDivided(by: .minute()), doubleValue: 64), symptomsStatus: .none,
        metadata: nil, sourceRevision: watch, device: nil)
    let series = HKHeartbeatSeriesSample(
        count: 3, start: recorded, end: recorded.addingTimeInterval(60),
        beats: [.init(offset: 0.8, precededByGap: false), .init(offset: 1.7, precededByGap: true), .init(offset: 2.5, precededByGap: false)],
        metadata: nil, sourceRevision: watch, device: nil)
    try SampleStore(database: HealthDatabase(directory: folder)).importSamples([ecg, series])
    return (ecg, series)
}

private let steps = HKQuantityType(.stepCount)

/// Every location an `HKWorkoutRouteQuery` delivers, until `done`.
private func locations(_ route: HKWorkoutRoute, in interval: DateInterval? = nil, on store: HKHealthStore) async throws -> [CLLocation] {
    let batches = Mutex<[CLLocation]>([])
    return try await withCheckedThrowingContinuation { continuation in
        let handler: HKWorkoutRouteQuery.DataHandler = { _, locations, done, error in
            if let error { return continuation.resume(throwing: error) }
            batches.withLock { $0 += locations ?? [] }
            if done { continuation.resume(returning: batches.withLock { $0 }) }
        }
        store.execute(interval.map { HKWorkoutRouteQuery(route: route, dateInterval: $0, dataHandler: handler) }
                      ?? HKWorkoutRouteQuery(route: route, dataHandler: handler))
    }
}

/// What an `HKQuantitySeriesSampleQuery` of steps gives: each quantity (count), its interval and its sample's UUID.
private func seriesQuantities(_ store: HKHealthStore) async throws -> [(Double, DateInterval, UUID?)] {
    var quantities: [(Double, DateInterval, UUID?)] = []
    let descriptor = HKQuantitySeriesSampleQueryDescriptor(predicate: .quantitySample(type: steps), options: .includeSample)
    for try await result in descriptor.results(for: store) {
        quantities.append((result.quantity.doubleValue(for: .count()), result.dateInterval, result.sample?.uuid))
    }
    return quantities
}

/// The code of the error `body` throws, nil when it throws none.
private func code(_ body: () async throws -> Void) async -> HKError.Code? {
    do { try await body(); return nil } catch let error as HKError { return error.code } catch { return nil }
}

/// Electrocardiograms and heartbeat series with their data, on both backends: found by sample queries, their voltages
/// and beats read with the series queries, only by an app the person lets read them.
@Suite("Series data on both backends")
struct SeriesDataTests {
    @Test(arguments: Backend.allCases)
    func anElectrocardiogramAndItsVoltagesComeBackAsStored(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .allowAll)
            try await store.requestAuthorization(toShare: [], read: [ecgType, heartbeatType])
            let (saved, _) = try importRecordings(into: session.folder)
            let found = try await HKSampleQueryDescriptor(predicates: [.electrocardiogram()], sortDescriptors: []).result(for: store)
            let ecg = try #require(found.first)
            #expect(found.count == 1 && ecg.uuid == saved.uuid && ecg.classification == .sinusRhythm && ecg.symptomsStatus == .none)
            #expect(ecg.numberOfVoltageMeasurements == 4 && ecg.samplingFrequency?.doubleValue(for: .hertz()) == 512)
            #expect(ecg.averageHeartRate?.doubleValue(for: HKUnit.count().unitDivided(by: .minute())) == 64)
            #expect(ecg.sourceRevision.source.name == "Alex’s Apple Watch" && ecg.startDate == recorded)
            var measurements: [(TimeInterval, Double?)] = []
            for try await measurement in HKElectrocardiogramQueryDescriptor(ecg).results(for: store) {
                measurements.append((measurement.timeSinceSampleStart, measurement.quantity(for: .appleWatchSimilarToLeadI)?.doubleValue(for: .voltUnit(with: .micro))))
            }
            let times: [TimeInterval] = [0, 1, 2, 3].map { $0 / 512 }
            #expect(measurements.map(\.0) == times)
            #expect(measurements.map(\.1) == [-107.825, -103.391, -98.957, -94.523])
        }
    }

    @Test(arguments: Backend.allCases)
    func aHeartbeatSeriesAndItsBeatsComeBackAsStored(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .allowAll)
            try await store.requestAuthorization(toShare: [], read: [ecgType, heartbeatType])
            let (_, saved) = try importRecordings(into: session.folder)
            let found = try await HKSampleQueryDescriptor(predicates: [.heartbeatSeries()], sortDescriptors: []).result(for: store)
            let series = try #require(found.first)
            #expect(found.count == 1 && series.uuid == saved.uuid && series.count == 3)
            var beats: [HKHeartbeatSeriesQueryDescriptor.Heartbeat] = []
            for try await beat in HKHeartbeatSeriesQueryDescriptor(series).results(for: store) { beats.append(beat) }
            #expect(beats.map(\.timeIntervalSinceStart) == [0.8, 1.7, 2.5])
            #expect(beats.map(\.precededByGap) == [false, true, false])
        }
    }

    /// An app the person does not let read them finds no recordings, and asking for the data of one it holds anyway
    /// answers as for one that does not exist.
    @Test(arguments: Backend.allCases)
    func anAppThatMayNotReadThemLearnsNothingOfTheirData(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .denyAll)
            try await store.requestAuthorization(toShare: [], read: [ecgType, heartbeatType])
            let (ecg, series) = try importRecordings(into: session.folder)
            #expect(try await HKSampleQueryDescriptor(predicates: [.electrocardiogram()], sortDescriptors: []).result(for: store).isEmpty)
            #expect(try await HKSampleQueryDescriptor(predicates: [.heartbeatSeries()], sortDescriptors: []).result(for: store).isEmpty)
            let absent = HKElectrocardiogram(start: ecg.startDate, end: ecg.endDate, numberOfVoltageMeasurements: 4, samplingFrequency: nil,
                                             classification: .sinusRhythm, averageHeartRate: nil, symptomsStatus: .none, metadata: nil,
                                             sourceRevision: watch, device: nil)
            let hidden = await code { for try await _ in HKElectrocardiogramQueryDescriptor(ecg).results(for: store) {} }
            let missing = await code { for try await _ in HKElectrocardiogramQueryDescriptor(absent).results(for: store) {} }
            #expect(hidden == .errorNoData && missing == .errorNoData)
            let beats = await code { for try await _ in HKHeartbeatSeriesQueryDescriptor(series).results(for: store) {} }
            #expect(beats == .errorNoData)
        }
    }

    /// A route from the person's export (two locations), found by its workout and read whole and by interval.
    @Test(arguments: Backend.allCases)
    func aWorkoutRouteAndItsLocationsComeBackAsImported(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .allowAll)
            try await store.requestAuthorization(toShare: [], read: [HKObjectType.workoutType(), HKSeriesType.workoutRoute()])
            let export = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Fixtures/apple-health-export/dogsheep_healthkit-to-sqlite/export.xml")
            _ = try session.person().importExport(at: export)
            let workout = try #require(try await HKSampleQueryDescriptor(predicates: [.workout()], sortDescriptors: []).result(for: store).first)
            let routes = try await HKSampleQueryDescriptor(predicates: [.workoutRoute(HKQuery.predicateForObjects(from: workout))], sortDescriptors: [])
                .result(for: store)
            let route = try #require(routes.first)
            #expect(routes.count == 1 && route.count == 2 && route.sourceRevision.source.name == "Simon’s iPhone")
            let points = try await locations(route, on: store)
            #expect(points.map(\.altitude) == [21.2694, 21.2677])
            #expect(points[0].coordinate == CLLocationCoordinate2D(latitude: 37.7777, longitude: -122.426))
            #expect(points[0].horizontalAccuracy == 2.40948 && points[0].course == -1 && points[0].speed == 2.48034)
            #expect(points.map(\.timestamp) == [Date(timeIntervalSince1970: 1_479_133_544), Date(timeIntervalSince1970: 1_479_133_544)])
            // Both locations are of the same second: an interval holding it gives both, one before it none.
            let during = try await locations(route, in: DateInterval(start: points[0].timestamp, duration: 1), on: store)
            #expect(during.map(\.altitude) == [21.2694, 21.2677])
            #expect(try await locations(route, in: DateInterval(start: points[0].timestamp.addingTimeInterval(-60), duration: 30), on: store).isEmpty)
        }
    }

    /// Another app's series sample (three quantities) is read quantity by quantity by an app that may read steps, and
    /// not at all by one that may not.
    @Test(arguments: Backend.allCases)
    func aSeriesSampleIsReadQuantityByQuantity(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            // The series, saved by another app through the engine in this process.
            let other = HKHealthStore(configuration: .init(storeDirectory: session.folder, app: .other, presenter: ScriptedPresenter(.allowAll)))
            try await other.requestAuthorization(toShare: [steps], read: [])
            let builder = HKQuantitySeriesSampleBuilder(healthStore: other, quantityType: steps, startDate: recorded, device: nil)
            for (minute, count) in [(0, 10.0), (1, 20.0), (2, 30.0)] {
                try builder.insert(HKQuantity(unit: .count(), doubleValue: count),
                                   for: DateInterval(start: recorded.addingTimeInterval(Double(minute) * 60), duration: 60))
            }
            let saved = try #require(try await builder.finishSeries(metadata: nil, endDate: nil).first)

            let reader = try await session.app(.steps, answering: .allowAll)
            try await reader.requestAuthorization(toShare: [steps], read: [steps])
            let quantities = try await seriesQuantities(reader)
            #expect(quantities.map(\.0) == [10, 20, 30])
            #expect(quantities.map(\.1) == [0, 60, 120].map { DateInterval(start: recorded.addingTimeInterval($0), duration: 60) })
            #expect(quantities.allSatisfy { $0.2 == saved.uuid })

            let stranger = try await session.app(AppManifest(bundleIdentifier: "com.example.stranger", name: "Stranger", shareUsageDescription: "Reads.",
                                                             updateUsageDescription: "Writes."), answering: .denyAll)
            try await stranger.requestAuthorization(toShare: [steps], read: [steps])
            #expect(try await seriesQuantities(stranger).isEmpty)
        }
    }

    /// An app builds a series of its own with `HKQuantitySeriesSampleBuilder`: the sample it gets back is the one stored,
    /// with its sum and count, and its quantities come back one by one.
    @Test(arguments: Backend.allCases)
    func anAppsBuiltSeriesIsSavedWithItsQuantities(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .allowAll)
            try await store.requestAuthorization(toShare: [steps], read: [steps])
            let builder = HKQuantitySeriesSampleBuilder(healthStore: store, quantityType: steps, startDate: recorded, device: nil)
            for (minute, count) in [(2, 30.0), (0, 10.0), (1, 20.0)] {
                try builder.insert(HKQuantity(unit: .count(), doubleValue: count),
                                   for: DateInterval(start: recorded.addingTimeInterval(Double(minute) * 60), duration: 60))
            }
            let made = try #require(try await builder.finishSeries(metadata: ["HKWasUserEntered": false], endDate: nil).first)
            #expect(made.quantity.doubleValue(for: .count()) == 60 && made.count == 3 && made.endDate == recorded.addingTimeInterval(180))
            let stored = try await HKSampleQueryDescriptor(predicates: [.quantitySample(type: steps)], sortDescriptors: []).result(for: store)
            #expect(stored.map(\.uuid) == [made.uuid] && stored.first?.count == 3 && stored.first?.quantity.doubleValue(for: .count()) == 60)
            #expect(stored.first?.metadata?["HKWasUserEntered"] as? Bool == false)
            #expect(try await seriesQuantities(store).map(\.0) == [10, 20, 30])
        }
    }

    /// What the builder refuses the daemon refuses too, naming the quantity: an end before its start, one before the
    /// series' start, a unit of another kind; and nothing of a refused series is saved.
    @Test func aSeriesTheBuilderWouldRefuseIsA400NamingTheQuantity() async throws {
        try await DaemonHarness.with { daemon in
            let token = try await daemon.connect("com.example.steps", share: [steps], read: [steps])
            func series(_ quantities: String, unit: String = "count") -> String {
                #"{"sample":{"uuid":"\#(UUID().uuidString)","type":"HKQuantityTypeIdentifierStepCount","startDate":"2026-11-24T08:00:00Z","#
                    + #""endDate":"2026-11-24T09:00:00Z","quantity":{"value":0,"unit":"\#(unit)"}},"quantities":[\#(quantities)]}"#
            }
            let good = #"{"startDate":"2026-11-24T08:00:00Z","endDate":"2026-11-24T08:01:00Z","value":5}"#
            for (body, field) in [
                (series(good + "," + #"{"startDate":"2026-11-24T08:05:00Z","endDate":"2026-11-24T08:04:00Z","value":5}"#), "/quantities/1/endDate"),
                (series(#"{"startDate":"2026-11-24T07:59:00Z","endDate":"2026-11-24T08:01:00Z","value":5}"#), "/quantities/0"),
                (series(good, unit: "kg"), "/sample/quantity/unit"),
                (series(good + "," + good), "/quantities"),
            ] {
                let refused = try await daemon.raw(.POST, "/v1/objects/quantity-series", body: body, token: token)
                #expect(refused.status == 400 && refused.json["field"] as? String == field, "\(field): \(refused.body)")
            }
            let found = try await daemon.raw(.POST, "/v1/queries/samples", body: #"{"type":"HKQuantityTypeIdentifierStepCount"}"#, token: token)
            #expect((found.json["samples"] as? [Any])?.isEmpty == true, "\(found.body)")
            let saved = try await daemon.raw(.POST, "/v1/objects/quantity-series", body: series(good), token: token)
            #expect(saved.status == 204, "\(saved.body)")
        }
    }

    /// An app builds a heartbeat series of its own: saved with its beats, as on an embedded store.
    @Test(arguments: Backend.allCases)
    func anAppsBuiltHeartbeatSeriesIsSavedWithItsBeats(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .allowAll)
            try await store.requestAuthorization(toShare: [heartbeatType], read: [heartbeatType])
            let builder = HKHeartbeatSeriesBuilder(healthStore: store, device: nil, start: recorded)
            for (time, gap) in [(0.41, false), (1.22, false), (3.90, true)] { try await builder.addHeartbeat(at: time, precededByGap: gap) }
            try await builder.addMetadata(["context": "rest"])
            let made = try await builder.finishSeries()
            let found = try await HKSampleQueryDescriptor(predicates: [.heartbeatSeries()], sortDescriptors: []).result(for: store)
            let stored = try #require(found.first)
            #expect(found.count == 1 && stored.uuid == made.uuid && stored.count == 3 && stored.endDate == recorded.addingTimeInterval(3.90))
            #expect(stored.metadata?["context"] as? String == "rest")
            var beats: [HKHeartbeatSeriesQueryDescriptor.Heartbeat] = []
            for try await beat in HKHeartbeatSeriesQueryDescriptor(stored).results(for: store) { beats.append(beat) }
            #expect(beats.map(\.timeIntervalSinceStart) == [0.41, 1.22, 3.90] && beats.map(\.precededByGap) == [false, false, true])
        }
    }

    /// Beats out of order, or a series that does not end at its last beat, are a 400 naming the field; nothing is saved.
    @Test func aHeartbeatSeriesTheBuilderWouldRefuseIsA400NamingIt() async throws {
        try await DaemonHarness.with { daemon in
            let token = try await daemon.connect("com.example.heart", share: [heartbeatType], read: [heartbeatType])
            func series(_ beats: [Double], end: String = "2026-11-24T08:00:02Z") -> String {
                let list = beats.map { #"{"timeSinceSeriesStart":\#($0),"precededByGap":false}"# }.joined(separator: ",")
                return #"{"sample":{"uuid":"\#(UUID().uuidString)","type":"HKDataTypeIdentifierHeartbeatSeries","startDate":"2026-11-24T08:00:00Z","#
                    + #""endDate":"\#(end)","count":\#(beats.count)},"beats":[\#(list)]}"#
            }
            for (body, field) in [(series([1, 0.5, 2]), "/beats/1/timeSinceSeriesStart"), (series([1, 2], end: "2026-11-24T08:00:09Z"), "/sample/endDate")] {
                let refused = try await daemon.raw(.POST, "/v1/objects/heartbeat-series", body: body, token: token)
                #expect(refused.status == 400 && refused.json["field"] as? String == field, "\(field): \(refused.body)")
            }
            let found = try await daemon.raw(.POST, "/v1/queries/samples", body: #"{"type":"HKDataTypeIdentifierHeartbeatSeries"}"#, token: token)
            #expect((found.json["samples"] as? [Any])?.isEmpty == true, "\(found.body)")
            #expect(try await daemon.raw(.POST, "/v1/objects/heartbeat-series", body: series([1, 2]), token: token).status == 204)
        }
    }

    @Test func aBadUUIDIsA400NamingIt() async throws {
        try await DaemonHarness.with { daemon in
            let token = try await daemon.connect("com.example.steps", read: [ecgType])
            let refused = try await daemon.raw(.POST, "/v1/queries/electrocardiogram-voltages", body: #"{"uuid":"not-a-uuid"}"#, token: token)
            #expect(refused.status == 400 && refused.json["field"] as? String == "/uuid", "\(refused.body)")
            let unknown = try await daemon.raw(.POST, "/v1/queries/heartbeats", body: #"{"uuid":"\#(UUID().uuidString)"}"#, token: token)
            #expect(unknown.status == 404, "\(unknown.body)")
            let series = try await daemon.raw(.POST, "/v1/queries/quantity-series", body: #"{"type":"HKQuantityTypeIdentifierStepCount","uuids":["x"]}"#,
                                              token: token)
            #expect(series.status == 400 && series.json["field"] as? String == "/uuids/0", "\(series.body)")
            let halfInterval = try await daemon.raw(.POST, "/v1/queries/route-locations",
                                                    body: #"{"uuid":"\#(UUID().uuidString)","startDate":"2026-11-24T08:00:00Z"}"#, token: token)
            #expect(halfInterval.status == 400 && halfInterval.json["field"] as? String == "/endDate", "\(halfInterval.body)")
        }
    }
}
