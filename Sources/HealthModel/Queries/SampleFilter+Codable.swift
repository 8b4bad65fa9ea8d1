import Foundation

// A filter as JSON, so a predicate compiled in an app runs in the daemon exactly as it would locally.
//
// Each filter is an object whose `"kind"` is the Swift case name, with the case's values as named fields:
//
//     {"kind":"and","filters":[
//       {"kind":"dateRange","start":725846400,"end":725932800,"options":1},
//       {"kind":"not","filter":{"kind":"metadataValues","key":"HKWasUserEntered","values":[{"bool":true}]}}]}
//
// Dates are `timeIntervalSinceReferenceDate` numbers (whatever the coder's date strategy), comparison operators their
// symbols (`"<"`), activity types their raw values, days `yyyy-MM-dd`, metadata values one-key objects (`{"string":"x"}`,
// `{"integer":3}`, `{"double":1.5}`, `{"bool":true}`, `{"date":…}`, `{"quantity":{"value":1,"unit":"count/min"}}`), an
// absent value `null` (the key is still written), sets arrays in a fixed order: with `.sortedKeys` the same filter is
// always the same bytes. Decoding is strict, as it reads untrusted input: an unknown kind, operator or activity type, a
// missing field, a bad day or unit, or compounds nested deeper than ``SampleFilter/maximumCodingDepth`` are a
// `DecodingError`.

