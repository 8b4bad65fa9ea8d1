import Foundation
import HealthModel
import OpenHealthKit
import Testing
import TestSupport

private let stateOfMind = HKObjectType.stateOfMindType()
private let day = Date(timeIntervalSinceReferenceDate: 810_000_000)

private func moods() -> [HKStateOfMind] {
    [HKStateOfMind(date: day, kind: .dailyMood, valence: 0.6, labels: [.happy, .grateful], associations: [.family, .friends],
                   metadata: [HKMetadataKeyWasUserEntered: true]),
     HKStateOfMind(date: day.addingTimeInterval(3600), kind: .momentaryEmotion, valence: -0.5, labels: [.stressed, .anxious],
                   associations: [.work]),
     HKStateOfMind(date: day.addingTimeInterval(7200), kind: .momentaryEmotion, valence: 0, labels: [.excited], associations: [])]
}

private func states(_ store: HKHealthStore, _ predicate: NSPredicate? = nil) async throws -> [HKStateOfMind] {
    try await run(store, type: stateOfMind, predicate: predicate).map { $0 as! HKStateOfMind }.sorted { $0.startDate < $1.startDate }
}

/// States of mind (iOS 18) on every backend: saved and read back whole, found by each of their predicates and the
/// Swift-concurrency descriptor, under the usual consent, and refused clearly when malformed.
@Suite("States of mind, on every backend")
struct StateOfMindTests {
    @Test(arguments: Backend.allCases)
    func statesOfMindRoundTripAndEachPredicateFindsWhatItNames(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .allowAll)
            try await store.requestAuthorization(toShare: [stateOfMind], read: [stateOfMind])
            let saved = moods()
            try await store.save(saved)

