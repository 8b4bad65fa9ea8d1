package import GRDB
package import HealthModel

extension SampleFilter {
    /// The filter as an SQL condition on the `sample` table (referred to as `sample`), built only from indexed
    /// columns and correlated subqueries, never evaluated row by row in Swift. Every condition is 0 or 1, never
    /// NULL, so NOT means what it says. `.invalid` and unsupported values throw `HKError(.errorInvalidArgument)`.
    ///
    /// `type` names the sample type the query reads, when it reads one: a date range on end dates then also bounds
    /// start dates by the type's longest sample (`typeSpan`), so the (type, startDate) index serves it as a narrow
    /// range instead of a scan to the end of the table.
    package func sql(type: String? = nil) throws -> SQL {
        switch self {
        case .dateRange(let start, let end, let options):
            let from = start?.timeIntervalSinceReferenceDate, to = end?.timeIntervalSinceReferenceDate
            var parts: [SQL] = []
            if let type, let from, !options.contains(.strictStartDate) {
                parts.append("sample.startDate >= \(from) - IFNULL((SELECT maxDuration FROM typeSpan WHERE type = \(type)), 0)")
            }
            if type != nil, let to, options == .strictEndDate {
                parts.append("sample.startDate <= \(to)")  // implied by endDate <= to; it bounds the index range
            }
            // With a start bound, a unary + keeps SQLite from choosing the (type, endDate) index for the end-date
            // term: that range runs to the end of the table, while the start range is narrow.
            let end: SQL = type == nil ? "sample.endDate" : "+sample.endDate"
            if options.isEmpty {
                if let from { parts.append("\(end) >= \(from)") }
                if let to { parts.append("sample.startDate < \(to)") }
            }
            if options.contains(.strictStartDate) {
                if let from { parts.append("sample.startDate >= \(from)") }
                if let to { parts.append("sample.startDate < \(to)") }
            }
            if options.contains(.strictEndDate) {
                if let from { parts.append("\(end) > \(from)") }
                if let to { parts.append("\(end) <= \(to)") }
            }
            return Self.all(parts)
        case .electrocardiogramClassification(let raw):
            return "sample.id IN (SELECT sampleId FROM electrocardiogram WHERE classification = \(raw))"
        case .electrocardiogramSymptoms(let raw):
            return "sample.id IN (SELECT sampleId FROM electrocardiogram WHERE symptomsStatus = \(raw))"
        case .stateOfMindValence(let op, let valence):
            return "(sample.kind = \(SampleKind.stateOfMind.rawValue) AND sample.value \(sql: op.rawValue) \(valence))"
        case .stateOfMindKind(let raw):
            return "sample.id IN (SELECT sampleId FROM stateOfMind WHERE kind = \(raw))"
        case .stateOfMindLabel(let raw):
            // Raw values between commas: "3" matches "3" and "17,3" but not "13".
            return "sample.id IN (SELECT sampleId FROM stateOfMind WHERE ',' || labels || ',' LIKE \("%,\(raw),%"))"
        case .stateOfMindAssociation(let raw):
            return "sample.id IN (SELECT sampleId FROM stateOfMind WHERE ',' || associations || ',' LIKE \("%,\(raw),%"))"
        case .dateCompare(let field, let op, let date):
            return "sample.\(sql: field.rawValue) \(sql: op.rawValue) \(date.timeIntervalSinceReferenceDate)"
        case .uuids(let uuids):
            return "sample.uuid IN \(uuids.map(\.uuidString))"
        case .sources(let bundleIdentifiers):
            return "sample.sourceId IN (SELECT id FROM source WHERE bundleIdentifier IN \(Array(bundleIdentifiers)))"
        case .sourceRevisions(let revisions):
            return Self.any(revisions.map { revision in
                var parts: [SQL] = ["sample.sourceId IN (SELECT id FROM source WHERE bundleIdentifier = \(revision.source.bundleIdentifier))"]
                if revision.version != HKSourceRevisionAnyVersion { parts.append("sample.sourceVersion IS \(revision.version)") }
                if revision.productType != HKSourceRevisionAnyProductType { parts.append("sample.productType IS \(revision.productType)") }
                let os = revision.operatingSystemVersion, any = HKSourceRevisionAnyOperatingSystem
                if (os.majorVersion, os.minorVersion, os.patchVersion) != (any.majorVersion, any.minorVersion, any.patchVersion) {
                    parts.append("sample.osVersion IS \(SampleStore.format(os))")
                }
                return Self.all(parts)
            })
        case .devices(let devices):
            let fingerprints = devices.map { DeviceRecord($0).fingerprint }
            return "IFNULL(sample.deviceId IN (SELECT id FROM device WHERE fingerprint IN \(fingerprints)), 0)"
        case .deviceProperty(let property, let values):
            guard let column = Self.deviceProperties[property] else { throw Self.unknownDeviceProperty(property) }
            return "IFNULL(sample.deviceId IN (SELECT id FROM device WHERE \(sql: column) IN \(Array(values))), 0)"
        case .metadataKeyExists(let key):
            return "EXISTS (SELECT 1 FROM metadata WHERE metadata.sampleId = sample.id AND metadata.key = \(key))"
        case .metadataValues(let key, let values):
            let matches = try values.map { value -> SQL in
                switch value {
                case .string(let text): return "(metadata.kind = 0 AND metadata.text = \(text))"
                case .date(let date): return "(metadata.kind = 1 AND metadata.number = \(date.timeIntervalSinceReferenceDate))"
                case .quantity: throw HKError.invalidArgument("metadata predicates on quantity values are not supported yet")
                case .integer, .double, .bool:
                    let number = value.numericValue!
                    return "((metadata.kind IN (2, 4) AND metadata.integer = \(number)) OR (metadata.kind = 3 AND metadata.number = \(number)))"
                }
            }
            return "EXISTS (SELECT 1 FROM metadata WHERE metadata.sampleId = sample.id AND metadata.key = \(key) AND \(Self.any(matches)))"
        case .noCorrelation:
            return "sample.correlationId IS NULL"
        case .workoutActivityType(let type):
            return "sample.id IN (SELECT sampleId FROM workout WHERE activityType = \(type.rawValue))"
        case .quantity(let op, let base, let types):
            return "(sample.kind = 0 AND sample.typeCode IN \(types.map(SampleTypeCode.code)) AND sample.value \(sql: op.rawValue) \(base))"
        case .categoryValue(let op, let value):
            return "(sample.kind = 1 AND sample.value \(sql: op.rawValue) \(value))"
        case .workoutDuration(let op, let seconds):
            return "sample.id IN (SELECT sampleId FROM workout WHERE duration \(sql: op.rawValue) \(seconds))"
        case .workoutStatistic(let op, let statistic, let types, let base):
            let column = ["sum": "sumBase", "minimum": "minimumBase", "maximum": "maximumBase", "average": "averageBase"][statistic] ?? "sumBase"
            return """
                sample.id IN (SELECT workoutId FROM workoutStatistic
                              WHERE activityId IS NULL AND quantityType IN \(Array(types)) AND \(sql: column) \(sql: op.rawValue) \(base))
                """
        case .metadataCompare(let key, let op, let value):
            let match: SQL
            switch value {
            case .string(let text): match = "(metadata.kind = 0 AND metadata.text \(sql: op.rawValue) \(text))"
            case .date(let date): match = "(metadata.kind = 1 AND metadata.number \(sql: op.rawValue) \(date.timeIntervalSinceReferenceDate))"
            case .quantity: throw HKError.invalidArgument("metadata predicates on quantity values are not supported yet")
            case .integer, .double, .bool:
                let number = value.numericValue!
                match = """
                    ((metadata.kind IN (2, 4) AND metadata.integer \(sql: op.rawValue) \(number))
                     OR (metadata.kind = 3 AND metadata.number \(sql: op.rawValue) \(number)))
                    """
            }
            return "EXISTS (SELECT 1 FROM metadata WHERE metadata.sampleId = sample.id AND metadata.key = \(key) AND \(match))"
        case .correlationMember(let type, let filter):
            // The inner `sample` (the member) shadows the outer one inside the subquery, so `filter` applies to it.
            return """
                sample.id IN (SELECT sample.correlationId FROM sample
                              WHERE sample.correlationId IS NOT NULL AND sample.typeCode = \(SampleTypeCode.code(type)) AND \(try filter.sql(type: type)))
                """
        case .workoutAssociation(let workout):
            return """
                sample.id IN (SELECT sampleId FROM workoutAssociation
                              WHERE workoutId = (SELECT id FROM sample WHERE uuid = \(workout.uuidString)))
                """
        case .workoutEffort(let workout, let activity):
            let activityCondition: SQL = activity.map { "activityId = (SELECT id FROM workoutActivity WHERE uuid = \($0.uuidString))" } ?? "1"
            return """
                sample.id IN (SELECT sampleId FROM workoutEffort
                              WHERE workoutId = (SELECT id FROM sample WHERE uuid = \(workout.uuidString)) AND \(activityCondition))
                """
        case .relevantDate:
            throw HKError.invalidArgument("predicateForVerifiableClinicalRecords(withRelevantDateWithin:) selects only verifiable clinical records")
        case .fhirResourceType(let type):
            return "sample.id IN (SELECT sampleId FROM clinicalRecord WHERE resourceType = \(type))"
        case .fhirResource(let source, let type, let identifier):
            return """
                sample.id IN (SELECT sampleId FROM clinicalRecord WHERE resourceType = \(type) AND identifier = \(identifier)
                              AND sourceId IN (SELECT id FROM source WHERE bundleIdentifier = \(source)))
                """
        case .activity:
            throw Self.unwrappedActivityCondition
        case .workoutsWithActivity(let filter):
            return "sample.id IN (SELECT workoutId FROM workoutActivity WHERE \(try filter.activitySQL()))"
        case .doseStatuses(let raws):
            return "sample.id IN (SELECT sampleId FROM medicationDoseEvent WHERE logStatus IN \(raws.sorted()))"
        case .doseScheduledDates(let dates):
            return "sample.id IN (SELECT sampleId FROM medicationDoseEvent WHERE scheduledDate IN \(dates.map(\.timeIntervalSinceReferenceDate).sorted()))"
        case .doseScheduledRange(let start, let end):
            var parts: [SQL] = ["scheduledDate IS NOT NULL"]
            if let start { parts.append("scheduledDate >= \(start.timeIntervalSinceReferenceDate)") }
            if let end { parts.append("scheduledDate < \(end.timeIntervalSinceReferenceDate)") }
            return "sample.id IN (SELECT sampleId FROM medicationDoseEvent WHERE \(Self.all(parts)))"
        case .doseMedications(let identifiers):
            return "sample.id IN (SELECT sampleId FROM medicationDoseEvent WHERE conceptId IN \(identifiers.sorted()))"
        case .medicationArchived, .medicationHasSchedule:
            throw HKError.invalidArgument(
                "a medication predicate (predicateForUserAnnotatedMedications) selects medications for HKUserAnnotatedMedicationQuery, not samples")
        case .activitySummaryDays:
            throw HKError.invalidArgument(
                "an activity summary predicate (predicateForActivitySummary, predicate(forActivitySummariesBetweenStart:end:)) cannot select samples")
        case .and(let filters):
            return Self.all(try filters.map { try $0.sql(type: type) })
        case .or(let filters):
            return Self.any(try filters.map { try $0.sql(type: type) })
        case .not(let filter):
            return "NOT (\(try filter.sql(type: type)))"
        case .invalid(let message):
            throw HKError.invalidArgument(message)
        }
    }

