package import Foundation

/// What an `HKQuery.predicateFor…` predicate means, as a value: the store compiles it to SQL, and
/// `matches(_:)` evaluates it on an object in memory (the two must agree; a test checks they do).
package indirect enum SampleFilter: Sendable, Hashable {
    /// Samples in a date range, by HealthKit's rules for `HKQueryOptions` (see `matches`).
    case dateRange(start: Date?, end: Date?, options: HKQueryOptions)
    /// A sample's start or end date compared with a date (`NSPredicate(format: "%K >= %@", HKPredicateKeyPathStartDate, …)`).
    case dateCompare(SampleDateField, ComparisonOperator, Date)
    /// Electrocardiograms with this classification or symptoms status (raw values).
    case electrocardiogramClassification(Int)
    case electrocardiogramSymptoms(Int)
    /// States of mind whose valence compares so to the value.
    case stateOfMindValence(ComparisonOperator, Double)
    /// States of mind of this kind, with this label among theirs, or with this association among theirs (raw values).
    case stateOfMindKind(Int)
    case stateOfMindLabel(Int)
    case stateOfMindAssociation(Int)
    /// Medication dose events with one of these log statuses (raw values of `HKMedicationDoseEvent.LogStatus`).
    case doseStatuses(Set<Int>)
    /// Medication dose events scheduled at exactly one of these moments.
    case doseScheduledDates(Set<Date>)
    /// Medication dose events scheduled from `start` (included) to `end` (excluded); a `nil` bound is open. Doses taken as
    /// needed have no scheduled date and never match.
    case doseScheduledRange(start: Date?, end: Date?)
    /// Medication dose events of one of these medications (their concepts' identifiers).
    case doseMedications(Set<String>)
    /// Medications the person archived (or not), or gave a schedule (or not). Not sample filters: they apply only to
    /// `HKUserAnnotatedMedicationQuery`, and a sample query given one is an error.
    case medicationArchived(Bool)
    case medicationHasSchedule(Bool)
    case uuids(Set<UUID>)
    /// Objects saved by any of these apps.
    case sources(Set<String>)
    case sourceRevisions(Set<HKSourceRevision>)
    case devices(Set<HKDevice>)
    /// Objects whose device has `property` (an `HKDevicePropertyKey…`) equal to one of `values`.
    case deviceProperty(String, Set<String>)
    case metadataKeyExists(String)
    case metadataValues(key: String, values: Set<HKMetadataValue>)
    case noCorrelation
    case workoutActivityType(HKWorkoutActivityType)
    /// Quantity samples of `types` (those whose unit is compatible with the compared quantity) whose value, in
    /// base units, compares so to `base`.
    case quantity(ComparisonOperator, base: Double, types: Set<String>)
    /// Category samples whose value compares so to `value`.
    case categoryValue(ComparisonOperator, Int)
    /// Workouts whose duration (seconds) compares so.
    case workoutDuration(ComparisonOperator, Double)
    /// Workouts whose own statistic (`sum`, `minimum`, `maximum`, `average`) of one of `types`, in base units,
    /// compares so to `base`.
    case workoutStatistic(ComparisonOperator, statistic: String, types: Set<String>, base: Double)
    /// Objects whose metadata value for `key` compares so to `value` (same kind: text, date or number).
    case metadataCompare(key: String, ComparisonOperator, HKMetadataValue)
    /// Correlations holding at least one member of `type` that matches `filter` (`HKCorrelationQuery`'s sample
    /// predicates).
    case correlationMember(type: String, filter: SampleFilter)
    /// Activity summaries from `first` to `last` (inclusive; `nil` is open). Not a sample filter: it applies only
    /// to activity summary queries, and a sample query given one is an error.
    case activitySummaryDays(first: ActivityDay?, last: ActivityDay?)
    /// Samples associated with the workout of this UUID (`HKHealthStore.add(_:to:)`). Only the store knows the
    /// associations: in memory (`evaluate(with:)`) it matches nothing.
    case workoutAssociation(UUID)
    /// Workout effort samples related to the workout of this UUID (`HKHealthStore.relateWorkoutEffortSample`): with an
    /// activity, those related to that activity of it; without, all those related to the workout. Only the store knows
    /// the relationships: in memory it matches nothing.
    case workoutEffort(workout: UUID, activity: UUID?)
    /// Verifiable clinical records whose relevant date lies in the interval (start and end included).
    case relevantDate(start: Date, end: Date)
    /// Clinical records whose FHIR resource is of this type.
    case fhirResourceType(String)
    /// The clinical record of one FHIR resource: source (bundle identifier), resource type and FHIR id.
    case fhirResource(source: String, type: String, identifier: String)
    /// A condition on one workout activity (`HKQuery.predicateForWorkoutActivities…`): meaningful only inside
    /// `.workoutsWithActivity`; a query given one unwrapped fails with `errorInvalidArgument`.
    case activity(ActivityCondition)
    /// Workouts with at least one activity satisfying `filter` (made of `.activity` conditions and compounds).
    case workoutsWithActivity(SampleFilter)
    case and([SampleFilter])
    case or([SampleFilter])
    case not(SampleFilter)
    /// A predicate built from bad arguments: running it is `HKError(.errorInvalidArgument)` with this message.
    case invalid(String)

    /// Whether the SQL of this filter has one of few shapes, its values all bound as arguments: date conditions and
    /// compounds of them (what most queries carry). The store keeps the prepared statements of such queries; others
    /// (lists of UUIDs, sources, values) would make a new shape for every count of values, so they are prepared anew.
    package var hasFewSQLShapes: Bool {
        switch self {
        case .dateRange, .dateCompare: true
        case .and(let parts), .or(let parts): parts.count <= 4 && parts.allSatisfy(\.hasFewSQLShapes)
        case .not(let part): part.hasFewSQLShapes
        default: false
        }
    }

    /// The `HKDevicePropertyKey…` constants, each with the `device` column and `HKDevice` property it names.
    package static let deviceProperties: [String: String] = [
        HKDevicePropertyKeyName: "name", HKDevicePropertyKeyManufacturer: "manufacturer", HKDevicePropertyKeyModel: "model",
        HKDevicePropertyKeyHardwareVersion: "hardwareVersion", HKDevicePropertyKeyFirmwareVersion: "firmwareVersion",
        HKDevicePropertyKeySoftwareVersion: "softwareVersion", HKDevicePropertyKeyLocalIdentifier: "localIdentifier",
        HKDevicePropertyKeyUDIDeviceIdentifier: "udiDeviceIdentifier",
    ]

    package static func deviceValue(_ property: String, of device: HKDevice) -> String? {
        switch deviceProperties[property] {
        case "name": device.name
        case "manufacturer": device.manufacturer
        case "model": device.model
        case "hardwareVersion": device.hardwareVersion
        case "firmwareVersion": device.firmwareVersion
        case "softwareVersion": device.softwareVersion
        case "localIdentifier": device.localIdentifier
        case "udiDeviceIdentifier": device.udiDeviceIdentifier
        default: nil
        }
    }

    /// Whether `object` satisfies the filter; `inCorrelation` says whether the store holds it as a member of a
    /// correlation. Throws for `.invalid`.
    package func matches(_ object: HKObject, inCorrelation: Bool = false) throws -> Bool {
        switch self {
        case .dateRange(let start, let end, let options):
            guard let sample = object as? HKSample else { return false }
            return Self.inRange(sampleStart: sample.startDate, sampleEnd: sample.endDate, start: start, end: end, options: options)
        case .electrocardiogramClassification(let raw):
            return (object as? HKElectrocardiogram)?.classification.rawValue == raw
        case .electrocardiogramSymptoms(let raw):
            return (object as? HKElectrocardiogram)?.symptomsStatus.rawValue == raw
        case .stateOfMindValence(let op, let valence):
            guard let state = object as? HKStateOfMind else { return false }
            return op.compare(state.valence, valence)
        case .stateOfMindKind(let raw):
            return (object as? HKStateOfMind)?.kind.rawValue == raw
        case .stateOfMindLabel(let raw):
            return (object as? HKStateOfMind)?.labels.contains { $0.rawValue == raw } ?? false
        case .stateOfMindAssociation(let raw):
            return (object as? HKStateOfMind)?.associations.contains { $0.rawValue == raw } ?? false
        case .doseStatuses(let raws):
            return (object as? HKMedicationDoseEvent).map { raws.contains($0.logStatus.rawValue) } ?? false
        case .doseScheduledDates(let dates):
            return (object as? HKMedicationDoseEvent)?.scheduledDate.map(dates.contains) ?? false
        case .doseScheduledRange(let start, let end):
            guard let scheduled = (object as? HKMedicationDoseEvent)?.scheduledDate else { return false }
            return (start.map { scheduled >= $0 } ?? true) && (end.map { scheduled < $0 } ?? true)
        case .doseMedications(let identifiers):
            return (object as? HKMedicationDoseEvent).map { identifiers.contains($0.medicationConceptIdentifier.underlyingIdentifier) } ?? false
        case .medicationArchived, .medicationHasSchedule:
            return false
        case .dateCompare(let field, let op, let date):
            guard let sample = object as? HKSample else { return false }
            return op.compare(field == .startDate ? sample.startDate : sample.endDate, date)
        case .uuids(let uuids):
            return uuids.contains(object.uuid)
        case .sources(let bundleIdentifiers):
            return bundleIdentifiers.contains(object.sourceRevision.source.bundleIdentifier)
        case .sourceRevisions(let revisions):
            return revisions.contains { Self.revision($0, admits: object.sourceRevision) }
        case .devices(let devices):
            return object.device.map(devices.contains) ?? false
        case .deviceProperty(let property, let values):
            guard Self.deviceProperties[property] != nil else { throw Self.unknownDeviceProperty(property) }
            return object.device.flatMap { Self.deviceValue(property, of: $0) }.map(values.contains) ?? false
        case .metadataKeyExists(let key):
            return object.metadataValues?[key] != nil
        case .metadataValues(let key, let values):
            guard let value = object.metadataValues?[key] else { return false }
            return try values.contains { try Self.metadata(value, equals: $0) }
        case .noCorrelation:
            return !inCorrelation
        case .workoutActivityType(let type):
            return (object as? HKWorkout)?.workoutActivityType == type
        case .quantity(let op, let base, let types):
            guard let sample = object as? HKQuantitySample, types.contains(sample.sampleType.identifier) else { return false }
            return op.compare(try sample.quantity.unit.toBase(sample.quantity.doubleValue), base)
        case .categoryValue(let op, let value):
            guard let sample = object as? HKCategorySample else { return false }
            return op.compare(sample.value, value)
        case .workoutDuration(let op, let seconds):
            guard let workout = object as? HKWorkout else { return false }
            return op.compare(workout.duration, seconds)
        case .workoutStatistic(let op, let statistic, let types, let base):
            guard let workout = object as? HKWorkout else { return false }
            for (type, statistics) in workout.allStatistics where types.contains(type.identifier) {
                if let quantity = Self.statistic(statistic, of: statistics), op.compare(try quantity.unit.toBase(quantity.doubleValue), base) { return true }
            }
            return false
        case .metadataCompare(let key, let op, let wanted):
            guard let value = object.metadataValues?[key] else { return false }
            switch (value, wanted) {
            case (.string(let a), .string(let b)): return op.compare(a, b)
            case (.date(let a), .date(let b)): return op.compare(a, b)
            case (_, .quantity), (.quantity, _):
                throw HKError.invalidArgument("metadata predicates on quantity values are not supported yet")
            default:
                guard let a = value.numericValue, let b = wanted.numericValue else { return false }
                return op.compare(a, b)
            }
        case .correlationMember(let type, let filter):
            guard let correlation = object as? HKCorrelation else { return false }
            for member in correlation.objects where member.sampleType.identifier == type {
                if try filter.matches(member, inCorrelation: true) { return true }
            }
            return false
        case .activitySummaryDays, .workoutAssociation, .workoutEffort:
            return false
        case .relevantDate(let start, let end):
            guard let record = object as? HKVerifiableClinicalRecord else { return false }
            return record.relevantDate >= start && record.relevantDate <= end
        case .fhirResourceType(let type):
            return (object as? HKClinicalRecord)?.fhirResource?.resourceType.rawValue == type
        case .fhirResource(let source, let type, let identifier):
            guard let resource = (object as? HKClinicalRecord)?.fhirResource else { return false }
            return object.sourceRevision.source.bundleIdentifier == source && resource.resourceType.rawValue == type
                && resource.identifier == identifier
        case .activity:
            throw Self.unwrappedActivityCondition
        case .workoutsWithActivity(let filter):
            guard let workout = object as? HKWorkout else { return false }
            for activity in workout.workoutActivities where try filter.matches(activity: activity) { return true }
            return false
        case .and(let filters):
            for filter in filters where try !filter.matches(object, inCorrelation: inCorrelation) { return false }
            return true
        case .or(let filters):
            for filter in filters where try filter.matches(object, inCorrelation: inCorrelation) { return true }
            return false
        case .not(let filter):
            return try !filter.matches(object, inCorrelation: inCorrelation)
        case .invalid(let message):
            throw HKError.invalidArgument(message)
        }
    }

    /// Whether one workout activity satisfies the filter (activity conditions and their compounds only).
    package func matches(activity: HKWorkoutActivity) throws -> Bool {
        switch self {
        case .activity(let condition):
            switch condition {
            case .type(let type): return activity.workoutConfiguration.activityType == type
            case .duration(let op, let seconds): return op.compare(activity.duration, seconds)
            case .dates(let start, let end, let options):
                return Self.inRange(sampleStart: activity.startDate, sampleEnd: activity.endDate ?? activity.startDate,
                                    start: start, end: end, options: options)
            case .statistic(let op, let statistic, let types, let base):
                for (type, statistics) in activity.allStatistics where types.contains(type.identifier) {
                    if let quantity = Self.statistic(statistic, of: statistics), op.compare(try quantity.unit.toBase(quantity.doubleValue), base) {
                        return true
                    }
                }
                return false
            }
        case .and(let filters):
            for filter in filters where try !filter.matches(activity: activity) { return false }
            return true
        case .or(let filters):
            for filter in filters where try filter.matches(activity: activity) { return true }
            return false
        case .not(let filter):
            return try !filter.matches(activity: activity)
        case .invalid(let message):
            throw HKError.invalidArgument(message)
        default:
            throw Self.notAnActivityCondition
        }
    }

    /// Checks that the filter is made only of activity conditions and compounds (for
    /// `predicateForWorkouts(activityPredicate:)`); returns it.
    package func checkedActivityCondition() throws -> SampleFilter {
        switch self {
        case .activity, .invalid: return self
        case .and(let filters), .or(let filters): for filter in filters { _ = try filter.checkedActivityCondition() }
        case .not(let filter): _ = try filter.checkedActivityCondition()
        default: throw Self.notAnActivityCondition
        }
        return self
    }

    package static let unwrappedActivityCondition = HKError.invalidArgument(
        "a workout activity predicate (predicateForWorkoutActivities…) selects workouts only when wrapped: "
            + "use HKQuery.predicateForWorkouts(activityPredicate:)")
    package static let notAnActivityCondition = HKError.invalidArgument(
        "predicateForWorkouts(activityPredicate:) takes only predicateForWorkoutActivities… predicates and their compounds")

    /// The named statistic (`sum`, `minimum`, `maximum`, `average`) of a workout or activity total.
    package static func statistic(_ name: String, of statistics: HKStatistics) -> HKQuantity? {
        switch name {
        case "sum": statistics.sumQuantity()
        case "minimum": statistics.minimumQuantity()
        case "maximum": statistics.maximumQuantity()
        default: statistics.averageQuantity()
        }
    }

    /// Whether a medication the person tracks satisfies the filter: the archived and schedule conditions and their
    /// compounds; any other condition is `HKError(.errorInvalidArgument)`, as the store's query answers.
    package func matches(medication: HKUserAnnotatedMedication) throws -> Bool {
        switch self {
        case .medicationArchived(let archived): return medication.isArchived == archived
        case .medicationHasSchedule(let scheduled): return medication.hasSchedule == scheduled
        case .and(let filters):
            for filter in filters where try !filter.matches(medication: medication) { return false }
            return true
        case .or(let filters):
            for filter in filters where try filter.matches(medication: medication) { return true }
            return false
        case .not(let filter): return try !filter.matches(medication: medication)
        case .invalid(let message): throw HKError.invalidArgument(message)
        default: throw Self.notAMedicationCondition
        }
    }

    package static let notAMedicationCondition = HKError.invalidArgument(
        "an HKUserAnnotatedMedicationQuery takes only predicateForUserAnnotatedMedications(isArchived:) and (hasSchedule:) and their compounds")

    /// Whether an activity summary of `day` satisfies the filter. Sample conditions never hold for a summary.
    package func matches(summaryOf day: ActivityDay) throws -> Bool {
        switch self {
        case .activitySummaryDays(let first, let last):
            return (first.map { $0 <= day } ?? true) && (last.map { day <= $0 } ?? true)
        case .and(let filters):
            for filter in filters where try !filter.matches(summaryOf: day) { return false }
            return true
        case .or(let filters):
            for filter in filters where try filter.matches(summaryOf: day) { return true }
            return false
        case .not(let filter):
            return try !filter.matches(summaryOf: day)
        case .invalid(let message):
            throw HKError.invalidArgument(message)
        default:
            return false
        }
    }

    /// `HKQueryOptions` semantics. Without options a sample matches when it overlaps the range:
    /// it ends at or after `start` and starts before `end`. `.strictStartDate`: it starts in `[start, end)`.
    /// `.strictEndDate`: it ends in `(start, end]`. Both: both. A `nil` bound is open.
    package static func inRange(sampleStart: Date, sampleEnd: Date, start: Date?, end: Date?, options: HKQueryOptions) -> Bool {
        if options.isEmpty {
            return (start.map { sampleEnd >= $0 } ?? true) && (end.map { sampleStart < $0 } ?? true)
        }
        if options.contains(.strictStartDate) {
            guard start.map({ sampleStart >= $0 }) ?? true, end.map({ sampleStart < $0 }) ?? true else { return false }
        }
        if options.contains(.strictEndDate) {
            guard start.map({ sampleEnd > $0 }) ?? true, end.map({ sampleEnd <= $0 }) ?? true else { return false }
        }
        return true
    }

    /// A revision in a predicate matches a saved one when the source is the same and each of version, product type
    /// and OS version is equal or the "any" value (`HKSourceRevisionAnyVersion`…).
    package static func revision(_ wanted: HKSourceRevision, admits saved: HKSourceRevision) -> Bool {
        guard wanted.source.bundleIdentifier == saved.source.bundleIdentifier else { return false }
        if wanted.version != HKSourceRevisionAnyVersion, wanted.version != saved.version { return false }
        if wanted.productType != HKSourceRevisionAnyProductType, wanted.productType != saved.productType { return false }
        let any = HKSourceRevisionAnyOperatingSystem, os = wanted.operatingSystemVersion
        if !(os.majorVersion == any.majorVersion && os.minorVersion == any.minorVersion && os.patchVersion == any.patchVersion),
           !(os.majorVersion == saved.operatingSystemVersion.majorVersion && os.minorVersion == saved.operatingSystemVersion.minorVersion
             && os.patchVersion == saved.operatingSystemVersion.patchVersion) {
            return false
        }
        return true
    }

    /// Metadata equality as a predicate sees it: numbers compare by value across integer, double and Boolean;
    /// strings and dates by value. Quantities are not supported yet.
    package static func metadata(_ value: HKMetadataValue, equals wanted: HKMetadataValue) throws -> Bool {
        switch (value, wanted) {
        case (.string(let a), .string(let b)): return a == b
        case (.date(let a), .date(let b)): return a == b
        case (_, .quantity), (.quantity, _):
            throw HKError.invalidArgument("metadata predicates on quantity values are not supported yet")
        default:
            guard let a = value.numericValue, let b = wanted.numericValue else { return false }
            return a == b
        }
    }

    package static func unknownDeviceProperty(_ property: String) -> HKError {
        HKError.invalidArgument("\"\(property)\" is not a device property; use one of the HKDevicePropertyKey… constants")
    }
}

extension HKMetadataValue {
    /// The value as a number, for integers, doubles and Booleans.
    package var numericValue: Double? {
        switch self {
        case .integer(let v): Double(v)
        case .double(let v): v
        case .bool(let v): v ? 1 : 0
        default: nil
        }
    }
}

/// One condition on a workout activity, as `HKQuery.predicateForWorkoutActivities…` state it.
package enum ActivityCondition: Sendable, Hashable {
    case type(HKWorkoutActivityType)
    /// Duration in seconds (0 for an activity that has not ended).
    case duration(ComparisonOperator, Double)
    /// The activity's dates in a range, by the rules of `HKQueryOptions` for samples.
    case dates(start: Date?, end: Date?, options: HKQueryOptions)
    /// The activity's own statistic (`sum`, `minimum`, `maximum`, `average`) of one of `types`, in base units.
    case statistic(ComparisonOperator, statistic: String, types: Set<String>, base: Double)
}

/// Which of a sample's dates a `SampleFilter.dateCompare` reads.
package enum SampleDateField: String, Sendable, Hashable {
    case startDate, endDate
}
