import Foundation
import Testing
@testable import OpenHealthKit
import TestSupport

@Suite("Synthetic person")
struct SyntheticPersonTests {
    @Test func generatesOverlappingPhoneAndWatchStepsHeartRateSleepAndWeight() async throws {
        let (store, _, folder) = makeStore(.allowAll)
        try await store.requestAuthorization(toShare: [], read: [steps, heartRate, HKCategoryType(.sleepAnalysis), HKQuantityType(.bodyMass)])
        let person = try HealthPerson(storeDirectory: folder)
        let plan = SyntheticPerson(days: 3, end: day0, seed: 42, heartRateInterval: 30)
        let summary = try person.generate(plan)
        #expect(summary.samplesByType[steps.identifier, default: 0] > 300)
        #expect(summary.samplesByType[HKCategoryTypeIdentifier.sleepAnalysis.rawValue, default: 0] >= 3 * 4)

        // Watch first, then phone, by the default order; Health (manual entries) above both once it wrote steps.
        #expect(try person.sourcePriority(for: steps).map(\.name) == ["Alex’s Apple Watch", "Alex’s iPhone"])

        // The merged daily total lies between the larger single source and the raw sum of both.
        let days = try await collection(store, options: [.cumulativeSum, .separateBySource], anchor: day0, interval: DateComponents(day: 1))
        #expect(days.statistics().count == 3)
        for day in days.statistics() {
            let merged = try #require(value(day.sumQuantity()))
            let each = (day.sources ?? []).compactMap { value(day.sumQuantity(for: $0)) }
            #expect(each.count == 2)
            #expect(merged >= each.max()! - 1e-6 && merged < each.reduce(0, +))
        }
        // Heart rate every 30 s while awake (about 16 hours).
        let beats = summary.samplesByType[heartRate.identifier, default: 0]
        #expect(beats > 3 * 14 * 120 && beats < 3 * 18 * 120)
        let weight = try await run(store, type: HKQuantityType(.bodyMass))
        #expect(weight.allSatisfy { $0.sourceRevision.source.bundleIdentifier == "com.apple.Health" && $0.metadata?[HKMetadataKeyWasUserEntered] as? Bool == true })
    }

    @Test func thePersonTracksAStatinTakenOnMostMorningsAndIbuprofenAsNeeded() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-\(UUID().uuidString)")
        let person = try HealthPerson(storeDirectory: folder)
        let summary = try person.generate(SyntheticPerson(days: 30, end: day0, seed: 42, heartRateInterval: 3600))
        let medications = try person.medications()
        #expect(medications.map(\.medication.displayText) == ["Atorvastatin 20 MG Oral Tablet", "Ibuprofen 200 MG Oral Tablet"])
        #expect(medications.map(\.hasSchedule) == [true, false])
        #expect(summary.medications == 2)

        let doses = try person.loggedDoses(limit: 1_000)
        #expect(summary.samplesByType[HKObjectType.medicationDoseEventType().identifier] == doses.count)
        let statin = doses.filter { $0.medicationConceptIdentifier == medications[0].medication.identifier }
        // Due at 08:00 each day; taken on most (one tablet), skipped on some, not logged on the rest.
        #expect(statin.count <= 30 && statin.filter { $0.logStatus == .taken }.count >= 20)
        #expect(statin.allSatisfy { $0.scheduleType == .schedule && $0.scheduledDoseQuantity == 1 && $0.scheduledDate != nil })
        #expect(statin.allSatisfy { $0.logStatus == .taken ? $0.doseQuantity == 1 : $0.logStatus == .skipped && $0.doseQuantity == nil })
        let ibuprofen = doses.filter { $0.medicationConceptIdentifier == medications[1].medication.identifier }
        #expect(ibuprofen.allSatisfy { $0.scheduleType == .asNeeded && $0.scheduledDate == nil && [1, 2].contains($0.doseQuantity) })
        #expect(doses.allSatisfy { $0.sourceRevision.source.bundleIdentifier == "com.apple.Health" })

        // Generating into the same store again tracks no medication twice.
        try person.generate(SyntheticPerson(days: 1, end: day0, seed: 43, heartRateInterval: 3600))
        #expect(try person.medications().count == 2)
    }

    @Test func theSameSeedGivesTheSameData() throws {
        let a = SyntheticPerson(days: 2, seed: 9, heartRateInterval: 60).day(1)
        let b = SyntheticPerson(days: 2, seed: 9, heartRateInterval: 60).day(1)
        #expect(a.count == b.count)
        #expect(a.map { ($0 as! HKSample).startDate } == b.map { ($0 as! HKSample).startDate })
        #expect(SyntheticPerson(days: 2, seed: 10, heartRateInterval: 60).day(1).count != a.count
                || SyntheticPerson(days: 2, seed: 10, heartRateInterval: 60).day(1).map { ($0 as! HKSample).startDate } != a.map { ($0 as! HKSample).startDate })
    }

    @Test func badPlansAreErrors() throws {
        let person = try HealthPerson(storeDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("ohk-\(UUID().uuidString)"))
        #expect(throws: HKError(.errorInvalidArgument)) { try person.generate(SyntheticPerson(days: 0)) }
        #expect(throws: HKError(.errorInvalidArgument)) { try person.generate(SyntheticPerson(days: 1, heartRateInterval: 0)) }
        // Found by the command-line fuzz: --days 9223372036854775807 generated (from the year -2.5e16) until killed.
        let started = Date()
        #expect(throws: HKError(.errorInvalidArgument)) { try person.generate(SyntheticPerson(days: .max)) }
        #expect(throws: HKError(.errorInvalidArgument)) { try person.generate(SyntheticPerson(days: 36_501)) }
        #expect(Date().timeIntervalSince(started) < 10, "bounded, though the machine be loaded")
    }
}