    /// The filter as an SQL condition on the `workoutActivity` table: activity conditions and their compounds.
    func activitySQL() throws -> SQL {
        switch self {
        case .activity(let condition):
            let end: SQL = "IFNULL(workoutActivity.endDate, workoutActivity.startDate)"
            switch condition {
            case .type(let type):
                return "workoutActivity.activityType = \(type.rawValue)"
            case .duration(let op, let seconds):
                return "(\(end) - workoutActivity.startDate) \(sql: op.rawValue) \(seconds)"
            case .dates(let start, let endDate, let options):
                let from = start?.timeIntervalSinceReferenceDate, to = endDate?.timeIntervalSinceReferenceDate
                var parts: [SQL] = []
                if options.isEmpty {
                    if let from { parts.append("\(end) >= \(from)") }
                    if let to { parts.append("workoutActivity.startDate < \(to)") }
                }
                if options.contains(.strictStartDate) {
                    if let from { parts.append("workoutActivity.startDate >= \(from)") }
                    if let to { parts.append("workoutActivity.startDate < \(to)") }
                }
                if options.contains(.strictEndDate) {
                    if let from { parts.append("\(end) > \(from)") }
                    if let to { parts.append("\(end) <= \(to)") }
                }
                return Self.all(parts)
            case .statistic(let op, let statistic, let types, let base):
                let column = ["sum": "sumBase", "minimum": "minimumBase", "maximum": "maximumBase", "average": "averageBase"][statistic] ?? "sumBase"
                return """
                    workoutActivity.id IN (SELECT activityId FROM workoutStatistic
                                           WHERE activityId IS NOT NULL AND quantityType IN \(Array(types)) AND \(sql: column) \(sql: op.rawValue) \(base))
                    """
            }
        case .and(let filters): return Self.all(try filters.map { try $0.activitySQL() })
        case .or(let filters): return Self.any(try filters.map { try $0.activitySQL() })
        case .not(let filter): return "NOT (\(try filter.activitySQL()))"
        case .invalid(let message): throw HKError.invalidArgument(message)
        default: throw Self.notAnActivityCondition
        }
    }

