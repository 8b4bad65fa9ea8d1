package import Foundation
package import HealthModel

/// The medications the person tracks as the daemon sends them (`UserAnnotatedMedication`), and back.
package enum WireMedication {
    package static func wire(_ medication: HKUserAnnotatedMedication) -> Components.Schemas.UserAnnotatedMedication {
        let concept = medication.medication
        return .init(nickname: medication.nickname, isArchived: medication.isArchived, hasSchedule: medication.hasSchedule,
                     medication: .init(identifier: concept.identifier.underlyingIdentifier, displayText: concept.displayText,
                                       generalForm: concept.generalForm.rawValue,
                                       relatedCodings: concept.relatedCodings.map(\.stored).sorted { ($0.system, $0.code) < ($1.system, $1.code) }
                                           .map { .init(system: $0.system, version: $0.version, code: $0.code) }))
    }

    /// The medications of a list, or the field that does not hold one.
    package static func stored(_ wires: [Components.Schemas.UserAnnotatedMedication]) throws -> [HKUserAnnotatedMedication] {
        try wires.enumerated().map { index, wire in
            let concept = wire.medication
            guard !concept.identifier.isEmpty else { throw WireFieldError("/medications/\(index)/medication/identifier", "a medication needs its identifier") }
            return HKUserAnnotatedMedication(
                nickname: wire.nickname, isArchived: wire.isArchived, hasSchedule: wire.hasSchedule,
                medication: HKMedicationConcept(identifier: .medication(concept.identifier), displayText: concept.displayText,
                                                generalForm: HKMedicationGeneralForm(rawValue: concept.generalForm),
                                                relatedCodings: Set(concept.relatedCodings.map { HKClinicalCoding(system: $0.system, version: $0.version, code: $0.code) })))
        }
    }

    /// A dose event's fields as a `Sample` carries them.
    static func wireDose(_ dose: HKMedicationDoseEvent) -> Components.Schemas.MedicationDoseEvent {
        .init(scheduleType: dose.scheduleType.rawValue, medicationConceptIdentifier: dose.medicationConceptIdentifier.underlyingIdentifier,
              scheduledDate: dose.scheduledDate, scheduledDoseQuantity: dose.scheduledDoseQuantity, doseQuantity: dose.doseQuantity,
              logStatus: dose.logStatus.rawValue, unit: dose.unit.unitString)
    }

    /// A dose event from a `Sample`'s fields, checked as the store checks the person's; `pointer` names the field.
    static func dose(_ fields: Components.Schemas.MedicationDoseEvent, at pointer: String, start: Date, end: Date, uuid: UUID,
                     metadata: [String: HKMetadataValue]?, revision: HKSourceRevision, device: HKDevice?) throws -> HKMedicationDoseEvent {
        guard let schedule = HKMedicationDoseEvent.ScheduleType(rawValue: fields.scheduleType) else {
            throw WireFieldError(pointer + "/scheduleType", "\(fields.scheduleType) is not an HKMedicationDoseEvent.ScheduleType (1 as needed, 2 scheduled)")
        }
        guard let status = HKMedicationDoseEvent.LogStatus(rawValue: fields.logStatus) else {
            throw WireFieldError(pointer + "/logStatus", "\(fields.logStatus) is not an HKMedicationDoseEvent.LogStatus (1 to 6)")
        }
        guard let unit = try? HKUnit.parse(fields.unit) else { throw WireFieldError(pointer + "/unit", "\"\(fields.unit)\" is not a unit") }
        do {
            try HKMedicationDoseEvent.check(scheduleType: schedule, scheduledDate: fields.scheduledDate, scheduledDoseQuantity: fields.scheduledDoseQuantity,
                                            doseQuantity: fields.doseQuantity, start: start, end: end)
        } catch let error as HKError {
            throw WireFieldError(pointer, error.message)
        }
        return HKMedicationDoseEvent(scheduleType: schedule, medicationConceptIdentifier: .medication(fields.medicationConceptIdentifier),
                                     scheduledDate: fields.scheduledDate, scheduledDoseQuantity: fields.scheduledDoseQuantity,
                                     doseQuantity: fields.doseQuantity, logStatus: status, unit: unit, start: start, end: end, uuid: uuid,
                                     metadata: metadata, sourceRevision: revision, device: device)
    }
}
