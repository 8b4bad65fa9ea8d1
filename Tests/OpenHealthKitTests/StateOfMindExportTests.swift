import Foundation
import Testing
@testable import OpenHealthKit

/// States of mind and scored assessments in an export: Apple's export leaves them out, so OpenHealthKit writes them as
/// `<StateOfMind>` and `<ScoredAssessment>` elements of its own, which its importer reads back into the same samples (and
/// bad ones are reported, not stored).
@Suite("States of mind and scored assessments in an export")
struct StateOfMindExportTests {
    let type = HKObjectType.stateOfMindType()
    let date = Date(timeIntervalSince1970: 1_790_000_000)  // 2026-09-21 14:13:20 UTC

    func sorted(_ store: HKHealthStore) async throws -> [HKStateOfMind] {
        try await HKSampleQueryDescriptor(predicates: [.stateOfMind()], sortDescriptors: [SortDescriptor(\.startDate)]).result(for: store)
    }

    @Test func statesOfMindGoOutAsStateOfMindElementsAndComeBackTheSame() async throws {
        let (store, _, folder) = makeStore(.allowAll)
        try await store.requestAuthorization(toShare: [type], read: [type])
        let saved = [
            HKStateOfMind(date: date, kind: .dailyMood, valence: 0.125, labels: [.content, .peaceful], associations: [.selfCare, .weather],
                          metadata: ["note": "a walk"]),
            HKStateOfMind(date: date.addingTimeInterval(90), kind: .momentaryEmotion, valence: -1, labels: [], associations: []),
        ]
        try await store.save(saved)
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-som-\(UUID().uuidString)/apple_health_export")
        let written = try HealthPerson(storeDirectory: folder).exportHealthData(to: out, timeZone: TimeZone(identifier: "Europe/Paris")!)
        let xml = try String(contentsOf: written.url.appendingPathComponent("export.xml"), encoding: .utf8)
        #expect(xml.contains(#"<StateOfMind sourceName="Steps" sourceVersion="1.0""#), "\(xml.suffix(900))")
        #expect(xml.contains(#"kind="HKStateOfMindKindDailyMood" valence="0.125" labels="HKStateOfMindLabelContent HKStateOfMindLabelPeaceful" associations="HKStateOfMindAssociationSelfCare HKStateOfMindAssociationWeather">"#))
        #expect(xml.contains(#"<MetadataEntry key="note" value="a walk"/>"#))
        #expect(xml.contains(#"kind="HKStateOfMindKindMomentaryEmotion" valence="-1" labels="" associations=""/>"#))

        let (reader, _, second) = makeStore(.allowAll)
        let imported = try HealthPerson(storeDirectory: second).importExport(at: written.url)
        #expect(imported.added[type.identifier] == 2 && imported.problems.isEmpty, "\(imported.problems)")
        try await reader.requestAuthorization(toShare: [], read: [type])
        let back = try await sorted(reader)
        #expect(back.map(\.kind) == [.dailyMood, .momentaryEmotion] && back.map(\.valence) == [0.125, -1])
        #expect(back.map(\.labels) == [[.content, .peaceful], []] && back.map(\.associations) == [[.selfCare, .weather], []])
        #expect(back.map(\.startDate) == saved.map(\.startDate) && back.map(\.endDate) == saved.map(\.endDate))
        #expect(back[0].metadata?["note"] as? String == "a walk" && back[0].sourceRevision.source.name == "Steps")
        // Importing the same export again adds nothing: the imported samples have stable identities.
        let again = try HealthPerson(storeDirectory: second).importExport(at: written.url)
        #expect(again.added[type.identifier] ?? 0 == 0)
        #expect(try await sorted(reader).count == 2)
    }