extension SampleFilter: Codable {
    /// How deep `and`, `or`, `not`, `correlationMember` and `workoutsWithActivity` may nest in decoded JSON.
    package static let maximumCodingDepth = 64

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: FilterKey.self)
        switch self {
        case .dateRange(let start, let end, let options):
            try c.encode("dateRange", forKey: .kind)
            try c.encode(start?.timeIntervalSinceReferenceDate, forKey: .start)
            try c.encode(end?.timeIntervalSinceReferenceDate, forKey: .end)
            try c.encode(options.rawValue, forKey: .options)
        case .dateCompare(let field, let op, let date):
            try c.encode("dateCompare", forKey: .kind)
            try c.encode(field.rawValue, forKey: .field)
            try c.encode(op.rawValue, forKey: .operator)
            try c.encode(date.timeIntervalSinceReferenceDate, forKey: .date)
        case .electrocardiogramClassification(let raw):
            try c.encode("electrocardiogramClassification", forKey: .kind)
            try c.encode(raw, forKey: .value)
        case .electrocardiogramSymptoms(let raw):
            try c.encode("electrocardiogramSymptoms", forKey: .kind)
            try c.encode(raw, forKey: .value)
        case .stateOfMindValence(let op, let valence):
            try c.encode("stateOfMindValence", forKey: .kind)
            try c.encode(op.rawValue, forKey: .operator)
            try c.encode(valence, forKey: .value)
        case .stateOfMindKind(let raw):
            try c.encode("stateOfMindKind", forKey: .kind)
            try c.encode(raw, forKey: .value)
        case .stateOfMindLabel(let raw):
            try c.encode("stateOfMindLabel", forKey: .kind)
            try c.encode(raw, forKey: .value)
        case .stateOfMindAssociation(let raw):
            try c.encode("stateOfMindAssociation", forKey: .kind)
            try c.encode(raw, forKey: .value)
        case .doseStatuses(let raws):
            try c.encode("doseStatuses", forKey: .kind)
            try c.encode(raws.sorted(), forKey: .values)
        case .doseScheduledDates(let dates):
            try c.encode("doseScheduledDates", forKey: .kind)
            try c.encode(dates.map(\.timeIntervalSinceReferenceDate).sorted(), forKey: .values)
        case .doseScheduledRange(let start, let end):
            try c.encode("doseScheduledRange", forKey: .kind)
            try c.encode(start?.timeIntervalSinceReferenceDate, forKey: .start)
            try c.encode(end?.timeIntervalSinceReferenceDate, forKey: .end)
        case .doseMedications(let identifiers):
            try c.encode("doseMedications", forKey: .kind)
            try c.encode(identifiers.sorted(), forKey: .values)
        case .medicationArchived(let archived):
            try c.encode("medicationArchived", forKey: .kind)
            try c.encode(archived, forKey: .value)
        case .medicationHasSchedule(let scheduled):
            try c.encode("medicationHasSchedule", forKey: .kind)
            try c.encode(scheduled, forKey: .value)
        case .uuids(let uuids):
            try c.encode("uuids", forKey: .kind)
            try c.encode(uuids.map(\.uuidString).sorted(), forKey: .uuids)
        case .sources(let bundleIdentifiers):
            try c.encode("sources", forKey: .kind)
            try c.encode(bundleIdentifiers.sorted(), forKey: .bundleIdentifiers)
        case .sourceRevisions(let revisions):
            try c.encode("sourceRevisions", forKey: .kind)
            try c.encode(sorted(revisions.map(CodedRevision.init)), forKey: .revisions)
        case .devices(let devices):
            try c.encode("devices", forKey: .kind)
            try c.encode(sorted(devices.map(CodedDevice.init)), forKey: .devices)
        case .deviceProperty(let property, let values):
            try c.encode("deviceProperty", forKey: .kind)
            try c.encode(property, forKey: .property)
            try c.encode(values.sorted(), forKey: .values)
        case .metadataKeyExists(let key):
            try c.encode("metadataKeyExists", forKey: .kind)
            try c.encode(key, forKey: .key)
        case .metadataValues(let key, let values):
            try c.encode("metadataValues", forKey: .kind)
            try c.encode(key, forKey: .key)
            try c.encode(sorted(values.map(CodedMetadataValue.init)), forKey: .values)
        case .noCorrelation:
            try c.encode("noCorrelation", forKey: .kind)
        case .workoutActivityType(let type):
            try c.encode("workoutActivityType", forKey: .kind)
            try c.encode(type.rawValue, forKey: .activityType)
        case .quantity(let op, let base, let types):
            try c.encode("quantity", forKey: .kind)
            try c.encode(op.rawValue, forKey: .operator)
            try c.encode(base, forKey: .base)
            try c.encode(types.sorted(), forKey: .types)
        case .categoryValue(let op, let value):
            try c.encode("categoryValue", forKey: .kind)
            try c.encode(op.rawValue, forKey: .operator)
            try c.encode(value, forKey: .value)
        case .workoutDuration(let op, let seconds):
            try c.encode("workoutDuration", forKey: .kind)
            try c.encode(op.rawValue, forKey: .operator)
            try c.encode(seconds, forKey: .seconds)
        case .workoutStatistic(let op, let statistic, let types, let base):
            try c.encode("workoutStatistic", forKey: .kind)
            try c.encode(op.rawValue, forKey: .operator)
            try c.encode(statistic, forKey: .statistic)
            try c.encode(types.sorted(), forKey: .types)
            try c.encode(base, forKey: .base)
        case .metadataCompare(let key, let op, let value):
            try c.encode("metadataCompare", forKey: .kind)
            try c.encode(key, forKey: .key)
            try c.encode(op.rawValue, forKey: .operator)
            try c.encode(CodedMetadataValue(value), forKey: .value)
        case .correlationMember(let type, let filter):
            try c.encode("correlationMember", forKey: .kind)
            try c.encode(type, forKey: .type)
            try c.encode(filter, forKey: .filter)
        case .activitySummaryDays(let first, let last):
            try c.encode("activitySummaryDays", forKey: .kind)
            try c.encode(first?.text, forKey: .first)
            try c.encode(last?.text, forKey: .last)
        case .workoutAssociation(let workout):
            try c.encode("workoutAssociation", forKey: .kind)
            try c.encode(workout.uuidString, forKey: .workout)
        case .workoutEffort(let workout, let activity):
            try c.encode("workoutEffort", forKey: .kind)
            try c.encode(workout.uuidString, forKey: .workout)
            try c.encodeIfPresent(activity?.uuidString, forKey: .activity)
        case .relevantDate(let start, let end):
            try c.encode("relevantDate", forKey: .kind)
            try c.encode(start.timeIntervalSinceReferenceDate, forKey: .start)
            try c.encode(end.timeIntervalSinceReferenceDate, forKey: .end)
        case .fhirResourceType(let type):
            try c.encode("fhirResourceType", forKey: .kind)
            try c.encode(type, forKey: .type)
        case .fhirResource(let source, let type, let identifier):
            try c.encode("fhirResource", forKey: .kind)
            try c.encode(source, forKey: .source)
            try c.encode(type, forKey: .type)
            try c.encode(identifier, forKey: .identifier)
        case .activity(let condition):
            try c.encode("activity", forKey: .kind)
            try c.encode(CodedCondition(condition), forKey: .condition)
        case .workoutsWithActivity(let filter):
            try c.encode("workoutsWithActivity", forKey: .kind)
            try c.encode(filter, forKey: .filter)
        case .and(let filters):
            try c.encode("and", forKey: .kind)
            try c.encode(filters, forKey: .filters)
        case .or(let filters):
            try c.encode("or", forKey: .kind)
            try c.encode(filters, forKey: .filters)
        case .not(let filter):
            try c.encode("not", forKey: .kind)
            try c.encode(filter, forKey: .filter)
        case .invalid(let message):
            try c.encode("invalid", forKey: .kind)
            try c.encode(message, forKey: .message)
        }
    }

    package init(from decoder: any Decoder) throws {
        guard Nesting.depth <= Self.maximumCodingDepth else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "filters nest deeper than \(Self.maximumCodingDepth) levels of and, or, not, correlationMember "
                    + "and workoutsWithActivity"))
        }
        let c = try decoder.container(keyedBy: FilterKey.self)
        let kind = try c.decode(String.self, forKey: .kind)
        switch kind {
        case "dateRange":
            self = .dateRange(start: try c.nullableDate(.start), end: try c.nullableDate(.end),
                              options: HKQueryOptions(rawValue: try c.decode(UInt.self, forKey: .options)))
        case "dateCompare":
            let name = try c.decode(String.self, forKey: .field)
            guard let field = SampleDateField(rawValue: name) else {
                throw DecodingError.dataCorruptedError(forKey: .field, in: c,
                                                       debugDescription: "unknown date field \"\(name)\"; expected startDate or endDate")
            }
            self = .dateCompare(field, try c.comparison(), try c.date(.date))
        case "electrocardiogramClassification":
            self = .electrocardiogramClassification(try c.decode(Int.self, forKey: .value))
        case "electrocardiogramSymptoms":
            self = .electrocardiogramSymptoms(try c.decode(Int.self, forKey: .value))
        case "stateOfMindValence":
            self = .stateOfMindValence(try c.comparison(), try c.decode(Double.self, forKey: .value))
        case "stateOfMindKind":
            self = .stateOfMindKind(try c.decode(Int.self, forKey: .value))
        case "stateOfMindLabel":
            self = .stateOfMindLabel(try c.decode(Int.self, forKey: .value))
        case "stateOfMindAssociation":
            self = .stateOfMindAssociation(try c.decode(Int.self, forKey: .value))
        case "doseStatuses":
            self = .doseStatuses(Set(try c.decode([Int].self, forKey: .values)))
        case "doseScheduledDates":
            let times = try c.decode([Double].self, forKey: .values)
            guard times.allSatisfy(\.isFinite) else {
                throw DecodingError.dataCorruptedError(forKey: .values, in: c, debugDescription: "a date must be finite")
            }
            self = .doseScheduledDates(Set(times.map { Date(timeIntervalSinceReferenceDate: $0) }))
        case "doseScheduledRange":
            self = .doseScheduledRange(start: try c.nullableDate(.start), end: try c.nullableDate(.end))
        case "doseMedications":
            self = .doseMedications(try c.strings(.values))
        case "medicationArchived":
            self = .medicationArchived(try c.decode(Bool.self, forKey: .value))
        case "medicationHasSchedule":
            self = .medicationHasSchedule(try c.decode(Bool.self, forKey: .value))
        case "uuids":
            self = .uuids(Set(try c.decode([UUID].self, forKey: .uuids)))
        case "sources":
            self = .sources(try c.strings(.bundleIdentifiers))
        case "sourceRevisions":
            self = .sourceRevisions(Set(try c.decode([CodedRevision].self, forKey: .revisions).map(\.revision)))
        case "devices":
            self = .devices(Set(try c.decode([CodedDevice].self, forKey: .devices).map(\.device)))
        case "deviceProperty":
            self = .deviceProperty(try c.decode(String.self, forKey: .property), try c.strings(.values))
        case "metadataKeyExists":
            self = .metadataKeyExists(try c.decode(String.self, forKey: .key))
        case "metadataValues":
            self = .metadataValues(key: try c.decode(String.self, forKey: .key),
                                   values: Set(try c.decode([CodedMetadataValue].self, forKey: .values).map(\.value)))
        case "noCorrelation":
            self = .noCorrelation
        case "workoutActivityType":
            self = .workoutActivityType(try c.activityType())
        case "quantity":
            self = .quantity(try c.comparison(), base: try c.decode(Double.self, forKey: .base), types: try c.strings(.types))
        case "categoryValue":
            self = .categoryValue(try c.comparison(), try c.decode(Int.self, forKey: .value))
        case "workoutDuration":
            self = .workoutDuration(try c.comparison(), try c.decode(Double.self, forKey: .seconds))
        case "workoutStatistic":
            self = .workoutStatistic(try c.comparison(), statistic: try c.decode(String.self, forKey: .statistic),
                                     types: try c.strings(.types), base: try c.decode(Double.self, forKey: .base))
        case "metadataCompare":
            self = .metadataCompare(key: try c.decode(String.self, forKey: .key), try c.comparison(),
                                    try c.decode(CodedMetadataValue.self, forKey: .value).value)
        case "correlationMember":
            self = .correlationMember(type: try c.decode(String.self, forKey: .type), filter: try c.nestedFilter(.filter))
        case "activitySummaryDays":
            self = .activitySummaryDays(first: try c.day(.first), last: try c.day(.last))
        case "workoutAssociation":
            self = .workoutAssociation(try c.decode(UUID.self, forKey: .workout))
        case "workoutEffort":
            self = .workoutEffort(workout: try c.decode(UUID.self, forKey: .workout), activity: try c.decodeIfPresent(UUID.self, forKey: .activity))
        case "relevantDate":
            self = .relevantDate(start: try c.date(.start), end: try c.date(.end))
        case "fhirResourceType":
            self = .fhirResourceType(try c.decode(String.self, forKey: .type))
        case "fhirResource":
            self = .fhirResource(source: try c.decode(String.self, forKey: .source), type: try c.decode(String.self, forKey: .type),
                                 identifier: try c.decode(String.self, forKey: .identifier))
        case "activity":
            self = .activity(try c.decode(CodedCondition.self, forKey: .condition).condition)
        case "workoutsWithActivity":
            self = .workoutsWithActivity(try c.nestedFilter(.filter))
        case "and":
            self = .and(try c.nestedFilters(.filters))
        case "or":
            self = .or(try c.nestedFilters(.filters))
        case "not":
            self = .not(try c.nestedFilter(.filter))
        case "invalid":
            self = .invalid(try c.decode(String.self, forKey: .message))
        default:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: c, debugDescription: "unknown filter kind \"\(kind)\"")
        }
    }
}

