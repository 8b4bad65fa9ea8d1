import Foundation
import HealthStore
import NIOHTTP1
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

    @Test func aBadUUIDIsA400NamingIt() async throws {
        try await DaemonHarness.with { daemon in
            let token = try await daemon.connect("com.example.steps", read: [ecgType])
            let refused = try await daemon.raw(.POST, "/v1/queries/electrocardiogram-voltages", body: #"{"uuid":"not-a-uuid"}"#, token: token)
            #expect(refused.status == 400 && refused.json["field"] as? String == "/uuid", "\(refused.body)")
            let unknown = try await daemon.raw(.POST, "/v1/queries/heartbeats", body: #"{"uuid":"\#(UUID().uuidString)"}"#, token: token)
            #expect(unknown.status == 404, "\(unknown.body)")
        }
    }
}