    /// The filter as an SQL condition on the `verifiableRecord` table: relevant-date ranges and their compounds.
    package func verifiableRecordSQL() throws -> SQL {
        switch self {
        case .relevantDate(let start, let end):
            return "(relevantDate >= \(start.timeIntervalSinceReferenceDate) AND relevantDate <= \(end.timeIntervalSinceReferenceDate))"
        case .and(let filters): return Self.all(try filters.map { try $0.verifiableRecordSQL() })
        case .or(let filters): return Self.any(try filters.map { try $0.verifiableRecordSQL() })
        case .not(let filter): return "NOT (\(try filter.verifiableRecordSQL()))"
        case .invalid(let message): throw HKError.invalidArgument(message)
        default:
            throw HKError.invalidArgument(
                "a verifiable clinical record query takes only predicateForVerifiableClinicalRecords(withRelevantDateWithin:) and its compounds")
        }
    }

    /// The filter as an SQL condition on the `medication` table: the archived and schedule conditions and their compounds.
    package func medicationSQL() throws -> SQL {
        switch self {
        case .medicationArchived(let archived): return "medication.isArchived = \(archived)"
        case .medicationHasSchedule(let scheduled): return "medication.hasSchedule = \(scheduled)"
        case .and(let filters): return Self.all(try filters.map { try $0.medicationSQL() })
        case .or(let filters): return Self.any(try filters.map { try $0.medicationSQL() })
        case .not(let filter): return "NOT (\(try filter.medicationSQL()))"
        case .invalid(let message): throw HKError.invalidArgument(message)
        default: throw Self.notAMedicationCondition
        }
    }