/// The depth of the filter being decoded, in compounds: nested filters are decoded one deeper.
private enum Nesting {
    @TaskLocal static var depth = 0
}

/// Every field name of the format (filters and activity conditions share them).
private enum FilterKey: String, CodingKey {
    case kind, start, end, options, field, `operator`, date, value, uuids, bundleIdentifiers, revisions, devices, property,
         values, key, activityType, base, types, seconds, statistic, type, filter, filters, first, last, workout, source,
         identifier, condition, message, activity
}

extension KeyedDecodingContainer where K == FilterKey {
    fileprivate func date(_ key: K) throws -> Date {
        let time = try decode(Double.self, forKey: key)
        guard time.isFinite else { throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "a date must be finite") }
        return Date(timeIntervalSinceReferenceDate: time)
    }

    fileprivate func nullableDate(_ key: K) throws -> Date? {
        try nullable(Double.self, key) == nil ? nil : date(key)
    }

    fileprivate func comparison() throws -> ComparisonOperator {
        let symbol = try decode(String.self, forKey: .operator)
        guard let op = ComparisonOperator(rawValue: symbol) else {
            throw DecodingError.dataCorruptedError(forKey: .operator, in: self,
                                                   debugDescription: "unknown comparison operator \"\(symbol)\"; expected <, <=, >, >=, = or !=")
        }
        return op
    }

    fileprivate func activityType() throws -> HKWorkoutActivityType {
        let raw = try decode(UInt.self, forKey: .activityType)
        guard let type = HKWorkoutActivityType(rawValue: raw) else {
            throw DecodingError.dataCorruptedError(forKey: .activityType, in: self, debugDescription: "unknown workout activity type \(raw)")
        }
        return type
    }

    fileprivate func day(_ key: K) throws -> ActivityDay? {
        guard let text = try nullable(String.self, key) else { return nil }
        guard let day = ActivityDay(text: text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "\"\(text)\" is not a day (yyyy-MM-dd)")
        }
        return day
    }

    fileprivate func strings(_ key: K) throws -> Set<String> { Set(try decode([String].self, forKey: key)) }

    fileprivate func nestedFilter(_ key: K) throws -> SampleFilter {
        try Nesting.$depth.withValue(Nesting.depth + 1) { try decode(SampleFilter.self, forKey: key) }
    }

    fileprivate func nestedFilters(_ key: K) throws -> [SampleFilter] {
        try Nesting.$depth.withValue(Nesting.depth + 1) { try decode([SampleFilter].self, forKey: key) }
    }
}

