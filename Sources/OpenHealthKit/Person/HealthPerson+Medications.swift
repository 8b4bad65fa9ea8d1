public import Foundation
import HealthStore

/// The medications the person tracks and the doses they log, as in the Health app's Medications: only the person adds,
/// changes and removes them; apps read the ones the person shares with them, object by object.
extension HealthPerson {
    /// Starts tracking a medication: its name, form and clinical codes, and what the person sets for it. Its concept
    /// identifier is its RxNorm code when it has one (the same medication is the same concept everywhere), else a new
    /// one. A medication tracked already, an empty name or a coding without system or code is `errorInvalidArgument`.
    @discardableResult
    public func addMedication(named name: String, form: HKMedicationGeneralForm, codings: Set<HKClinicalCoding> = [],
                              nickname: String? = nil, hasSchedule: Bool = false) throws -> HKUserAnnotatedMedication {
        let rxNorm = codings.filter { $0.system == HKClinicalCoding.rxNormSystem }.map(\.code).sorted().first
        let concept = try HKMedicationConcept.validated(identifier: rxNorm ?? UUID().uuidString.lowercased(), displayText: name,
                                                        generalForm: form, relatedCodings: codings)
        let medication = HKUserAnnotatedMedication(nickname: nickname.flatMap { $0.isEmpty ? nil : $0 }, isArchived: false,
                                                   hasSchedule: hasSchedule, medication: concept)
        try sampleStore.addMedication(medication)
        return medication
    }

    /// Every medication the person tracks, in the order they were added.
    public func medications() throws -> [HKUserAnnotatedMedication] {
        try sampleStore.medications(matching: nil, visibleTo: AuthorizationService.personReader).map(\.medication)
    }

    /// Changes what the person set for a medication (a `nil` argument leaves it; an empty nickname removes it).
    public func updateMedication(_ identifier: HKHealthConceptIdentifier, nickname: String? = nil, isArchived: Bool? = nil,
                                 hasSchedule: Bool? = nil) throws {
        try sampleStore.updateMedication(identifier.underlyingIdentifier, nickname: nickname.map { $0.isEmpty ? nil : $0 },
                                         isArchived: isArchived, hasSchedule: hasSchedule)
    }

    /// Stops tracking a medication: its dose events are deleted (the apps that could read them hear of it) and no app
    /// reads it any more. Returns how many dose events went.
    @discardableResult
    public func removeMedication(_ identifier: HKHealthConceptIdentifier) throws -> Int {
        try sampleStore.removeMedication(identifier.underlyingIdentifier)
    }

    /// Logs a dose of a tracked medication (source: the Health app): taken, skipped, snoozed… at `date`. A scheduled
    /// dose (`scheduledDate` given) needs its scheduled dose; doses are numbers of at least 0. The apps that may read the
    /// medication hear of it as of any save.
    @discardableResult
    public func logDose(of identifier: HKHealthConceptIdentifier, status: HKMedicationDoseEvent.LogStatus, at date: Date,
                        dose: Double?, unit: HKUnit, scheduledDate: Date? = nil, scheduledDose: Double? = nil) throws -> HKMedicationDoseEvent {
        let event = try HKMedicationDoseEvent.validated(
            scheduleType: scheduledDate == nil && scheduledDose == nil ? .asNeeded : .schedule, medication: identifier,
            scheduledDate: scheduledDate, scheduledDoseQuantity: scheduledDose, doseQuantity: dose, logStatus: status, unit: unit,
            start: date, end: date, sourceRevision: HKSourceRevision(source: Self.healthAppSource, version: nil))
        try sampleStore.importSamples([event])
        return event
    }

    /// The doses logged, newest first, at most `limit`.
    package func loggedDoses(limit: Int) throws -> [HKMedicationDoseEvent] {
        try sampleStore.samples(ofType: HKObjectType.medicationDoseEventType(), matching: nil, visibleTo: AuthorizationService.personReader,
                                order: [SampleOrder(key: .startDate, ascending: false)], limit: limit)
            .compactMap { $0 as? HKMedicationDoseEvent }
    }
}
