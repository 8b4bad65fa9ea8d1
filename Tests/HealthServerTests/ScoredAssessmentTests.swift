import Foundation
import HealthModel
import OpenHealthKit
import Testing
import TestSupport

private let gad7Type = HKScoredAssessmentType(.GAD7)
private let phq9Type = HKScoredAssessmentType(.PHQ9)
private let day = Date(timeIntervalSinceReferenceDate: 812_000_000)

/// GAD-7 and PHQ-9 results (iOS 18) on every backend: saved and read back whole through the Swift-concurrency
/// descriptors, each type under its own consent, and refused clearly when malformed.
@Suite("Scored assessments, on every backend")
struct ScoredAssessmentTests {
    @Test(arguments: Backend.allCases)
    func resultsRoundTripThroughTheirDescriptors(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .allowAll)
            try await store.requestAuthorization(toShare: [gad7Type, phq9Type], read: [gad7Type, phq9Type])
            let gad7 = HKGAD7Assessment(date: day, answers: [.severalDays, .notAtAll, .nearlyEveryDay, .severalDays, .notAtAll,
                                                             .moreThanHalfTheDays, .notAtAll], metadata: ["clinic": "north"])
            let phq9 = HKPHQ9Assessment(date: day.addingTimeInterval(60), answers: [.nearlyEveryDay, .nearlyEveryDay, .moreThanHalfTheDays,
                                                                                   .nearlyEveryDay, .severalDays, .severalDays, .notAtAll,
                                                                                   .notAtAll, .preferNotToAnswer])
            try await store.save([gad7, phq9])
            let gad7s = try await HKSampleQueryDescriptor(predicates: [.gad7Assessment()], sortDescriptors: []).result(for: store)
            #expect(gad7s.map(\.uuid) == [gad7.uuid] && gad7s.first?.answers == gad7.answers)
            #expect(gad7s.first?.score == 7 && gad7s.first?.risk == .mild && gad7s.first?.metadata?["clinic"] as? String == "north")
            let phq9s = try await HKSampleQueryDescriptor(predicates: [.phq9Assessment(HKQuery.predicateForObjects(with: [phq9.uuid]))],
                                                          sortDescriptors: []).result(for: store)
            #expect(phq9s.first?.answers == phq9.answers && phq9s.first?.score == 13 && phq9s.first?.risk == .moderate)
            // Through the callback API too, as the abstract class.
            let any = try await run(store, type: phq9Type)
            #expect((any.first as? HKScoredAssessment)?.score == 13)
        }
    }

    @Test(arguments: Backend.allCases)
    func eachQuestionnaireHasItsOwnConsent(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let clinic = try await session.app(.steps, answering: .allowAll)
            try await clinic.requestAuthorization(toShare: [gad7Type, phq9Type], read: [gad7Type, phq9Type])
            try await clinic.save([HKGAD7Assessment(date: day, answers: Array(repeating: .severalDays, count: 7)),
                                   HKPHQ9Assessment(date: day, answers: Array(repeating: .notAtAll, count: 9))])
            let other = try await session.app(.other, answering: .init(default: .deny, read: [gad7Type.identifier: .allow]))
            try await other.requestAuthorization(toShare: [], read: [gad7Type, phq9Type])
            #expect(try await run(other, type: gad7Type).count == 1)
            #expect(try await run(other, type: phq9Type).isEmpty, "PHQ-9 read denied: none, as if there were none")
        }
    }

    @Test func theDaemonRefusesMalformedAnswersNamingTheField() async throws {
        let base = #"{"uuid":"6F9619FF-8B86-D011-B42D-00C04FC964FF","type":"HKScoredAssessmentTypeIdentifierPHQ9","startDate":"2026-11-24T10:00:00Z","endDate":"2026-11-24T10:00:00Z","scoredAssessment":{"answers":[1,1,1,1,1,1,1,1,4]}}"#
        let cases: [(String, String)] = [
            (base.replacingOccurrences(of: "[1,1,1,1,1,1,1,1,4]", with: "[1,1,1,1,1,1,1,1]"), "/samples/0/scoredAssessment/answers"),
            (base.replacingOccurrences(of: "[1,1,1,1,1,1,1,1,4]", with: "[4,1,1,1,1,1,1,1,1]"), "/samples/0/scoredAssessment/answers"),
            (base.replacingOccurrences(of: #""answers":[1,1,1,1,1,1,1,1,4]}"#, with: #""answers":[1,1,1,1,1,1,1,1,4],"score":9}"#),
             "/samples/0/scoredAssessment/score"),
            (base.replacingOccurrences(of: "PHQ9", with: "GAD7"), "/samples/0/scoredAssessment/answers"),
            (base.replacingOccurrences(of: #""endDate":"2026-11-24T10:00:00Z""#, with: #""endDate":"2026-11-24T11:00:00Z""#), "/samples/0/endDate"),
        ]
        try await DaemonHarness.with { daemon in
            let token = try await daemon.connect("com.example.clinic", share: [gad7Type, phq9Type], read: [gad7Type, phq9Type])
            for (sample, field) in cases {
                #expect(sample != base, "\(field): the case changes the sample")
                let answer = try await daemon.raw(.POST, "/v1/objects", body: #"{"samples":[\#(sample)]}"#, token: token)
                #expect(answer.status == 400 && answer.json["field"] as? String == field, "\(field): \(answer.body)")
            }
            let good = try await daemon.raw(.POST, "/v1/objects", body: #"{"samples":[\#(base)]}"#, token: token)
            #expect(good.status == 204, "\(good.body)")
            let back = try await daemon.raw(.POST, "/v1/queries/samples", body: #"{"type":"HKScoredAssessmentTypeIdentifierPHQ9"}"#, token: token)
            #expect(back.body.contains(#""scoredAssessment":{"answers":[1,1,1,1,1,1,1,1,4],"score":8}"#), "\(back.body)")
        }
    }
}
