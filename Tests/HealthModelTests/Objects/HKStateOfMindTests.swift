import Foundation
import Testing
@testable import HealthModel

/// `HKStateOfMind`'s values: Apple's raw values, the valence checks, the classification bands, and the archive.
@Suite("HKStateOfMind")
struct HKStateOfMindTests {
    static let date = Date(timeIntervalSinceReferenceDate: 790_000_000.25)

    @Test func theEnumsHaveApplesRawValues() {
        #expect(HKStateOfMind.Kind.dailyMood.rawValue == 2 && HKStateOfMind.Kind.momentaryEmotion.rawValue == 1)
        #expect(HKStateOfMind.Label.amazed.rawValue == 1 && HKStateOfMind.Label.worried.rawValue == 31
                && HKStateOfMind.Label.annoyed.rawValue == 32 && HKStateOfMind.Label.satisfied.rawValue == 38)
        #expect(HKStateOfMind.Label.allCases.count == 38 && HKStateOfMind.Association.allCases.count == 18)
        #expect(HKStateOfMind.Association.selfCare.rawValue == 13 && HKStateOfMind.Association.weather.rawValue == 18)
        #expect(HKStateOfMind.ValenceClassification.neutral.rawValue == 4)
    }

    @Test func aStateOfMindIsAtOneMomentAndKeepsWhatItWasGiven() {
        let mood = HKStateOfMind(date: Self.date, kind: .dailyMood, valence: 0.6, labels: [.happy, .grateful], associations: [.family],
                                 metadata: [HKMetadataKeyWasUserEntered: true])
        #expect(mood.startDate == Self.date && mood.endDate == Self.date)
        #expect(mood.sampleType == HKObjectType.stateOfMindType())
        #expect(mood.kind == .dailyMood && mood.valence == 0.6 && mood.labels == [.happy, .grateful] && mood.associations == [.family])
        #expect(mood.valenceClassification == .pleasant)
        #expect(mood.metadata?[HKMetadataKeyWasUserEntered] as? Bool == true)
    }

    @Test(arguments: [-1.0001, 1.5, .nan, .infinity, -.infinity])
    func aValenceOutsideMinusOneToOneIsAClearError(_ valence: Double) {
        #expect {
            try HKStateOfMind.validated(date: Self.date, kind: .momentaryEmotion, valence: valence, labels: [], associations: [])
        } throws: { error in
            let error = error as? HKError
            return error?.code == .errorInvalidArgument && error?.message.contains("valence") == true
        }
        #expect(HKStateOfMind.ValenceClassification(valence: valence) == nil)
    }

    @Test func theClassificationCutsTheScaleInSevenEqualBands() {
        let expected: [(Double, HKStateOfMind.ValenceClassification)] = [
            (-1, .veryUnpleasant), (-0.72, .veryUnpleasant), (-0.7, .unpleasant), (-0.43, .unpleasant), (-0.42, .slightlyUnpleasant),
            (-0.15, .slightlyUnpleasant), (-0.14, .neutral), (0, .neutral), (0.14, .neutral), (0.15, .slightlyPleasant),
            (0.42, .slightlyPleasant), (0.43, .pleasant), (0.71, .pleasant), (0.72, .veryPleasant), (1, .veryPleasant),
        ]
        for (valence, band) in expected {
            #expect(HKStateOfMind.ValenceClassification(valence: valence) == band, "\(valence)")
        }
    }

    @Test func anArchivedStateOfMindComesBackTheSame() throws {
        let state = HKStateOfMind(date: Self.date, kind: .momentaryEmotion, valence: -0.375, labels: [.stressed, .worried, .drained],
                                  associations: [.work, .money], metadata: ["note": "deadline"])
        let back = try #require(try roundTrip(state))
        #expect(back.uuid == state.uuid && back.startDate == state.startDate && back.endDate == state.endDate)
        #expect(back.kind == .momentaryEmotion && back.valence == -0.375)
        #expect(back.labels == [.stressed, .worried, .drained] && back.associations == [.work, .money])
        #expect(back.metadata?["note"] as? String == "deadline")
    }

    @Test func aForgedArchiveWithABadValenceOrLabelDoesNotDecode() throws {
        let state = HKStateOfMind(date: Self.date, kind: .dailyMood, valence: 0.5, labels: [.calm], associations: [])
        #expect(decoded(HKStateOfMind.self, from: try forgedArchive(of: state, replacing: ["valence": 1.25])) == nil)
        #expect(decoded(HKStateOfMind.self, from: try forgedArchive(of: state, replacing: ["labels": "7,99"])) == nil)
        #expect(decoded(HKStateOfMind.self, from: try forgedArchive(of: state, replacing: ["kind": 3])) == nil)
        #expect(decoded(HKStateOfMind.self, from: try forgedArchive(of: state, replacing: ["endDate": Self.date.timeIntervalSinceReferenceDate + 60])) == nil)
        #expect(decoded(HKStateOfMind.self, from: try forgedArchive(of: state)) != nil)
    }

    @Test func thePredicatesMatchWhatTheyName() throws {
        let state = HKStateOfMind(date: Self.date, kind: .momentaryEmotion, valence: -0.5, labels: [.excited, .anxious],
                                  associations: [.dating], metadata: nil)
        #expect(HKQuery.predicateForStatesOfMind(with: HKStateOfMind.Kind.momentaryEmotion).evaluate(with: state))
        #expect(!HKQuery.predicateForStatesOfMind(with: HKStateOfMind.Kind.dailyMood).evaluate(with: state))
        #expect(HKQuery.predicateForStatesOfMind(with: HKStateOfMind.Label.anxious).evaluate(with: state))
        #expect(!HKQuery.predicateForStatesOfMind(with: HKStateOfMind.Label.angry).evaluate(with: state))  // 3, not 13
        #expect(HKQuery.predicateForStatesOfMind(with: HKStateOfMind.Association.dating).evaluate(with: state))
        #expect(HKQuery.predicateForStatesOfMind(withValence: 0, operatorType: .lessThan).evaluate(with: state))
        #expect(!HKQuery.predicateForStatesOfMind(withValence: -0.5, operatorType: .greaterThan).evaluate(with: state))
        let like = try SampleFilter(HKQuery.predicateForStatesOfMind(withValence: 0, operatorType: .like))
        guard case .invalid(let message) = like else { Issue.record("\(like)"); return }
        #expect(message.contains("state of mind valences"))
    }
}
