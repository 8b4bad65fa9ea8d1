package import Foundation

/// What an `HKQuery.predicateFor…` predicate means, as a value: the store compiles it to SQL, and
/// `matches(_:)` evaluates it on an object in memory (the two must agree; a test checks they do).
package indirect enum SampleFilter: Sendable, Hashable {
    /// Samples in a date range, by HealthKit's rules for `HKQueryOptions` (see `matches`).
    case dateRange(start: Date?, end: Date?, options: HKQueryOptions)
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
    case and([SampleFilter])
    case or([SampleFilter])
    case not(SampleFilter)
    /// A predicate built from bad arguments: running it is `HKError(.errorInvalidArgument)` with this message.
    case invalid(String)

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
                let quantity: HKQuantity? = switch statistic {
                case "sum": statistics.sumQuantity()
                case "minimum": statistics.minimumQuantity()
                case "maximum": statistics.maximumQuantity()
                default: statistics.averageQuantity()
                }
                if let quantity, op.compare(try quantity.unit.toBase(quantity.doubleValue), base) { return true }
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
        case .activitySummaryDays:
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