extension KeyedDecodingContainer {
    /// The value for `key`, which must be there; `null` is `nil`.
    fileprivate func nullable<T: Decodable>(_ type: T.Type, _ key: K) throws -> T? {
        guard contains(key) else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(codingPath: codingPath, debugDescription: "no value for \"\(key.stringValue)\""))
        }
        return try decodeNil(forKey: key) ? nil : decode(T.self, forKey: key)
    }
}

/// Something a set holds, encoded in the order of `sortKey` so that equal sets encode alike.
private protocol SortedElement {
    var sortKey: [String?] { get }
}

/// `elements` by their sort keys (`nil` first).
private func sorted<T: SortedElement>(_ elements: [T]) -> [T] {
    elements.sorted {
        $0.sortKey.lexicographicallyPrecedes($1.sortKey) { a, b in
            switch (a, b) {
            case (nil, .some): true
            case (.some(let a), .some(let b)): a < b
            default: false
            }
        }
    }
}

/// A source revision: the source's bundle identifier and name, version, product type and OS version (`"17.1.0"`, or
/// `null` for `HKSourceRevisionAnyOperatingSystem`).
private struct CodedRevision: Codable, SortedElement {
    let revision: HKSourceRevision

    private enum Key: String, CodingKey { case bundleIdentifier, name, version, productType, operatingSystemVersion }

