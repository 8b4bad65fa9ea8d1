import Foundation
import Testing
import TestSupport
@testable import HealthAPI

/// The daemon's API: its generated code is what the committed OpenAPI document generates, and dates cross the wire
/// without moving.
@Suite("The daemon's API (HealthAPI)")
struct HealthAPITests {
    /// Runs Scripts/generate_openapi.sh --check: builds swift-openapi-generator's tool (into .build-openapi, once) and
    /// compares what it generates with Sources/HealthAPI/Generated.
    @Test(.timeLimit(.minutes(30)))
    func theGeneratedCodeIsWhatTheDocumentGenerates() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        // A cold build of the tool takes minutes: waited for on a thread of its own, not one of the test run's.
        let (status, text) = try await runToEnd(URL(fileURLWithPath: "/bin/bash"),
                                                [root.appendingPathComponent("Scripts/generate_openapi.sh").path, "--check"],
                                                in: root, withErrors: false)
        #expect(status == 0, "regenerating Sources/HealthAPI/Generated changes it (Scripts/generate_openapi.sh):\n\(text.prefix(4000))")
        #expect(text.contains("Sources/HealthAPI/Generated is what openapi.json generates"))
    }

    @Test func datesComeBackIdentical() throws {
        let transcoder = ExactDateTranscoder()
        var random = SystemRandomNumberGenerator()
        var dates: [Date] = [Date(), Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -0.5), Date(timeIntervalSince1970: 1e-7),
                             Date(timeIntervalSince1970: -62_135_596_800), Date(timeIntervalSince1970: 253_402_300_799.999),
                             Date(timeIntervalSinceReferenceDate: 815_443_200.123_456_789)]
        for _ in 0..<20_000 {
            dates.append(Date(timeIntervalSince1970: Double.random(in: -62_135_596_800..<253_402_300_799, using: &random)))
            dates.append(Date(timeIntervalSince1970: Double.random(in: 1_600_000_000..<1_900_000_000, using: &random)))
        }
        for date in dates {
            let text = try transcoder.encode(date)
            #expect(try transcoder.decode(text) == date, "\(date.timeIntervalSince1970) → \(text)")
            #expect(text.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/) != nil, "\(text)")
        }
        #expect(try transcoder.encode(Date(timeIntervalSince1970: 1_732_437_000.25)) == "2024-11-24T08:30:00.25Z")
    }

    @Test func datesWithOffsetsAreReadAndImpossibleOnesRefused() throws {
        let transcoder = ExactDateTranscoder()
        #expect(try transcoder.decode("2024-11-24T09:30:00.25+01:00") == Date(timeIntervalSince1970: 1_732_437_000.25))
        #expect(try transcoder.decode("2024-11-24T08:30:00Z") == Date(timeIntervalSince1970: 1_732_437_000))
        for text in ["2026-02-30T10:00:00Z", "2026-11-24T24:00:00Z", "2026-11-24T10:00:60Z", "2026-11-24T10:00:00+15:00", "2026-11-24 10:00:00Z",
                     "2026-11-24T10:00:00", "0000-01-01T00:00:00Z", "2026-11-24T10:00:00.Z", "x"] {
            #expect(throws: (any Error).self, "\(text)") { try transcoder.decode(text) }
        }
        #expect(throws: (any Error).self) { try transcoder.encode(Date(timeIntervalSince1970: .infinity)) }
    }
}
