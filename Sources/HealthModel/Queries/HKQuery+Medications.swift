public import Foundation

extension HKQuery {
    /// Medication dose events with this log status.
    public class func predicateForMedicationDoseEvent(status: HKMedicationDoseEvent.LogStatus) -> NSPredicate {
        HKFilterPredicate(filter: .doseStatuses([status.rawValue]))
    }

    /// Medication dose events with any of these log statuses (raw values of `HKMedicationDoseEvent.LogStatus`); a number
    /// that is not one makes a predicate whose query fails with `errorInvalidArgument`.
    public class func predicateForMedicationDoseEvent(statuses: Set<NSNumber>) -> NSPredicate {
        var raws: Set<Int> = []
        for number in statuses {
            guard let status = HKMedicationDoseEvent.LogStatus(rawValue: number.intValue), Double(status.rawValue) == number.doubleValue else {
                return HKFilterPredicate(filter: .invalid("\(number) is not an HKMedicationDoseEvent.LogStatus (1 to 6)"))
            }
            raws.insert(status.rawValue)
        }
        return HKFilterPredicate(filter: .doseStatuses(raws))
    }

    /// Medication dose events scheduled at exactly this moment.
    public class func predicateForMedicationDoseEvent(scheduledDate: Date) -> NSPredicate {
        HKFilterPredicate(filter: .doseScheduledDates([scheduledDate]))
    }

    /// Medication dose events scheduled at exactly one of these moments.
    public class func predicateForMedicationDoseEvent(scheduledDates: Set<Date>) -> NSPredicate {
        HKFilterPredicate(filter: .doseScheduledDates(scheduledDates))
    }

    /// Medication dose events scheduled from `scheduledStart` (included) to `end` (excluded); `nil` leaves that side
    /// open. Doses taken as needed have no scheduled date and never match. An end before the start is an error.
    public class func predicateForMedicationDoseEvent(scheduledStart: Date?, end: Date?) -> NSPredicate {
        if let scheduledStart, let end, end < scheduledStart {
            return HKFilterPredicate(filter: .invalid(
                "a scheduled-date range must not end (\(end.formatted(.iso8601))) before it starts (\(scheduledStart.formatted(.iso8601)))"))
        }
        return HKFilterPredicate(filter: .doseScheduledRange(start: scheduledStart, end: end))
    }

    /// Medication dose events of this medication.
    public class func predicateForMedicationDoseEvent(medicationConceptIdentifier: HKHealthConceptIdentifier) -> NSPredicate {
        HKFilterPredicate(filter: .doseMedications([medicationConceptIdentifier.underlyingIdentifier]))
    }

    /// Medication dose events of any of these medications.
    public class func predicateForMedicationDoseEvent(medicationConceptIdentifiers: Set<HKHealthConceptIdentifier>) -> NSPredicate {
        HKFilterPredicate(filter: .doseMedications(Set(medicationConceptIdentifiers.map(\.underlyingIdentifier))))
    }

    /// For `HKUserAnnotatedMedicationQuery`: the medications the person archived (`true`) or not.
    public class func predicateForUserAnnotatedMedications(isArchived: Bool) -> NSPredicate {
        HKFilterPredicate(filter: .medicationArchived(isArchived))
    }

    /// For `HKUserAnnotatedMedicationQuery`: the medications with a reminder schedule (`true`) or without.
    public class func predicateForUserAnnotatedMedications(hasSchedule: Bool) -> NSPredicate {
        HKFilterPredicate(filter: .medicationHasSchedule(hasSchedule))
    }
}
