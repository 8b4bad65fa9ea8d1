import Foundation
import OpenHealthKit
import Testing
import TestSupport

private let steps = HKQuantityType(.stepCount)
private let heartRate = HKQuantityType(.heartRate)
private let now = Date(timeIntervalSinceReferenceDate: 800_000_000)

private func count(_ value: Double, at minute: Double = 0) -> HKQuantitySample {
    HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: value),
                     start: now.addingTimeInterval(minute * 60), end: now.addingTimeInterval(minute * 60 + 30))
}

/// `HKAnchoredObjectQuery` as apps run it, on both backends: anchors that return only what changed, paging, predicates,
/// anchors kept as JSON across stores, tombstones, the privacy rule (another app's rows never move an anchor), and the
/// update handler.
@Suite("Anchored object queries, embedded and through the daemon")
struct AnchoredQueryTests {
    @Test(arguments: Backend.allCases)
    func aNilAnchorReturnsEverythingAndTheAnchorReturnsOnlyWhatChangedSince(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.authorizedStepsStore()
            try await store.save([count(1), count(2)])
            let first = try await runAnchored(store, anchor: nil)
            #expect(first.counts == [1, 2])
            #expect(first.deleted.isEmpty)

            let again = try await runAnchored(store, anchor: first.anchor)
            #expect(again.samples.isEmpty && again.deleted.isEmpty)
            #expect(again.anchor == first.anchor)

            let three = count(3)
            try await store.save(three)
            try await store.delete(first.samples[0])
            let changed = try await runAnchored(store, anchor: first.anchor)
            #expect(changed.counts == [3])
            #expect(changed.deleted.map(\.uuid) == [first.samples[0].uuid])
        }
    }

    @Test(arguments: Backend.allCases)
    func theLimitPagesThroughInOrderWithoutGapsOrRepeats(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.authorizedStepsStore()
            try await store.save((1...7).map { count(Double($0), at: Double(10 - $0)) })
            var anchor: HKQueryAnchor?
            var pages: [[Double]] = []
            while true {
                let page = try await runAnchored(store, anchor: anchor, limit: 3)
                if page.samples.isEmpty { break }
                pages.append(page.counts)
                anchor = page.anchor
            }
            #expect(pages == [[1, 2, 3], [4, 5, 6], [7]])
        }
    }

    @Test(arguments: Backend.allCases)
    func thePredicateNarrowsTheSamplesButTheAnchorStillAdvances(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.authorizedStepsStore()
            try await store.save([count(1, at: 0), count(2, at: 100)])
            let early = HKQuery.predicateForSamples(withStart: now, end: now.addingTimeInterval(3600))
            let answer = try await runAnchored(store, predicate: early, anchor: nil)
            #expect(answer.counts == [1])
            try await store.save(count(3, at: 1))
            #expect(try await runAnchored(store, predicate: early, anchor: answer.anchor).counts == [3])
        }
    }

    @Test(arguments: Backend.allCases)
    func anAnchorSurvivesJSONAndAReopenedStore(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.authorizedStepsStore()
            try await store.save([count(1), count(2)])
            let first = try await runAnchored(store, anchor: nil)
            let data = try JSONEncoder().encode(first.anchor)
            try await store.save(count(3))

            let reopened = try await session.authorizedStepsStore()
            let restored = try JSONDecoder().decode(HKQueryAnchor.self, from: data)
            #expect(restored == first.anchor)
            #expect(try await runAnchored(reopened, anchor: restored).counts == [3])
        }
    }

    @Test(arguments: Backend.allCases)
    func deletedObjectsKeepTheirSyncIdentifiers(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.authorizedStepsStore()
            let synced = HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: 5), start: now, end: now,
                                          metadata: [HKMetadataKeySyncIdentifier: "walk-1", HKMetadataKeySyncVersion: 2])
            try await store.save(synced)
            let anchor = try await runAnchored(store, anchor: nil).anchor
            try await store.delete(synced)
            let deleted = try #require(try await runAnchored(store, anchor: anchor).deleted.first)
            #expect(deleted.uuid == synced.uuid)
            #expect(deleted.metadata?[HKMetadataKeySyncIdentifier] as? String == "walk-1")
        }
    }

    @Test(arguments: Backend.allCases)
    func anAppThatMayNotReadSeesOnlyItsOwnRowsAndItsAnchorDoesNotMoveOverOthers(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let mine = try await session.app(.steps, answering: .init(default: .allow, read: [steps.identifier: .deny]))
            try await mine.requestAuthorization(toShare: [steps], read: [steps])
            let theirs = try await session.app(.other, answering: .allowAll)
            try await theirs.requestAuthorization(toShare: [steps], read: [steps])

            try await mine.save(count(1))
            let start = try await runAnchored(mine, anchor: nil)
            #expect(start.counts == [1])
            let othersSample = count(50)
            try await theirs.save(othersSample)
            try await theirs.delete(othersSample)
            // Another app's save and delete leave this app's anchor where it was: nothing to learn from timing.
            let after = try await runAnchored(mine, anchor: start.anchor)
            #expect(after.samples.isEmpty && after.deleted.isEmpty)
            #expect(after.anchor == start.anchor)
            // The reader that may read sees both.
            let everything = try await runAnchored(theirs, anchor: nil)
            #expect(everything.counts == [1])
            #expect(everything.deleted.map(\.uuid) == [othersSample.uuid])
        }
    }

    @Test(.timeLimit(.minutes(3)), arguments: Backend.allCases)
    func theUpdateHandlerReportsLaterSavesAndDeletesUntilStopped(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.authorizedStepsStore()
            try await store.save(count(1))
            let stream = AnswerStream()
            let query = HKAnchoredObjectQuery(type: steps, predicate: nil, anchor: nil, limit: HKObjectQueryNoLimit, resultsHandler: stream.handler)
            query.updateHandler = stream.handler
            store.execute(query)
            var answers = stream.answers.makeAsyncIterator()
            #expect(await answers.next()?.counts == [1])

            // A save of another type wakes nothing; the next save of steps is the next answer.
            let bpm = HKUnit.count().unitDivided(by: .minute())
            try await store.save(HKQuantitySample(type: heartRate, quantity: HKQuantity(unit: bpm, doubleValue: 70), start: now, end: now))
            let two = count(2)
            try await store.save(two)
            let update = await answers.next()
            #expect(update?.counts == [2])
            try await store.delete(two)
            #expect(await answers.next()?.deleted.map(\.uuid) == [two.uuid])

            store.stop(query)
            try await Task.sleep(for: .milliseconds(50))
            try await store.save(count(3))
            try await Task.sleep(for: .milliseconds(300))
            #expect(stream.delivered == 3, "a stopped query reports nothing more")
        }
    }

    @Test(arguments: Backend.allCases)
    func aNegativeLimitOrAForeignPredicateIsAnError(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.authorizedStepsStore()
            await #expect(throws: HKError(.errorInvalidArgument)) { _ = try await runAnchored(store, anchor: nil, limit: -2) }
            await #expect(throws: HKError(.errorInvalidArgument)) {
                _ = try await runAnchored(store, predicate: NSPredicate { _, _ in true }, anchor: nil)
            }
        }
    }
}