    init(_ revision: HKSourceRevision) { self.revision = revision }

    private var osText: String? {
        let os = revision.operatingSystemVersion, any = HKSourceRevisionAnyOperatingSystem
        if os.majorVersion == any.majorVersion, os.minorVersion == any.minorVersion, os.patchVersion == any.patchVersion { return nil }
        return "\(os.majorVersion).\(os.minorVersion).\(os.patchVersion)"
    }

    var sortKey: [String?] { [revision.source.bundleIdentifier, revision.version, revision.productType, osText, revision.source.name] }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(revision.source.bundleIdentifier, forKey: .bundleIdentifier)
        try c.encode(revision.source.name, forKey: .name)
        try c.encode(revision.version, forKey: .version)
        try c.encode(revision.productType, forKey: .productType)
        try c.encode(osText, forKey: .operatingSystemVersion)
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        var os = HKSourceRevisionAnyOperatingSystem
        if let text = try c.nullable(String.self, .operatingSystemVersion) {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
            guard parts.count == 3, let major = parts[0], let minor = parts[1], let patch = parts[2] else {
                throw DecodingError.dataCorruptedError(forKey: .operatingSystemVersion, in: c,
                                                       debugDescription: "\"\(text)\" is not an OS version (major.minor.patch)")
            }
            os = OperatingSystemVersion(majorVersion: major, minorVersion: minor, patchVersion: patch)
        }
        let source = HKSource(name: try c.decode(String.self, forKey: .name), bundleIdentifier: try c.decode(String.self, forKey: .bundleIdentifier))
        revision = HKSourceRevision(source: source, version: try c.nullable(String.self, .version),
                                    productType: try c.nullable(String.self, .productType), operatingSystemVersion: os)
    }
}

