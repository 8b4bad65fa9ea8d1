import Foundation
import Testing
import OpenHealthKit

/// The porting corpus (`Corpus/`): HealthKit client files in the styles real apps use, each compiled with only the
/// import swapped, each run against a real store and a scripted person — here and in the suites beside this one
/// (async/await, completion handlers, long-running queries). Where OpenHealthKit made a porter change a file, the
/// file says so in a PORTING NOTE, and KnownDifferencesTests states HealthKit's behaviour as a known issue.
@Suite("Porting corpus")
struct PortingCorpusTests {
    static func store(_ answers: ScriptedPresenter.Script = .allowAll, app: String = "com.example.steps") -> HKHealthStore {
        HKHealthStore(configuration: .init(
            storeDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("porting-\(UUID().uuidString)"),
            app: AppManifest(bundleIdentifier: app, name: "Ported", shareUsageDescription: "Reads your data.",
                             updateUsageDescription: "Saves your data."),
            presenter: ScriptedPresenter(answers)))
    }

    @Test func theStepsChartServiceLogsWalksAndChartsAWeek() async throws {
        let service = StepsChartService(healthStore: Self.store())
        let granted = await withCheckedContinuation { continuation in service.requestAccess { ok, _ in continuation.resume(returning: ok) } }
        #expect(granted)
        // HealthKit cuts a statistics collection's intervals in the current calendar; so does the service.
        let calendar = Calendar.current
        let today = calendar.date(from: DateComponents(year: 2026, month: 11, day: 20, hour: 18))!
        for (hoursAgo, steps) in [(0, 1200.0), (6, 800.0), (48, 5000.0)] {
            let end = calendar.date(byAdding: .hour, value: -hoursAgo, to: today)!
            let saved = await withCheckedContinuation { continuation in
                service.logWalk(steps: steps, endingAt: end, minutes: 30) { ok, _ in continuation.resume(returning: ok) }
            }
            #expect(saved)
        }
        let week = await withCheckedContinuation { continuation in
            service.weekOfSteps(endingOn: today, calendar: calendar) { continuation.resume(returning: $0) }
        }
        #expect(week.count == 7 && week.map(\.steps) == [0, 0, 0, 0, 5000, 0, 2000], "\(week.map(\.steps))")
        #expect(week.last?.start == calendar.startOfDay(for: today))
        let walks = await withCheckedContinuation { continuation in service.recentWalks(limit: 2) { continuation.resume(returning: $0) } }
        #expect(walks.map { $0.quantity.doubleValue(for: .count()) }.sorted() == [800, 1200])
        #expect(walks.allSatisfy { $0.metadata?[HKMetadataKeyWasUserEntered] as? Bool == true })
    }

    @Test func theSyncServiceKeepsItsAnchorWithNSKeyedArchiverAcrossRuns() async throws {
        let store = Self.store(app: "com.example.sync")
        let mass = HKQuantityType(.bodyMass)
        try await store.requestAuthorization(toShare: [mass], read: [mass])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("anchor-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        func weigh(_ kilograms: Double, minutesAgo: Double) -> HKQuantitySample {
            let date = Date().addingTimeInterval(-minutesAgo * 60)
            return HKQuantitySample(type: mass, quantity: HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: kilograms), start: date, end: date)
        }
        let (a, b) = (weigh(70, minutesAgo: 30), weigh(70.4, minutesAgo: 20))
        try await store.save([a, b])
        let first = try await AnchoredSyncService(healthStore: store, anchorFile: file).sync()
        #expect(Set(first.added) == [a.uuid, b.uuid] && first.deleted.isEmpty)

        let c = weigh(69.8, minutesAgo: 10)
        try await store.save(c)
        try await store.delete(a)
        // A later run of the app: a new service, the anchor read back from its file.
        let second = try await AnchoredSyncService(healthStore: store, anchorFile: file).sync()
        #expect(second.added == [c.uuid] && second.deleted == [a.uuid])
        let third = try await AnchoredSyncService(healthStore: store, anchorFile: file).sync()
        #expect(third.added.isEmpty && third.deleted.isEmpty)
    }
}
