import Foundation
import Testing
@testable import OpenHealthKit

/// Medications in an export: Apple's export (version 14) has none, so OpenHealthKit writes the medications the person
/// tracks as `<Medication>` elements and their doses as `<MedicationDoseEvent>`s, which its importer reads back into the
/// same medications and samples (bad ones reported with their line, never stored).
@Suite("Medications in an export")
struct MedicationExportTests {
    let date = Date(timeIntervalSince1970: 1_790_000_000)  // 2026-09-21 14:13:20 UTC
    let rxNorm = "http://www.nlm.nih.gov/research/umls/rxnorm"

    func doses(_ person: HealthPerson) throws -> [HKMedicationDoseEvent] {
        try person.sampleStore.samples(ofType: HKObjectType.medicationDoseEventType(), visibleTo: "(the person)")
            .compactMap { $0 as? HKMedicationDoseEvent }.sorted { $0.startDate < $1.startDate }
    }

    @Test func medicationsAndDosesGoOutAsTheirElementsAndComeBackTheSame() throws {
        let (_, _, folder) = makeStore(.allowAll)
        let person = try HealthPerson(storeDirectory: folder)
        let metformin = try person.addMedication(named: "Metformin 500 MG", form: .tablet,
                                                 codings: [HKClinicalCoding(system: rxNorm, version: "2025-01", code: "861007")],
                                                 nickname: "Morning <pill>", hasSchedule: true)
        let cream = try person.addMedication(named: "Hydrocortisone cream", form: .cream)
        try person.updateMedication(cream.medication.identifier, isArchived: true)
        try person.logDose(of: metformin.medication.identifier, status: .taken, at: date, dose: 1, unit: .count(), scheduledDate: date, scheduledDose: 1)
        try person.logDose(of: cream.medication.identifier, status: .skipped, at: date.addingTimeInterval(60), dose: nil, unit: .gram())

        let out = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-meds-\(UUID().uuidString)/apple_health_export")
        let written = try person.exportHealthData(to: out, timeZone: TimeZone(identifier: "Europe/Paris")!)
        let xml = try String(contentsOf: written.url.appendingPathComponent("export.xml"), encoding: .utf8)
        #expect(xml.contains(#"<Medication identifier="861007" displayText="Metformin 500 MG" generalForm="HKMedicationGeneralFormTablet" nickname="Morning &lt;pill&gt;" isArchived="0" hasSchedule="1">"#), "\(xml.suffix(1500))")
        #expect(xml.contains(#"<Coding system="http://www.nlm.nih.gov/research/umls/rxnorm" version="2025-01" code="861007"/>"#))
        #expect(xml.contains(#"medication="861007" scheduleType="HKMedicationDoseEventScheduleTypeSchedule" scheduledDate="2026-09-21 16:13:20 +0200" scheduledDoseQuantity="1" doseQuantity="1" logStatus="HKMedicationDoseEventLogStatusTaken" unit="count"/>"#))
        #expect(xml.range(of: "<Medication ")!.lowerBound < xml.range(of: "<MedicationDoseEvent")!.lowerBound, "medications come before their doses")

        let (_, _, second) = makeStore(.allowAll)
        let other = try HealthPerson(storeDirectory: second)
        let imported = try other.importExport(at: written.url)
        #expect(imported.problems.isEmpty, "\(imported.problems)")
        #expect(imported.added[HKDataTypeIdentifierUserAnnotatedMedicationConcept] == 2)
        #expect(imported.added[HKMedicationDoseEventTypeIdentifierMedicationDoseEvent] == 2)
        #expect(try other.medications() == [metformin, try person.medications()[1]])
        let back = try doses(other)
        #expect(back.map(\.logStatus) == [.taken, .skipped] && back.map(\.scheduleType) == [.schedule, .asNeeded])
        #expect(back.first?.scheduledDate == date && back.first?.scheduledDoseQuantity == 1 && back.last?.doseQuantity == nil)
        #expect(back.last?.unit == .gram() && back.first?.sourceRevision.source.name == "Health")
        // The same export again adds nothing: medications by concept, doses by their stable identities.
        let again = try other.importExport(at: written.url)
        #expect(again.added[HKDataTypeIdentifierUserAnnotatedMedicationConcept] == nil)
        #expect(again.added[HKMedicationDoseEventTypeIdentifierMedicationDoseEvent] ?? 0 == 0)
        #expect(try doses(other).count == 2)
    }

    @Test func aDoseOfAnUndeclaredMedicationOrABadOneIsReportedWithItsLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-meds-\(UUID().uuidString)/apple_health_export")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let dose = #" <MedicationDoseEvent sourceName="Health" startDate="2026-09-21 16:13:20 +0200" endDate="2026-09-21 16:13:20 +0200""#
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <ExportDate value="2026-11-01 09:00:00 +0100"/>
            \(dose) medication="1191" scheduleType="HKMedicationDoseEventScheduleTypeAsNeeded" logStatus="HKMedicationDoseEventLogStatusTaken" unit="count"/>
             <Medication identifier="1191" displayText="Aspirin" generalForm="HKMedicationGeneralFormTablet" isArchived="0" hasSchedule="0"/>
             <Medication identifier="" displayText="Nameless" generalForm="HKMedicationGeneralFormTablet" isArchived="0" hasSchedule="0"/>
            \(dose) medication="1191" scheduleType="HKMedicationDoseEventScheduleTypeSchedule" logStatus="HKMedicationDoseEventLogStatusTaken" unit="count"/>
            \(dose) medication="1191" scheduleType="HKMedicationDoseEventScheduleTypeAsNeeded" logStatus="HKMedicationDoseEventLogStatusEaten" unit="count"/>
            \(dose) medication="1191" scheduleType="HKMedicationDoseEventScheduleTypeAsNeeded" logStatus="HKMedicationDoseEventLogStatusTaken" doseQuantity="2" unit="count"/>
            </HealthData>
            """.utf8).write(to: folder.appendingPathComponent("export.xml"))
        let (_, _, storeFolder) = makeStore(.allowAll)
        let person = try HealthPerson(storeDirectory: storeFolder)
        let result = try person.importExport(at: folder)
        #expect(result.problems.map(\.line) == [4, 6, 7, 8], "\(result.problems)")
        let reasons = result.problems.map(\.reason).joined(separator: " | ")
        #expect(reasons.contains("which no Medication before it declares") && reasons.contains("a medication needs an identifier"))
        #expect(reasons.contains("a scheduled dose needs its scheduled date and scheduled dose") && reasons.contains("HKMedicationDoseEventLogStatusEaten"))
        #expect(try person.medications().map(\.medication.displayText) == ["Aspirin"])
        #expect(try doses(person).map(\.doseQuantity) == [2])
    }
}
