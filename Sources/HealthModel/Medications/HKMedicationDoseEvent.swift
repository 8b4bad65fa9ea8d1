public import Foundation

/// One logged dose of a medication the person tracks — taken, skipped, snoozed, or a reminder left untouched (HealthKit's
/// `HKMedicationDoseEvent`, iOS 26). A sample at the moment it was logged, naming its medication by concept identifier.
/// Apps only read them, and only for the medications the person shared with them (``HKUserAnnotatedMedication``); the
/// person logs them (`health medications log`, the web Health app). Find them with
/// `HKQuery.predicateForMedicationDoseEvent(…)`.
///
/// ```swift
/// let taken = HKQuery.predicateForMedicationDoseEvent(status: .taken)
/// ```
///
/// `NSSecureCoding`, as HealthKit's.
public final class HKMedicationDoseEvent: HKSample, @unchecked Sendable {
    /// Logged from a scheduled reminder, or as needed.
    public let scheduleType: ScheduleType
    /// The identifier of the medication's concept.
    public let medicationConceptIdentifier: HKHealthConceptIdentifier
    /// When the dose was scheduled: always for a scheduled dose, never for one taken as needed.
    public let scheduledDate: Date?
    /// The dose the schedule asks for: always for a scheduled dose, never for one taken as needed.
    public let scheduledDoseQuantity: Double?
    /// The dose the person reports taking.
    public let doseQuantity: Double?
    /// What became of the dose.
    public let logStatus: LogStatus
    /// The unit of the doses (a count of tablets, milligrams, international units…).
    public let unit: HKUnit

    /// The dose event type.
    public var medicationDoseEventType: HKMedicationDoseEventType { HKObjectType.medicationDoseEventType() }

    package init(
        scheduleType: ScheduleType, medicationConceptIdentifier: HKHealthConceptIdentifier, scheduledDate: Date?,
        scheduledDoseQuantity: Double?, doseQuantity: Double?, logStatus: LogStatus, unit: HKUnit, start: Date, end: Date,
        uuid: UUID = UUID(), metadata: [String: HKMetadataValue]? = nil,
        sourceRevision: HKSourceRevision = HKObject.unsavedRevision, device: HKDevice? = nil
    ) {
        self.scheduleType = scheduleType
        self.medicationConceptIdentifier = medicationConceptIdentifier
        self.scheduledDate = scheduledDate
        self.scheduledDoseQuantity = scheduledDoseQuantity
        self.doseQuantity = doseQuantity
        self.logStatus = logStatus
        self.unit = unit
        super.init(sampleType: HKObjectType.medicationDoseEventType(), start: start, end: end, uuid: uuid, metadata: metadata,
                   sourceRevision: sourceRevision, device: device)
    }

    /// A dose event the person logs, checked as HealthKit documents it: a scheduled dose has its scheduled date and dose,
    /// one taken as needed has neither; doses are finite and not negative; it ends no earlier than it starts.
    package static func validated(
        scheduleType: ScheduleType, medication: HKHealthConceptIdentifier, scheduledDate: Date?, scheduledDoseQuantity: Double?,
        doseQuantity: Double?, logStatus: LogStatus, unit: HKUnit, start: Date, end: Date, uuid: UUID = UUID(),
        metadata: [String: HKMetadataValue]? = nil, sourceRevision: HKSourceRevision = HKObject.unsavedRevision
    ) throws -> HKMedicationDoseEvent {
        try check(scheduleType: scheduleType, scheduledDate: scheduledDate, scheduledDoseQuantity: scheduledDoseQuantity,
                  doseQuantity: doseQuantity, start: start, end: end)
        return HKMedicationDoseEvent(
            scheduleType: scheduleType, medicationConceptIdentifier: medication, scheduledDate: scheduledDate,
            scheduledDoseQuantity: scheduledDoseQuantity, doseQuantity: doseQuantity, logStatus: logStatus, unit: unit, start: start,
            end: end, uuid: uuid, metadata: metadata, sourceRevision: sourceRevision)
    }