/// A device: its eight properties, each a string or `null`.
private struct CodedDevice: Codable, SortedElement {
    let device: HKDevice

    private enum Key: String, CodingKey {
        case name, manufacturer, model, hardwareVersion, firmwareVersion, softwareVersion, localIdentifier, udiDeviceIdentifier
    }

    init(_ device: HKDevice) { self.device = device }

    private var fields: [(Key, String?)] {
        [(.name, device.name), (.manufacturer, device.manufacturer), (.model, device.model), (.hardwareVersion, device.hardwareVersion),
         (.firmwareVersion, device.firmwareVersion), (.softwareVersion, device.softwareVersion),
         (.localIdentifier, device.localIdentifier), (.udiDeviceIdentifier, device.udiDeviceIdentifier)]
    }

    var sortKey: [String?] { fields.map(\.1) }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        for (key, value) in fields { try c.encode(value, forKey: key) }
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        device = HKDevice(
            name: try c.nullable(String.self, .name), manufacturer: try c.nullable(String.self, .manufacturer),
            model: try c.nullable(String.self, .model), hardwareVersion: try c.nullable(String.self, .hardwareVersion),
            firmwareVersion: try c.nullable(String.self, .firmwareVersion), softwareVersion: try c.nullable(String.self, .softwareVersion),
            localIdentifier: try c.nullable(String.self, .localIdentifier),
            udiDeviceIdentifier: try c.nullable(String.self, .udiDeviceIdentifier))
    }
}

/// A metadata value: an object with one key naming its kind.
private struct CodedMetadataValue: Codable, SortedElement {
    let value: HKMetadataValue

    private enum Key: String, CodingKey { case string, integer, double, bool, date, quantity }
    private enum QuantityKey: String, CodingKey { case value, unit }

    init(_ value: HKMetadataValue) { self.value = value }