            let read = try await states(store)
            #expect(read.map(\.uuid) == saved.map(\.uuid))
            for (back, original) in zip(read, saved) {
                #expect(back.kind == original.kind && back.valence == original.valence && back.labels == original.labels
                        && back.associations == original.associations && back.startDate == original.startDate && back.endDate == original.endDate)
                #expect(back.sourceRevision.source.bundleIdentifier == AppManifest.steps.bundleIdentifier)
            }
            #expect(read[0].metadata?[HKMetadataKeyWasUserEntered] as? Bool == true)
            #expect(read.map(\.valenceClassification) == [.pleasant, .unpleasant, .neutral])

            #expect(try await states(store, HKQuery.predicateForStatesOfMind(with: HKStateOfMind.Kind.dailyMood)).map(\.uuid) == [saved[0].uuid])
            #expect(try await states(store, HKQuery.predicateForStatesOfMind(with: HKStateOfMind.Label.anxious)).map(\.uuid) == [saved[1].uuid])
            // Label 13 (excited) is saved; label 3 (angry) must not match it.
            #expect(try await states(store, HKQuery.predicateForStatesOfMind(with: HKStateOfMind.Label.angry)).isEmpty)
            #expect(try await states(store, HKQuery.predicateForStatesOfMind(with: HKStateOfMind.Association.friends)).map(\.uuid) == [saved[0].uuid])
            #expect(try await states(store, HKQuery.predicateForStatesOfMind(withValence: 0, operatorType: .lessThanOrEqualTo)).map(\.uuid)
                    == [saved[1].uuid, saved[2].uuid])
            let both = NSCompoundPredicate(andPredicateWithSubpredicates: [
                HKQuery.predicateForStatesOfMind(with: HKStateOfMind.Kind.momentaryEmotion),
                HKQuery.predicateForStatesOfMind(withValence: -0.5, operatorType: .greaterThan)])
            #expect(try await states(store, both).map(\.uuid) == [saved[2].uuid])

            let descriptor = HKSampleQueryDescriptor(predicates: [.stateOfMind(HKQuery.predicateForStatesOfMind(with: HKStateOfMind.Association.work))],
                                                     sortDescriptors: [SortDescriptor(\.startDate)])
            let found: [HKStateOfMind] = try await descriptor.result(for: store)
            #expect(found.map(\.labels) == [[.stressed, .anxious]])
        }
    }

    @Test(arguments: Backend.allCases)
    func anAppSeesOnlyWhatThePersonAllowed(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let writer = try await session.app(.steps, answering: .allowAll)
            try await writer.requestAuthorization(toShare: [stateOfMind], read: [stateOfMind])
            try await writer.save(moods())
            let denied = try await session.app(.other, answering: .denyAll)
            try await denied.requestAuthorization(toShare: [stateOfMind], read: [stateOfMind])
            #expect(try await states(denied).isEmpty, "read denied: nothing, as if there were none")
            do {
                try await denied.save(moods()[0])
                Issue.record("saved without share permission")
            } catch let error as HKError {
                #expect(error.code == .errorAuthorizationDenied)
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func aDeletedStateOfMindIsGoneWithItsLabels(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .allowAll)
            try await store.requestAuthorization(toShare: [stateOfMind], read: [stateOfMind])
            let saved = moods()
            try await store.save(saved)
            try await store.delete(saved[1])
            #expect(try await states(store).map(\.uuid) == [saved[0].uuid, saved[2].uuid])
            #expect(try await states(store, HKQuery.predicateForStatesOfMind(with: HKStateOfMind.Label.anxious)).isEmpty)
            #expect(try await states(store, HKQuery.predicateForStatesOfMind(with: HKStateOfMind.Association.work)).isEmpty)
        }
    }

    @Test func theDaemonRefusesAMalformedStateOfMindNamingTheField() async throws {
        let base = #"{"uuid":"6F9619FF-8B86-D011-B42D-00C04FC964FF","type":"HKDataTypeStateOfMind","startDate":"2026-11-24T10:00:00Z","endDate":"2026-11-24T10:00:00Z","stateOfMind":{"kind":2,"valence":0.25,"labels":[17],"associations":[5]}}"#
        let cases: [(String, String)] = [
            (base.replacingOccurrences(of: #""valence":0.25"#, with: #""valence":1.5"#), "/samples/0/stateOfMind/valence"),
            (base.replacingOccurrences(of: #""kind":2"#, with: #""kind":7"#), "/samples/0/stateOfMind/kind"),
            (base.replacingOccurrences(of: #""labels":[17]"#, with: #""labels":[17,39]"#), "/samples/0/stateOfMind/labels/1"),
            (base.replacingOccurrences(of: #""associations":[5]"#, with: #""associations":[0]"#), "/samples/0/stateOfMind/associations/0"),
            (base.replacingOccurrences(of: #""endDate":"2026-11-24T10:00:00Z""#, with: #""endDate":"2026-11-24T10:05:00Z""#), "/samples/0/endDate"),
            (base.replacingOccurrences(of: #","stateOfMind":{"kind":2,"valence":0.25,"labels":[17],"associations":[5]}"#, with: ""),
             "/samples/0/stateOfMind"),
        ]
        try await DaemonHarness.with { daemon in
            let token = try await daemon.connect("com.example.mood", share: [stateOfMind], read: [stateOfMind])
            for (sample, field) in cases {
                let answer = try await daemon.raw(.POST, "/v1/objects", body: #"{"samples":[\#(sample)]}"#, token: token)
                #expect(answer.status == 400 && answer.json["field"] as? String == field, "\(field): \(answer.body)")
            }
            let stored = try await daemon.raw(.POST, "/v1/queries/samples", body: #"{"type":"HKDataTypeStateOfMind"}"#, token: token)
            #expect(stored.body == #"{"samples":[]}"#)
            let good = try await daemon.raw(.POST, "/v1/objects", body: #"{"samples":[\#(base)]}"#, token: token)
            #expect(good.status == 204, "\(good.body)")
            let back = try await daemon.raw(.POST, "/v1/queries/samples", body: #"{"type":"HKDataTypeStateOfMind"}"#, token: token)
            #expect(back.body.contains(#""stateOfMind":{"associations":[5],"kind":2,"labels":[17],"valence":0.25}"#), "\(back.body)")
        }
    }
}
