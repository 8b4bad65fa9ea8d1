import Foundation
import Testing
@testable import HealthModel

/// Audiograms: the checks HealthKit's initializers make (units, ranges, frequency order, one test per ear and
/// masking), the pre-18.1 per-ear form, and the archive.
@Suite("HKAudiogramSample")
struct HKAudiogramSampleTests {
    static let start = Date(timeIntervalSinceReferenceDate: 790_000_000)
    static func hz(_ value: Double) -> HKQuantity { HKQuantity(unit: .hertz(), doubleValue: value) }
    static func dBHL(_ value: Double) -> HKQuantity { HKQuantity(unit: .decibelHearingLevel(), doubleValue: value) }

    static func test(_ value: Double, _ side: HKAudiogramSensitivityTestSide, masked: Bool = false,
                     range: HKAudiogramSensitivityPointClampingRange? = nil) throws -> HKAudiogramSensitivityTest {
        try HKAudiogramSensitivityTest(sensitivity: dBHL(value), type: .air, masked: masked, side: side, clampingRange: range)
    }

    static func message(_ body: () throws -> Any) -> String? {
        do { _ = try body(); return nil } catch let error as HKError where error.code == .errorInvalidArgument { return error.message } catch { return nil }
    }

    @Test func pointsAndTestsAreCheckedAsHealthKitChecksThem() throws {
        #expect(Self.message { try Self.test(141, .left) }?.contains("from -20 to 140 dBHL") == true)
        #expect(Self.message { try HKAudiogramSensitivityTest(sensitivity: HKQuantity(unit: .hertz(), doubleValue: 10), type: .air, masked: false,
                                                               side: .left, clampingRange: nil) }?.contains("in dBHL") == true)
        #expect(Self.message { try HKAudiogramSensitivityPoint(frequency: Self.dBHL(10), tests: []) }?.contains("in hertz") == true)
        #expect(Self.message { try HKAudiogramSensitivityPoint(frequency: Self.hz(0), tests: []) }?.contains("above 0 Hz") == true)
        #expect(Self.message { try HKAudiogramSensitivityPoint(frequency: Self.hz(500), tests: [try Self.test(10, .left), try Self.test(15, .left)]) }?
            .contains("two unmasked tests of the left ear") == true)
        #expect(Self.message { try HKAudiogramSensitivityPointClampingRange(lowerBound: 30, upperBound: 10) }?.contains("above its upper") == true)
        #expect(Self.message { try HKAudiogramSensitivityPointClampingRange(lowerBound: nil, upperBound: nil) } != nil)
        let low = try HKAudiogramSensitivityPoint(frequency: Self.hz(250), tests: [try Self.test(10, .left)])
        let high = try HKAudiogramSensitivityPoint(frequency: Self.hz(500), tests: [try Self.test(10, .right)])
        #expect(Self.message { try HKAudiogramSample.validated(sensitivityPoints: [high, low], start: Self.start, end: Self.start) }?
            .contains("unique and ascending") == true)
        let many = try (1...31).map { try HKAudiogramSensitivityPoint(frequency: Self.hz(Double($0) * 100), tests: []) }
        #expect(Self.message { try HKAudiogramSample.validated(sensitivityPoints: many, start: Self.start, end: Self.start) }?
            .contains("at most 30") == true)
        #expect(try HKAudiogramSample.validated(sensitivityPoints: [low, high], start: Self.start, end: Self.start).sensitivityPoints.count == 2)
    }

    @available(*, deprecated)
    @Test func thePerEarFormReadsTheUnmaskedTestOfEachEar() throws {
        let old = try HKAudiogramSensitivityPoint(frequency: Self.hz(1000), leftEarSensitivity: Self.dBHL(25), rightEarSensitivity: nil)
        #expect(old.tests.count == 1 && old.tests[0].side == .left && !old.tests[0].masked)
        #expect(old.leftEarSensitivity == Self.dBHL(25) && old.rightEarSensitivity == nil)
        let both = try HKAudiogramSensitivityPoint(frequency: Self.hz(1000), tests: [try Self.test(40, .right, masked: true), try Self.test(30, .right)])
        #expect(both.rightEarSensitivity == Self.dBHL(30))
    }

    @Test func anArchivedAudiogramComesBackTheSame() throws {
        let point = try HKAudiogramSensitivityPoint(frequency: Self.hz(2000), tests: [
            try Self.test(35.5, .left, range: try HKAudiogramSensitivityPointClampingRange(lowerBound: nil, upperBound: 90)),
            try Self.test(20, .right, masked: true)])
        let audiogram = HKAudiogramSample(sensitivityPoints: [point], start: Self.start, end: Self.start.addingTimeInterval(300), device: nil,
                                          metadata: ["booth": "B"])
        let back = try #require(try roundTrip(audiogram))
        #expect(back.sensitivityPoints == [point] && back.uuid == audiogram.uuid && back.endDate == audiogram.endDate)
        #expect(back.sensitivityPoints[0].tests[0].clampingRange?.upperBound == Self.dBHL(90))
        #expect(decoded(HKAudiogramSample.self, from: try forgedArchive(of: audiogram, replacing: ["sensitivityPoints": #"[{"f":-1,"t":[]}]"#])) == nil)
    }
}
