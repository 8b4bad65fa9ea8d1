public import Foundation

/// HealthKit's predicate factories. Each returns an `NSPredicate` that the store compiles to SQL;
/// combine them with `NSCompoundPredicate`:
///
/// ```swift
/// let today = HKQuery.predicateForSamples(withStart: midnight, end: nil, options: .strictStartDate)
/// let mine = HKQuery.predicateForObjects(from: HKSource.default())
/// let predicate = NSCompoundPredicate(andPredicateWithSubpredicates: [today, mine])
/// ```
///
/// Predicates that compare with an operator are in `HKQuery+Comparisons.swift`.
extension HKQuery {
    // MARK: Samples by date

    /// Samples whose dates fall in the interval, as `options` say: overlapping it (no options), starting in it
    /// (`.strictStartDate`), ending in it (`.strictEndDate`). A `nil` date leaves that side open.
    public class func predicateForSamples(withStart startDate: Date?, end endDate: Date?, options: HKQueryOptions = []) -> NSPredicate {
        HKFilterPredicate(filter: .dateRange(start: startDate, end: endDate, options: options))
    }

    // MARK: Objects by identity, source and device

    /// The object with this UUID.
    public class func predicateForObject(with UUID: UUID) -> NSPredicate { HKFilterPredicate(filter: .uuids([UUID])) }

    /// The objects with these UUIDs.
    public class func predicateForObjects(with UUIDs: Set<UUID>) -> NSPredicate { HKFilterPredicate(filter: .uuids(UUIDs)) }

    /// The objects saved by this source.
    public class func predicateForObjects(from source: HKSource) -> NSPredicate {
        HKFilterPredicate(filter: .sources([source.bundleIdentifier]))
    }

    /// The objects saved by any of these sources.
    public class func predicateForObjects(from sources: Set<HKSource>) -> NSPredicate {
        HKFilterPredicate(filter: .sources(Set(sources.map(\.bundleIdentifier))))
    }

    /// The objects saved by any of these source revisions; `HKSourceRevisionAnyVersion`, `…AnyProductType` and
    /// `…AnyOperatingSystem` in a revision match every value of that property.
    public class func predicateForObjects(from sourceRevisions: Set<HKSourceRevision>) -> NSPredicate {
        HKFilterPredicate(filter: .sourceRevisions(sourceRevisions))
    }

    /// The objects recorded by any of these devices.
    public class func predicateForObjects(from devices: Set<HKDevice>) -> NSPredicate { HKFilterPredicate(filter: .devices(devices)) }

    /// The objects whose device has `key` (an `HKDevicePropertyKey…` constant) equal to one of `allowedValues`.
    public class func predicateForObjects(withDeviceProperty key: String, allowedValues: Set<String>) -> NSPredicate {
        guard SampleFilter.deviceProperties[key] != nil else {
            return HKFilterPredicate(filter: .invalid(SampleFilter.unknownDeviceProperty(key).message))
        }
        return HKFilterPredicate(filter: .deviceProperty(key, allowedValues))
    }

    // MARK: Metadata

    /// The objects that have a value for `key`.
    public class func predicateForObjects(withMetadataKey key: String) -> NSPredicate { HKFilterPredicate(filter: .metadataKeyExists(key)) }

    /// The objects whose value for `key` equals one of `allowedValues` (strings, dates, numbers, Booleans).
    public class func predicateForObjects(withMetadataKey key: String, allowedValues: [Any]) -> NSPredicate {
        do {
            return HKFilterPredicate(filter: .metadataValues(key: key, values: Set(try allowedValues.map { try HKMetadataValue(any: $0, key: key) })))
        } catch let error as HKError {
            return HKFilterPredicate(filter: .invalid(error.message))
        } catch {
            return HKFilterPredicate(filter: .invalid("\(error)"))
        }
    }

    // MARK: Correlations and workouts

    /// The objects that are not part of a correlation.
    public class func predicateForObjectsWithNoCorrelation() -> NSPredicate { HKFilterPredicate(filter: .noCorrelation) }

    /// The samples associated with `workout` by `HKHealthStore.add(_:to:)`.
    public class func predicateForObjects(from workout: HKWorkout) -> NSPredicate {
        HKFilterPredicate(filter: .workoutAssociation(workout.uuid))
    }

    /// The workout effort samples (`workoutEffortScore`, `estimatedWorkoutEffortScore`) related to `workout` by
    /// `HKHealthStore.relateWorkoutEffortSample(_:with:activity:)`: with `activity`, those related to that activity of
    /// it; with nil, all those related to the workout.
    public class func predicateForWorkoutEffortSamplesRelated(workout: HKWorkout, activity: HKWorkoutActivity?) -> NSPredicate {
        HKFilterPredicate(filter: .workoutEffort(workout: workout.uuid, activity: activity?.uuid))
    }

    /// The workouts of this activity type.
    public class func predicateForWorkouts(with workoutActivityType: HKWorkoutActivityType) -> NSPredicate {
        HKFilterPredicate(filter: .workoutActivityType(workoutActivityType))
    }

    /// The workouts that have at least one activity matching `activityPredicate` — a `predicateForWorkoutActivities…`
    /// predicate, or an AND / OR / NOT of them, all of which one activity must satisfy.
    public class func predicateForWorkouts(activityPredicate: NSPredicate) -> NSPredicate {
        do {
            let inner = try SampleFilter(activityPredicate)
            _ = try inner.checkedActivityCondition()
            return HKFilterPredicate(filter: .workoutsWithActivity(inner))
        } catch let error as HKError {
            return HKFilterPredicate(filter: .invalid(error.message))
        } catch {
            return HKFilterPredicate(filter: .invalid("\(error)"))
        }
    }

    // MARK: Clinical records

    /// Clinical records whose FHIR resource is of `resourceType` — e.g. only `.medicationRequest` among the
    /// medication records.
    public class func predicateForClinicalRecords(withFHIRResourceType resourceType: HKFHIRResourceType) -> NSPredicate {
        HKFilterPredicate(filter: .fhirResourceType(resourceType.rawValue))
    }

    /// The clinical record of one FHIR resource: its source, resource type and FHIR id (an id is unique only for one
    /// resource type from one source).
    public class func predicateForClinicalRecords(from source: HKSource, fhirResourceType: HKFHIRResourceType,
                                                  identifier: String) -> NSPredicate {
        HKFilterPredicate(filter: .fhirResource(source: source.bundleIdentifier, type: fhirResourceType.rawValue, identifier: identifier))
    }

    /// Verifiable clinical records whose relevant date (the last immunization or result in them) lies in the interval.
    public class func predicateForVerifiableClinicalRecords(withRelevantDateWithin dateInterval: DateInterval) -> NSPredicate {
        HKFilterPredicate(filter: .relevantDate(start: dateInterval.start, end: dateInterval.end))
    }

    // MARK: Workout activities (wrap them with predicateForWorkouts(activityPredicate:))

    /// Workout activities of this activity type.
    public class func predicateForWorkoutActivities(workoutActivityType: HKWorkoutActivityType) -> NSPredicate {
        HKFilterPredicate(filter: .activity(.type(workoutActivityType)))
    }

    /// Workout activities whose dates fall in the interval, by the same rules as
    /// ``predicateForSamples(withStart:end:options:)``.
    public class func predicateForWorkoutActivities(start startDate: Date?, end endDate: Date?, options: HKQueryOptions = []) -> NSPredicate {
        HKFilterPredicate(filter: .activity(.dates(start: startDate, end: endDate, options: options)))
    }
}