    @Test func aMalformedStateOfMindIsReportedWithItsLineAndTheRestIsRead() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-som-\(UUID().uuidString)/apple_health_export")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let element = #" <StateOfMind sourceName="Mood" startDate="2026-09-21 16:13:20 +0200" endDate="2026-09-21 16:13:20 +0200""#
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <ExportDate value="2026-11-01 09:00:00 +0100"/>
            \(element) kind="HKStateOfMindKindDailyMood" valence="1.5"/>
            \(element) kind="HKStateOfMindKindSometimes" valence="0"/>
            \(element) kind="HKStateOfMindKindDailyMood" valence="0" labels="HKStateOfMindLabelHappy HKStateOfMindLabelGlad"/>
            \(element) kind="HKStateOfMindKindDailyMood" valence="0.5" labels="HKStateOfMindLabelHappy">
              <MetadataEntry key="HKWasUserEntered" value="1"/>
             </StateOfMind>
            </HealthData>
            """.utf8).write(to: folder.appendingPathComponent("export.xml"))
        let (store, _, storeFolder) = makeStore(.allowAll)
        let result = try HealthPerson(storeDirectory: storeFolder).importExport(at: folder)
        #expect(result.added[type.identifier] == 1)
        #expect(result.problems.map(\.line) == [4, 5, 6], "\(result.problems)")
        #expect(result.problems.map(\.reason).joined(separator: " | ").contains("valence is 1.5"))
        #expect(result.problems.map(\.reason).joined(separator: " | ").contains("HKStateOfMindLabelGlad"))
        try await store.requestAuthorization(toShare: [], read: [type])
        let read = try await sorted(store)
        #expect(read.map(\.labels) == [[.happy]] && read.first?.metadata?[HKMetadataKeyWasUserEntered] as? Int == 1)
    }

    @Test func scoredAssessmentsGoOutAsScoredAssessmentElementsAndComeBackTheSame() async throws {
        let gad7 = HKScoredAssessmentType(.GAD7), phq9 = HKScoredAssessmentType(.PHQ9)
        let (store, _, folder) = makeStore(.allowAll)
        try await store.requestAuthorization(toShare: [gad7, phq9], read: [gad7, phq9])
        let answers: [HKPHQ9Assessment.Answer] = [.severalDays, .notAtAll, .notAtAll, .nearlyEveryDay, .notAtAll, .notAtAll, .notAtAll,
                                                  .moreThanHalfTheDays, .preferNotToAnswer]
        try await store.save([HKGAD7Assessment(date: date, answers: Array(repeating: .severalDays, count: 7)),
                              HKPHQ9Assessment(date: date.addingTimeInterval(60), answers: answers)])
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-sa-\(UUID().uuidString)/apple_health_export")
        let written = try HealthPerson(storeDirectory: folder).exportHealthData(to: out)
        let xml = try String(contentsOf: written.url.appendingPathComponent("export.xml"), encoding: .utf8)
        #expect(xml.contains(#"<ScoredAssessment type="HKScoredAssessmentTypeIdentifierGAD7" sourceName="Steps""#))
        #expect(xml.contains(#"score="6" answers="HKPHQ9AssessmentAnswerSeveralDays HKPHQ9AssessmentAnswerNotAtAll"#))
        #expect(xml.contains("HKPHQ9AssessmentAnswerMoreThanHalfTheDays HKPHQ9AssessmentAnswerPreferNotToAnswer\"/>"))

        let (reader, _, second) = makeStore(.allowAll)
        let imported = try HealthPerson(storeDirectory: second).importExport(at: written.url)
        #expect(imported.added[gad7.identifier] == 1 && imported.added[phq9.identifier] == 1 && imported.problems.isEmpty, "\(imported.problems)")
        try await reader.requestAuthorization(toShare: [], read: [gad7, phq9])
        let back = try await HKSampleQueryDescriptor(predicates: [.phq9Assessment()], sortDescriptors: []).result(for: reader)
        #expect(back.first?.answers == answers && back.first?.score == 6 && back.first?.startDate == date.addingTimeInterval(60))
        let gad7Back = try await HKSampleQueryDescriptor(predicates: [.gad7Assessment()], sortDescriptors: []).result(for: reader)
        #expect(gad7Back.first?.score == 7 && gad7Back.first?.risk == .mild)
    }

    @Test func applesAudiogramElementIsAnAudiogramSampleAndIsWrittenBackAsApplesElement() async throws {
        let (store, _, folder) = makeStore(.allowAll)
        let fixture = exportFixtures.appendingPathComponent("opendroid_hk/sampleexport-2.xml")
        let imported = try HealthPerson(storeDirectory: folder).importExport(at: fixture)
        #expect(imported.added[HKAudiogramSampleType.typeIdentifier] == 1 && imported.kept["Audiogram"] == nil)
        try await store.requestAuthorization(toShare: [], read: [HKObjectType.audiogramSampleType()])
        let audiogram = try #require(try await HKSampleQueryDescriptor(predicates: [.audiogram()], sortDescriptors: []).result(for: store).first)
        let dBHL = HKUnit.decibelHearingLevel()
        #expect(audiogram.sensitivityPoints.map { $0.frequency.doubleValue(for: .hertz()) } == [250, 500])
        #expect(audiogram.sensitivityPoints[0].tests.map { ($0.side, $0.sensitivity.doubleValue(for: dBHL)) }.map { "\($0.0):\($0.1)" }
                == ["left:35.0459", "right:20.0452"])
        #expect(audiogram.sourceRevision.source.name == "Hearing Test" && audiogram.metadata?["HKExternalUUID"] as? String == "479728a4-8e83-4de1-bb71-f75f5a691a6c")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-audio-\(UUID().uuidString)/apple_health_export")
        let written = try HealthPerson(storeDirectory: folder).exportHealthData(to: out, timeZone: TimeZone(identifier: "America/Los_Angeles")!)
        let xml = try String(contentsOf: written.url.appendingPathComponent("export.xml"), encoding: .utf8)
        #expect(xml.contains(#"<Audiogram type="HKDataTypeIdentifierAudiogram" sourceName="Hearing Test" sourceVersion="3092" creationDate="2021-01-22 20:31:37 -0800" startDate="2021-01-22 20:30:50 -0800" endDate="2021-01-22 20:30:50 -0800">"#), "\(xml)")
        #expect(xml.contains(#"<SensitivityPoint frequencyValue="250" frequencyUnit="Hz" leftEarValue="35.0459" leftEarUnit="dBHL" rightEarValue="20.0452" rightEarUnit="dBHL"/>"#))
    }
}