    var sortKey: [String?] {
        switch value {
        case .string(let v): ["string", v]
        case .integer(let v): ["integer", String(v)]
        case .double(let v): ["double", String(v)]
        case .bool(let v): ["bool", String(v)]
        case .date(let v): ["date", String(v.timeIntervalSinceReferenceDate)]
        case .quantity(let v): ["quantity", String(v.doubleValue), v.unit.unitString]
        }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        switch value {
        case .string(let v): try c.encode(v, forKey: .string)
        case .integer(let v): try c.encode(v, forKey: .integer)
        case .double(let v): try c.encode(v, forKey: .double)
        case .bool(let v): try c.encode(v, forKey: .bool)
        case .date(let v): try c.encode(v.timeIntervalSinceReferenceDate, forKey: .date)
        case .quantity(let v):
            var q = c.nestedContainer(keyedBy: QuantityKey.self, forKey: .quantity)
            try q.encode(v.doubleValue, forKey: .value)
            try q.encode(v.unit.unitString, forKey: .unit)
        }
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        guard c.allKeys.count == 1, let key = c.allKeys.first else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "a metadata value is an object with one key: string, integer, double, bool, date or quantity"))
        }
        switch key {
        case .string: value = .string(try c.decode(String.self, forKey: key))
        case .integer: value = .integer(try c.decode(Int.self, forKey: key))
        case .double: value = .double(try c.decode(Double.self, forKey: key))
        case .bool: value = .bool(try c.decode(Bool.self, forKey: key))
        case .date:
            let time = try c.decode(Double.self, forKey: key)
            guard time.isFinite else { throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "a date must be finite") }
            value = .date(Date(timeIntervalSinceReferenceDate: time))
        case .quantity:
            let q = try c.nestedContainer(keyedBy: QuantityKey.self, forKey: key)
            let text = try q.decode(String.self, forKey: .unit)
            let unit: HKUnit
            do {
                unit = try HKUnit.parse(text)
            } catch {
                throw DecodingError.dataCorruptedError(forKey: .unit, in: q,
                                                       debugDescription: (error as? HKError)?.message ?? "\"\(text)\" is not a unit")
            }
            value = .quantity(HKQuantity(unit: unit, doubleValue: try q.decode(Double.self, forKey: .value)))
        }
    }
}

/// An activity condition: an object whose `"kind"` is the case name (`type`, `duration`, `dates`, `statistic`).
private struct CodedCondition: Codable {
    let condition: ActivityCondition

    init(_ condition: ActivityCondition) { self.condition = condition }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: FilterKey.self)
        switch condition {
        case .type(let type):
            try c.encode("type", forKey: .kind)
            try c.encode(type.rawValue, forKey: .activityType)
        case .duration(let op, let seconds):
            try c.encode("duration", forKey: .kind)
            try c.encode(op.rawValue, forKey: .operator)
            try c.encode(seconds, forKey: .seconds)
        case .dates(let start, let end, let options):
            try c.encode("dates", forKey: .kind)
            try c.encode(start?.timeIntervalSinceReferenceDate, forKey: .start)
            try c.encode(end?.timeIntervalSinceReferenceDate, forKey: .end)
            try c.encode(options.rawValue, forKey: .options)
        case .statistic(let op, let statistic, let types, let base):
            try c.encode("statistic", forKey: .kind)
            try c.encode(op.rawValue, forKey: .operator)
            try c.encode(statistic, forKey: .statistic)
            try c.encode(types.sorted(), forKey: .types)
            try c.encode(base, forKey: .base)
        }
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: FilterKey.self)
        let kind = try c.decode(String.self, forKey: .kind)
        switch kind {
        case "type":
            condition = .type(try c.activityType())
        case "duration":
            condition = .duration(try c.comparison(), try c.decode(Double.self, forKey: .seconds))
        case "dates":
            condition = .dates(start: try c.nullableDate(.start), end: try c.nullableDate(.end),
                               options: HKQueryOptions(rawValue: try c.decode(UInt.self, forKey: .options)))
        case "statistic":
            condition = .statistic(try c.comparison(), statistic: try c.decode(String.self, forKey: .statistic),
                                   types: try c.strings(.types), base: try c.decode(Double.self, forKey: .base))
        default:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: c, debugDescription: "unknown activity condition kind \"\(kind)\"")
        }
    }
}
