import Foundation
import Testing
@testable import HealthExport
@testable import HealthStore
@testable import OpenHealthKit

/// An export folder with an empty export.xml and these electrocardiogram CSVs.
private func exportWithRecordings(_ files: [String: String]) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-ecg-\(UUID().uuidString)/apple_health_export")
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("electrocardiograms"), withIntermediateDirectories: true)
    try Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="2026-11-01 09:00:00 +0100"/>
        </HealthData>
        """.utf8).write(to: folder.appendingPathComponent("export.xml"))
    for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent("electrocardiograms/\(name)")) }
    return folder
}

/// A recording in the ECG app's CSV format (format.md §7.1), with these voltages.
private func recording(classification: String = "Sinus Rhythm", symptoms: String = "", rate: String = "512 hertz",
                       voltages: [String] = ["-107.825", "-103.391", "-98.957", "-94.523"]) -> String {
    """
    Name,Jane Appleseed
    Date of Birth,"Jun 12, 2006"
    Recorded Date,2023-03-04 20:55:07 -0500
    Classification,\(classification)
    Symptoms,\(symptoms)
    Software Version,1.90
    Device,"Watch6,7"
    Sample Rate,\(rate)


    Lead,Lead I
    Unit,µV

    \(voltages.joined(separator: "\n"))

    """
}

@Suite("Electrocardiograms")
struct ElectrocardiogramTests {
    let ecgType = HKObjectType.electrocardiogramType()
    let recorded = Date(timeIntervalSince1970: 1_677_981_307)  // 2023-03-04 20:55:07 -0500

    func importedStore(_ files: [String: String]) async throws -> (HKHealthStore, HealthPerson, ExportImport, URL) {
        let export = try exportWithRecordings(files)
        let (store, _, folder) = makeStore(.allowAll)
        let person = try HealthPerson(storeDirectory: folder)
        let result = try person.importExport(at: export)
        try await store.requestAuthorization(toShare: [], read: [ecgType])
        return (store, person, result, export)
    }

    @Test func anExportsRecordingIsAnElectrocardiogramWithItsVoltages() async throws {
        let (store, _, result, _) = try await importedStore(["ecg_2023-03-04.csv": recording()])
        #expect(result.added[ecgType.identifier] == 1 && result.keptFiles == ["electrocardiograms/ecg_2023-03-04.csv"])
        let ecg = try #require(try await HKSampleQueryDescriptor(predicates: [.electrocardiogram()], sortDescriptors: []).result(for: store).first)
        #expect(ecg.startDate == recorded && ecg.endDate == recorded.addingTimeInterval(4.0 / 512))
        #expect(ecg.classification == .sinusRhythm && ecg.symptomsStatus == .notSet && ecg.averageHeartRate == nil)
        #expect(ecg.numberOfVoltageMeasurements == 4 && ecg.samplingFrequency?.doubleValue(for: .hertz()) == 512)
        #expect(ecg.device?.hardwareVersion == "Watch6,7" && ecg.sourceRevision.version == "1.90" && ecg.sourceRevision.source.name == "ECG")

        var measurements: [HKElectrocardiogram.VoltageMeasurement] = []
        for try await measurement in HKElectrocardiogramQueryDescriptor(ecg).results(for: store) { measurements.append(measurement) }
        let times: [TimeInterval] = [0, 1.0 / 512, 2.0 / 512, 3.0 / 512]
        #expect(measurements.map(\.timeSinceSampleStart) == times)
        let microvolts = measurements.compactMap { $0.quantity(for: .appleWatchSimilarToLeadI)?.doubleValue(for: .voltUnit(with: .micro)) }
        #expect(microvolts == [-107.825, -103.391, -98.957, -94.523])
        #expect(measurements[0].quantity(for: .appleWatchSimilarToLeadI)?.doubleValue(for: .volt()) == -107.825e-6)

        // The callback query: a measurement per call, then .done.
        let calls: Int = try await withCheckedThrowingContinuation { done in
            let count = Counter()
            store.execute(HKElectrocardiogramQuery(ecg) { _, result in
                switch result {
                case .measurement: count.increment()
                case .done: done.resume(returning: count.value)
                case .error(let error): done.resume(throwing: error)
                }
            })
        }
        #expect(calls == 4)
        // No symptom samples come with an exported recording.
        let symptoms = try await HKSampleQueryDescriptor(
            predicates: [.categorySample(type: HKCategoryType(.rapidPoundingOrFlutteringHeartbeat),
                                         predicate: HKQuery.predicateForObjectsAssociated(electrocardiogram: ecg))],
            sortDescriptors: []).result(for: store)
        #expect(symptoms.isEmpty)
    }

    @Test func electrocardiogramsAreFoundByClassificationAndSymptoms() async throws {
        let (store, _, _, _) = try await importedStore([
            "ecg_1.csv": recording(), "ecg_2.csv": recording(classification: "Atrial Fibrillation", symptoms: "Rapid, pounding heartbeat"),
            "ecg_3.csv": recording(classification: "Poor Recording"), "ecg_4.csv": recording(classification: "Ritmo sinusal"),
        ])
        func count(_ predicate: NSPredicate) async throws -> [HKElectrocardiogram] {
            try await HKSampleQueryDescriptor(predicates: [.electrocardiogram(predicate)], sortDescriptors: []).result(for: store)
        }
        #expect(try await count(HKQuery.predicateForElectrocardiograms(classification: .atrialFibrillation)).map(\.symptomsStatus) == [.present])
        #expect(try await count(HKQuery.predicateForElectrocardiograms(classification: .inconclusivePoorReading)).count == 1)
        #expect(try await count(HKQuery.predicateForElectrocardiograms(classification: .unrecognized)).count == 1)  // another language
        #expect(try await count(HKQuery.predicateForElectrocardiograms(symptomsStatus: .notSet)).count == 3)
    }

    @Test func theSameFileImportedAgainAddsNothingAndGoesBackOutAsItCame() async throws {
        let (store, person, _, export) = try await importedStore(["ecg_2023-03-04.csv": recording()])
        let again = try person.importExport(at: export)
        #expect(again.added[ecgType.identifier] == nil && again.alreadyStored == 1)
        #expect(try await HKSampleQueryDescriptor(predicates: [.electrocardiogram()], sortDescriptors: []).result(for: store).count == 1)
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-ecg-out-\(UUID().uuidString)")
        let written = try person.exportHealthData(to: out)
        #expect(written.files == 1 && written.notExported[ecgType.identifier] == nil)
        #expect(try String(contentsOf: out.appendingPathComponent("electrocardiograms/ecg_2023-03-04.csv"), encoding: .utf8) == recording())
    }

    @Test func appsReadElectrocardiogramsOnlyWithPermissionAndNeverWriteThem() async throws {
        let (_, _, _, export) = try await importedStore(["ecg.csv": recording()])
        let (stranger, _, folder) = makeStore(.denyAll)
        _ = try HealthPerson(storeDirectory: folder).importExport(at: export)
        try await stranger.requestAuthorization(toShare: [], read: [ecgType])
        #expect(try await HKSampleQueryDescriptor(predicates: [.electrocardiogram()], sortDescriptors: []).result(for: stranger).isEmpty)
        let ecg = try ElectrocardiogramCSV.electrocardiogram(Data(recording().utf8), path: "ecg.csv")
        await #expect(throws: HKError(.errorNoData)) {
            for try await _ in HKElectrocardiogramQueryDescriptor(ecg).results(for: stranger) {}
        }
        await #expect(throws: HKError(.errorInvalidArgument)) { try await stranger.requestAuthorization(toShare: [self.ecgType], read: []) }
        await #expect(throws: HKError(.errorAuthorizationDenied)) { try await stranger.save(ecg) }
    }

    @Test func aRecordingItCannotReadIsAProblemAndTheFileIsStillKept() async throws {
        let (_, _, result, _) = try await importedStore(["bad.csv": recording(rate: "fast"), "worse.csv": recording(voltages: ["-1.0", "spike"])])
        #expect(result.added[ecgType.identifier] == nil && result.keptFiles.count == 2)
        #expect(Set(result.problems.map(\.reason)) == ["electrocardiograms/bad.csv has no readable Sample Rate (fast)",
                                                       "electrocardiograms/worse.csv has \"spike\" where a voltage belongs (line 2 of the values)"])
    }

    @Test func decimalCommasAndOlderSampleRatesAreRead() throws {
        let ecg = try ElectrocardiogramCSV.electrocardiogram(Data(recording(rate: "512,844 hertz", voltages: ["-265,868", "12,5"]).utf8),
                                                             path: "pt.csv")
        #expect(ecg.samplingFrequency?.doubleValue(for: .hertz()) == 512.844 && ecg.voltages == [-265.868, 12.5])
    }

    @Test func anElectrocardiogramArchivesWithItsConclusion() throws {
        let ecg = try ElectrocardiogramCSV.electrocardiogram(Data(recording(classification: "Atrial Fibrillation", symptoms: "Fatigue").utf8),
                                                             path: "ecg.csv")
        let data = try NSKeyedArchiver.archivedData(withRootObject: ecg, requiringSecureCoding: true)
        let back = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: HKElectrocardiogram.self, from: data))
        #expect(back.uuid == ecg.uuid && back.classification == .atrialFibrillation && back.symptomsStatus == .present)
        #expect(back.numberOfVoltageMeasurements == 4 && back.samplingFrequency == ecg.samplingFrequency && back.endDate == ecg.endDate)
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