    package static func check(scheduleType: ScheduleType, scheduledDate: Date?, scheduledDoseQuantity: Double?, doseQuantity: Double?,
                              start: Date, end: Date) throws {
        switch scheduleType {
        case .schedule:
            guard scheduledDate != nil, scheduledDoseQuantity != nil else {
                throw HKError.invalidArgument("a scheduled dose needs its scheduled date and scheduled dose")
            }
        case .asNeeded:
            guard scheduledDate == nil, scheduledDoseQuantity == nil else {
                throw HKError.invalidArgument("a dose taken as needed has no scheduled date or scheduled dose")
            }
        }
        for (name, dose) in [("scheduled dose", scheduledDoseQuantity), ("dose", doseQuantity)] {
            if let dose, !(dose.isFinite && dose >= 0) {
                throw HKError.invalidArgument("a dose event's \(name) must be a number of at least 0, not \(dose)")
            }
        }
        guard end >= start else {
            throw HKError.invalidArgument("a dose event ends (\(end.formatted(.iso8601))) before it starts (\(start.formatted(.iso8601)))")
        }
    }

    // MARK: NSSecureCoding

    private enum Key {
        static let scheduleType = "ScheduleType", concept = "MedicationConceptIdentifier", scheduledDate = "ScheduledDate"
        static let scheduledDose = "ScheduledDoseQuantity", dose = "DoseQuantity", status = "LogStatus", unit = "Unit"
    }

    public override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encodeEnum(scheduleType, forKey: Key.scheduleType)
        coder.encode(medicationConceptIdentifier, forKey: Key.concept)
        if let scheduledDate { coder.encodeDate(scheduledDate, forKey: Key.scheduledDate) }
        if let scheduledDoseQuantity { coder.encode(scheduledDoseQuantity, forKey: Key.scheduledDose) }
        if let doseQuantity { coder.encode(doseQuantity, forKey: Key.dose) }
        coder.encodeEnum(logStatus, forKey: Key.status)
        coder.encode(unit, forKey: Key.unit)
    }

    public required convenience init?(coder: NSCoder) {
        guard case let (sample, schedule, concept, status, unit)? = coder.decodeValid("HKMedicationDoseEvent", {
            (try CodedSampleFields(coder: coder), try coder.decodeEnum(ScheduleType.self, forKey: Key.scheduleType),
             try coder.decode(HKHealthConceptIdentifier.self, forKey: Key.concept), try coder.decodeEnum(LogStatus.self, forKey: Key.status),
             try coder.decode(HKUnit.self, forKey: Key.unit))
        }) else { return nil }
        let scheduledDate = coder.containsValue(forKey: Key.scheduledDate) ? try? coder.decodeDate(forKey: Key.scheduledDate) : nil
        let scheduledDose = coder.containsValue(forKey: Key.scheduledDose) ? coder.decodeDouble(forKey: Key.scheduledDose) : nil
        let dose = coder.containsValue(forKey: Key.dose) ? coder.decodeDouble(forKey: Key.dose) : nil
        do {
            try Self.check(scheduleType: schedule, scheduledDate: scheduledDate, scheduledDoseQuantity: scheduledDose, doseQuantity: dose,
                           start: sample.start, end: sample.end)
        } catch let error as HKError {
            coder.reportFailure(.invalid(error.message), decoding: "HKMedicationDoseEvent")
            return nil
        } catch {
            return nil
        }
        self.init(scheduleType: schedule, medicationConceptIdentifier: concept, scheduledDate: scheduledDate,
                  scheduledDoseQuantity: scheduledDose, doseQuantity: dose, logStatus: status, unit: unit, start: sample.start,
                  end: sample.end, uuid: sample.object.uuid, metadata: sample.object.metadata,
                  sourceRevision: sample.object.sourceRevision, device: sample.object.device)
    }
}
