import Foundation
import HealthModel
import OpenHealthKit
import Testing
import TestSupport

private let audiogramType = HKObjectType.audiogramSampleType()
private let start = Date(timeIntervalSinceReferenceDate: 812_500_000)

private func audiogram() throws -> HKAudiogramSample {
    let points = try [(500.0, 15.0, 20.0), (1000, 25, 22.5), (4000, 60, 45)].map { frequency, left, right in
        try HKAudiogramSensitivityPoint(frequency: HKQuantity(unit: .hertz(), doubleValue: frequency), tests: [
            try HKAudiogramSensitivityTest(sensitivity: HKQuantity(unit: .decibelHearingLevel(), doubleValue: left), type: .air, masked: false,
                                           side: .left, clampingRange: frequency == 4000 ? try HKAudiogramSensitivityPointClampingRange(lowerBound: 10, upperBound: 60) : nil),
            try HKAudiogramSensitivityTest(sensitivity: HKQuantity(unit: .decibelHearingLevel(), doubleValue: right), type: .air, masked: frequency == 4000,
                                           side: .right, clampingRange: nil)])
    }
    return HKAudiogramSample(sensitivityPoints: points, start: start, end: start.addingTimeInterval(420), device: nil, metadata: ["booth": "2"])
}

/// Audiograms on every backend: saved and read back with every test of every point, under the usual consent, and
/// refused clearly when malformed.
@Suite("Audiograms, on every backend")
struct AudiogramTests {
    @Test(arguments: Backend.allCases)
    func anAudiogramRoundTripsWithEveryTest(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .allowAll)
            try await store.requestAuthorization(toShare: [audiogramType], read: [audiogramType])
            let saved = try audiogram()
            try await store.save(saved)
            let read = try await HKSampleQueryDescriptor(predicates: [.audiogram()], sortDescriptors: []).result(for: store)
            #expect(read.map(\.uuid) == [saved.uuid])
            #expect(read.first?.sensitivityPoints == saved.sensitivityPoints)
            #expect(read.first?.sensitivityPoints[2].tests[1].masked == true)
            #expect(read.first?.sensitivityPoints[2].tests[0].clampingRange?.lowerBound == HKQuantity(unit: .decibelHearingLevel(), doubleValue: 10))
            #expect(read.first?.metadata?["booth"] as? String == "2" && read.first?.endDate == saved.endDate)

            let denied = try await session.app(.other, answering: .denyAll)
            try await denied.requestAuthorization(toShare: [audiogramType], read: [audiogramType])
            #expect(try await run(denied, type: audiogramType).isEmpty)
        }
    }

    @Test func theDaemonRefusesAMalformedAudiogramNamingTheField() async throws {
        let base = #"{"uuid":"6F9619FF-8B86-D011-B42D-00C04FC964FF","type":"HKDataTypeIdentifierAudiogram","startDate":"2026-11-24T10:00:00Z","endDate":"2026-11-24T10:05:00Z","audiogram":{"points":[{"frequency":500,"tests":[{"sensitivity":20,"side":0,"masked":false,"type":0}]},{"frequency":1000,"tests":[]}]}}"#
        let cases: [(String, String)] = [
            (base.replacingOccurrences(of: #""frequency":1000"#, with: #""frequency":250"#), "/samples/0/audiogram/points"),
            (base.replacingOccurrences(of: #""sensitivity":20"#, with: #""sensitivity":200"#), "/samples/0/audiogram/points/0/tests/0/sensitivity"),
            (base.replacingOccurrences(of: #""side":0"#, with: #""side":2"#), "/samples/0/audiogram/points/0/tests/0/side"),
            (base.replacingOccurrences(of: #""frequency":1000"#, with: #""frequency":-3"#), "/samples/0/audiogram/points/1/frequency"),
            // Within the document's bounds, refused by the model's own check: a clamping range upside down.
            (base.replacingOccurrences(of: #""type":0}"#, with: #""type":0,"clampingLowerBound":50,"clampingUpperBound":10}"#),
             "/samples/0/audiogram/points/0/tests/0"),
        ]
        try await DaemonHarness.with { daemon in
            let token = try await daemon.connect("com.example.hearing", share: [audiogramType], read: [audiogramType])
            for (sample, field) in cases {
                #expect(sample != base)
                let answer = try await daemon.raw(.POST, "/v1/objects", body: #"{"samples":[\#(sample)]}"#, token: token)
                #expect(answer.status == 400 && answer.json["field"] as? String == field, "\(field): \(answer.body)")
            }
            let good = try await daemon.raw(.POST, "/v1/objects", body: #"{"samples":[\#(base)]}"#, token: token)
            #expect(good.status == 204, "\(good.body)")
        }
    }
}
