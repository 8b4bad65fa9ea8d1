import Foundation
import Testing
@testable import HealthModel

/// GAD-7 and PHQ-9 results: Apple's raw values, the score and risk the answers make, the answers each questionnaire
/// takes, and the archive.
@Suite("Scored assessments (GAD-7, PHQ-9)")
struct HKScoredAssessmentTests {
    static let date = Date(timeIntervalSinceReferenceDate: 790_000_000)

    static func gad7(_ points: [Int]) -> HKGAD7Assessment {
        HKGAD7Assessment(date: date, answers: points.map { HKGAD7Assessment.Answer(rawValue: $0)! })
    }

    static func phq9(_ points: [Int]) -> HKPHQ9Assessment {
        HKPHQ9Assessment(date: date, answers: points.map { HKPHQ9Assessment.Answer(rawValue: $0)! })
    }

    @Test func theEnumsHaveApplesRawValues() {
        #expect(HKGAD7Assessment.Answer.nearlyEveryDay.rawValue == 3 && HKGAD7Assessment.Risk.severe.rawValue == 4)
        #expect(HKPHQ9Assessment.Answer.preferNotToAnswer.rawValue == 4 && HKPHQ9Assessment.Risk.moderatelySevere.rawValue == 4)
    }

    @Test func theGAD7ScoreIsTheSumOfItsAnswersAndSetsTheRisk() {
        let cases: [([Int], Int, HKGAD7Assessment.Risk)] = [
            ([0, 0, 0, 0, 0, 0, 0], 0, .noneToMinimal), ([1, 1, 1, 1, 0, 0, 0], 4, .noneToMinimal), ([1, 1, 1, 1, 1, 0, 0], 5, .mild),
            ([3, 3, 3, 0, 0, 0, 0], 9, .mild), ([3, 3, 3, 1, 0, 0, 0], 10, .moderate), ([2, 2, 2, 2, 2, 2, 2], 14, .moderate),
            ([3, 3, 3, 3, 3, 0, 0], 15, .severe), ([3, 3, 3, 3, 3, 3, 3], 21, .severe),
        ]
        for (points, score, risk) in cases {
            let result = Self.gad7(points)
            #expect(result.score == score && result.risk == risk, "\(points)")
            #expect(result.startDate == Self.date && result.endDate == Self.date && result.sampleType == HKScoredAssessmentType(.GAD7))
        }
    }

    @Test func thePHQ9ScoreCountsNoPointsForANinthQuestionLeftUnanswered() {
        let cases: [([Int], Int, HKPHQ9Assessment.Risk)] = [
            ([0, 0, 0, 0, 0, 0, 0, 0, 4], 0, .noneToMinimal), ([1, 1, 1, 1, 1, 0, 0, 0, 4], 5, .mild),
            ([2, 2, 2, 2, 2, 0, 0, 0, 0], 10, .moderate), ([3, 3, 3, 3, 3, 0, 0, 0, 0], 15, .moderatelySevere),
            ([3, 3, 3, 3, 3, 2, 2, 1, 0], 20, .severe), ([3, 3, 3, 3, 3, 3, 3, 3, 3], 27, .severe),
        ]
        for (points, score, risk) in cases {
            let result = Self.phq9(points)
            #expect(result.score == score && result.risk == risk, "\(points)")
        }
    }

    @Test func wrongAnswersAreClearErrors() {
        func message(_ body: () throws -> Any) -> String? {
            do { _ = try body(); return nil } catch let error as HKError where error.code == .errorInvalidArgument { return error.message } catch { return nil }
        }
        #expect(message { try HKGAD7Assessment.validated(date: Self.date, answers: [.notAtAll]) }?.contains("exactly 7 answers") == true)
        #expect(message { try HKPHQ9Assessment.validated(date: Self.date, answers: Array(repeating: .notAtAll, count: 10)) }?
            .contains("exactly 9 answers") == true)
        let early: [HKPHQ9Assessment.Answer] = [.preferNotToAnswer] + Array(repeating: .notAtAll, count: 8)
        #expect(message { try HKPHQ9Assessment.validated(date: Self.date, answers: early) }?.contains("question 1") == true)
        #expect(message { try HKScoredAssessment.make(type: HKScoredAssessmentType(.GAD7), date: Self.date, answerRawValues: [0, 0, 0, 0, 0, 0, 4],
                                                      metadata: nil, device: nil) }?.contains("question 7") == true)
    }

    @Test func archivedResultsComeBackTheSameAndForgedOnesDoNot() throws {
        let gad7 = Self.gad7([1, 2, 3, 0, 1, 2, 3])
        let back = try #require(try roundTrip(gad7))
        #expect(back.answers == gad7.answers && back.score == 12 && back.uuid == gad7.uuid && back.risk == .moderate)
        let phq9 = Self.phq9([0, 1, 0, 1, 0, 1, 0, 1, 4])
        #expect(try roundTrip(phq9)?.answers == phq9.answers)
        #expect(decoded(HKGAD7Assessment.self, from: try forgedArchive(of: gad7, replacing: ["answers": "1,2,3"])) == nil)
        #expect(decoded(HKPHQ9Assessment.self, from: try forgedArchive(of: phq9, replacing: ["answers": "4,0,0,0,0,0,0,0,0"])) == nil)
        #expect(decoded(HKGAD7Assessment.self, from: try forgedArchive(of: phq9, as: HKGAD7Assessment.self)) == nil)
        #expect(decoded(HKScoredAssessment.self, from: try forgedArchive(of: gad7, as: HKScoredAssessment.self)) == nil)
    }
}