    /// The filter as an SQL condition on the `activitySummary` table: day ranges and their AND / OR / NOT. Any sample
    /// condition in it is `HKError(.errorInvalidArgument)`.
    package func activitySummarySQL() throws -> SQL {
        switch self {
        case .activitySummaryDays(let first, let last):
            var parts: [SQL] = []
            if let first { parts.append("activitySummary.day >= \(first.text)") }
            if let last { parts.append("activitySummary.day <= \(last.text)") }
            return Self.all(parts)
        case .and(let filters): return Self.all(try filters.map { try $0.activitySummarySQL() })
        case .or(let filters): return Self.any(try filters.map { try $0.activitySummarySQL() })
        case .not(let filter): return "NOT (\(try filter.activitySummarySQL()))"
        case .invalid(let message): throw HKError.invalidArgument(message)
        default:
            throw HKError.invalidArgument(
                "an activity summary query takes only activity summary predicates (predicateForActivitySummary, "
                    + "predicate(forActivitySummariesBetweenStart:end:)) and their compounds, not sample predicates")
        }
    }

    /// `filter`'s condition, or "true" without one. (Not `filter?.sql() ?? "1"`: GRDB's `??` on SQL builds
    /// `IFNULL(…, ?)`, which hides the condition from SQLite's index planner.)
    package static func condition(_ filter: SampleFilter?, type: String? = nil) throws -> SQL {
        guard let filter else { return "1" }
        return try filter.sql(type: type)
    }

    private static func all(_ parts: [SQL]) -> SQL {
        parts.isEmpty ? "1" : "((" + parts.joined(separator: ") AND (") + "))"
    }

    private static func any(_ parts: [SQL]) -> SQL {
        parts.isEmpty ? "0" : "((" + parts.joined(separator: ") OR (") + "))"
    }
}
