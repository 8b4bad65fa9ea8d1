import Foundation
import Testing
@testable import HealthModel

/// Filters as JSON, the form a predicate compiled in an app travels to the daemon in: every case comes back equal, the
/// same filter is always the same bytes, and bad input is a `DecodingError` — never a crash or a runaway recursion.
@Suite("Sample filter coding")
struct SampleFilterCodingTests {
    /// The cases of `SampleFilter`, each named as its JSON `"kind"`.
    enum Kind: String, CaseIterable {
        case dateRange, dateCompare, electrocardiogramClassification, electrocardiogramSymptoms, stateOfMindValence, stateOfMindKind,
             stateOfMindLabel, stateOfMindAssociation, doseStatuses, doseScheduledDates, doseScheduledRange, doseMedications,
             medicationArchived, medicationHasSchedule, uuids, sources, sourceRevisions,
             devices, deviceProperty, metadataKeyExists, metadataValues, noCorrelation, workoutActivityType, quantity,
             categoryValue, workoutDuration, workoutStatistic, metadataCompare, correlationMember, activitySummaryDays,
             workoutAssociation, workoutEffort, relevantDate, fhirResourceType, fhirResource, activity, workoutsWithActivity, and, or, not,
             invalid
    }

    /// A filter's kind. No `default`: a new case of `SampleFilter` does not compile until it has a kind here, and then
    /// ``examples(of:)`` must give it examples, which the round trip checks.
    static func kind(of filter: SampleFilter) -> Kind {
        switch filter {
        case .dateRange: .dateRange
        case .dateCompare: .dateCompare
        case .electrocardiogramClassification: .electrocardiogramClassification
        case .electrocardiogramSymptoms: .electrocardiogramSymptoms
        case .stateOfMindValence: .stateOfMindValence
        case .stateOfMindKind: .stateOfMindKind
        case .stateOfMindLabel: .stateOfMindLabel
        case .stateOfMindAssociation: .stateOfMindAssociation
        case .doseStatuses: .doseStatuses
        case .doseScheduledDates: .doseScheduledDates
        case .doseScheduledRange: .doseScheduledRange
        case .doseMedications: .doseMedications
        case .medicationArchived: .medicationArchived
        case .medicationHasSchedule: .medicationHasSchedule
        case .uuids: .uuids
        case .sources: .sources
        case .sourceRevisions: .sourceRevisions
        case .devices: .devices
        case .deviceProperty: .deviceProperty
        case .metadataKeyExists: .metadataKeyExists
        case .metadataValues: .metadataValues
        case .noCorrelation: .noCorrelation
        case .workoutActivityType: .workoutActivityType
        case .quantity: .quantity
        case .categoryValue: .categoryValue
        case .workoutDuration: .workoutDuration
        case .workoutStatistic: .workoutStatistic
        case .metadataCompare: .metadataCompare
        case .correlationMember: .correlationMember
        case .activitySummaryDays: .activitySummaryDays
        case .workoutAssociation: .workoutAssociation
        case .workoutEffort: .workoutEffort
        case .relevantDate: .relevantDate
        case .fhirResourceType: .fhirResourceType
        case .fhirResource: .fhirResource
        case .activity: .activity
        case .workoutsWithActivity: .workoutsWithActivity
        case .and: .and
        case .or: .or
        case .not: .not
        case .invalid: .invalid
        }
    }

    /// The case name of an activity condition (exhaustive, as ``kind(of:)``).
    static func name(of condition: ActivityCondition) -> String {
        switch condition {
        case .type: "type"
        case .duration: "duration"
        case .dates: "dates"
        case .statistic: "statistic"
        }
    }

    /// The case name of a metadata value (exhaustive, as ``kind(of:)``).
    static func name(of value: HKMetadataValue) -> String {
        switch value {
        case .string: "string"
        case .date: "date"
        case .integer: "integer"
        case .double: "double"
        case .bool: "bool"
        case .quantity: "quantity"
        }
    }

    // Dates with sub-millisecond parts, which only an exact encoding keeps.
    static let start = Date(timeIntervalSinceReferenceDate: 729_123_456.789_012_3)
    static let end = Date(timeIntervalSinceReferenceDate: 729_209_856.000_000_7)
    static let heartRate = "HKQuantityTypeIdentifierHeartRate", steps = "HKQuantityTypeIdentifierStepCount"
    static let uuidA = UUID(uuidString: "0E1A4B8C-3D2F-4A5B-9C6D-7E8F90A1B2C3") ?? UUID()
    static let uuidB = UUID(uuidString: "F1E2D3C4-B5A6-4978-8695-A4B3C2D1E0F9") ?? UUID()
    static let source = HKSource(name: "Steps", bundleIdentifier: "com.example.steps")
    static let revisionWithOS = HKSourceRevision(source: source, version: "3.1", productType: "iPhone14,2",
                                                 operatingSystemVersion: OperatingSystemVersion(majorVersion: 17, minorVersion: 1, patchVersion: 0))
    static let revisionAnyOS = HKSourceRevision(source: HKSource(name: "Scale", bundleIdentifier: "com.example.scale"), version: nil)
    static let revisionAnyVersion = HKSourceRevision(source: source, version: HKSourceRevisionAnyVersion, productType: HKSourceRevisionAnyProductType,
                                                     operatingSystemVersion: OperatingSystemVersion(majorVersion: 14, minorVersion: 0, patchVersion: 2))
    static let fullDevice = HKDevice(name: "Watch", manufacturer: "Apple Inc.", model: "Watch", hardwareVersion: "Watch6,1",
                                     firmwareVersion: "1", softwareVersion: "10.1", localIdentifier: "local", udiDeviceIdentifier: "udi")
    static let sparseDevice = HKDevice(name: "Body Scale", manufacturer: nil, model: "S2", hardwareVersion: nil,
                                       firmwareVersion: nil, softwareVersion: "1.4", localIdentifier: nil, udiDeviceIdentifier: nil)

    static func metadataValues() throws -> [HKMetadataValue] {
        [.string("Grüße \"quoted\""), .string(""), .date(start), .integer(-3), .integer(Int.max), .double(1.5), .double(0.1),
         .bool(true), .bool(false), .quantity(HKQuantity(unit: try HKUnit.parse("count/min"), doubleValue: 72)),
         .quantity(HKQuantity(unit: try HKUnit.parse("mmol<180.15588000005408>/L"), doubleValue: 5.5))]
    }

    static func conditions() -> [ActivityCondition] {
        [.type(.running), .type(.other), .duration(.greaterThanOrEqualTo, 1800.25),
         .dates(start: start, end: end, options: [.strictStartDate]), .dates(start: nil, end: end, options: []),
         .statistic(.lessThan, statistic: "sum", types: [heartRate, steps], base: 0.001)]
    }

    /// Examples of one kind, covering the values its case can hold.
    static func examples(of kind: Kind) throws -> [SampleFilter] {
        switch kind {
        case .dateRange:
            return [.dateRange(start: start, end: end, options: [.strictStartDate, .strictEndDate]),
                    .dateRange(start: nil, end: end, options: []), .dateRange(start: start, end: nil, options: .strictEndDate),
                    .dateRange(start: nil, end: nil, options: [])]
        case .dateCompare:
            return [.dateCompare(.startDate, .greaterThanOrEqualTo, start), .dateCompare(.endDate, .notEqualTo, end)]
        case .electrocardiogramClassification:
            return [.electrocardiogramClassification(2)]
        case .electrocardiogramSymptoms:
            return [.electrocardiogramSymptoms(-1)]
        case .stateOfMindValence:
            return [.stateOfMindValence(.lessThanOrEqualTo, -0.25), .stateOfMindValence(.notEqualTo, 1)]
        case .stateOfMindKind:
            return [.stateOfMindKind(2)]
        case .stateOfMindLabel:
            return [.stateOfMindLabel(38)]
        case .doseStatuses:
            return [.doseStatuses([4]), .doseStatuses([1, 3, 6]), .doseStatuses([])]
        case .doseScheduledDates:
            return [.doseScheduledDates([start]), .doseScheduledDates([start, end])]
        case .doseScheduledRange:
            return [.doseScheduledRange(start: start, end: end), .doseScheduledRange(start: nil, end: end), .doseScheduledRange(start: start, end: nil)]
        case .doseMedications:
            return [.doseMedications(["1191"]), .doseMedications(["1191", "5640"])]
        case .medicationArchived:
            return [.medicationArchived(true), .medicationArchived(false)]
        case .medicationHasSchedule:
            return [.medicationHasSchedule(true), .medicationHasSchedule(false)]
        case .stateOfMindAssociation:
            return [.stateOfMindAssociation(13)]
        case .uuids:
            return [.uuids([uuidA, uuidB]), .uuids([])]
        case .sources:
            return [.sources(["com.example.steps", "com.example.scale"])]
        case .sourceRevisions:
            return [.sourceRevisions([revisionWithOS, revisionAnyOS, revisionAnyVersion])]
        case .devices:
            return [.devices([fullDevice, sparseDevice])]
        case .deviceProperty:
            return [.deviceProperty(HKDevicePropertyKeyManufacturer, ["Apple Inc.", "Acme"])]
        case .metadataKeyExists:
            return [.metadataKeyExists("HKWasUserEntered")]
        case .metadataValues:
            return [.metadataValues(key: "note", values: Set(try metadataValues()))]
        case .noCorrelation:
            return [.noCorrelation]
        case .workoutActivityType:
            return [.workoutActivityType(.running), .workoutActivityType(.other)]
        case .quantity:
            let operators: [ComparisonOperator] = [.lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .equalTo, .notEqualTo]
            return operators.map { .quantity($0, base: 1.5, types: [heartRate]) }
        case .categoryValue:
            return [.categoryValue(.equalTo, 3)]
        case .workoutDuration:
            return [.workoutDuration(.lessThanOrEqualTo, 3600.5)]
        case .workoutStatistic:
            return [.workoutStatistic(.greaterThan, statistic: "maximum", types: [heartRate, steps], base: 2.75)]
        case .metadataCompare:
            return try metadataValues().map { .metadataCompare(key: "k", .lessThan, $0) }
        case .correlationMember:
            return [.correlationMember(type: "HKCorrelationTypeIdentifierBloodPressure",
                                       filter: .quantity(.greaterThan, base: 140, types: ["HKQuantityTypeIdentifierBloodPressureSystolic"]))]
        case .activitySummaryDays:
            let first = try #require(ActivityDay(text: "2024-02-29")), last = try #require(ActivityDay(text: "2024-12-31"))
            return [.activitySummaryDays(first: first, last: last), .activitySummaryDays(first: nil, last: last),
                    .activitySummaryDays(first: first, last: nil)]
        case .workoutAssociation:
            return [.workoutAssociation(uuidA)]
        case .workoutEffort:
            return [.workoutEffort(workout: uuidA, activity: nil), .workoutEffort(workout: uuidA, activity: uuidA)]
        case .relevantDate:
            return [.relevantDate(start: start, end: end)]
        case .fhirResourceType:
            return [.fhirResourceType("Immunization")]
        case .fhirResource:
            return [.fhirResource(source: "com.example.clinic", type: "Observation", identifier: "obs-1")]
        case .activity:
            return conditions().map { .activity($0) }
        case .workoutsWithActivity:
            return [.workoutsWithActivity(.and([.activity(.type(.cycling)), .not(.activity(.duration(.lessThan, 60)))]))]
        case .and:
            return [.and([.noCorrelation, .dateCompare(.startDate, .lessThan, end)]), .and([])]
        case .or:
            return [.or([.uuids([uuidA]), .invalid("x")])]
        case .not:
            return [.not(.not(.metadataKeyExists("k")))]
        case .invalid:
            return [.invalid("predicateForSamples: end before start")]
        }
    }

    static func encoded(_ filter: SampleFilter) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(filter)
    }

    static func decoded(_ data: Data) throws -> SampleFilter { try JSONDecoder().decode(SampleFilter.self, from: data) }

    @Test func everyCaseComesBackEqual() throws {
        var conditionNames: Set<String> = [], valueNames: Set<String> = []
        for kind in Kind.allCases {
            let examples = try Self.examples(of: kind)
            #expect(!examples.isEmpty, "no example of \(kind)")
            for filter in examples {
                #expect(Self.kind(of: filter) == kind)
                let data = try Self.encoded(filter)
                let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
                #expect(object["kind"] as? String == kind.rawValue)
                let back = try Self.decoded(data)
                #expect(back == filter, "\(String(decoding: data, as: UTF8.self))")
                // Dates are numbers of their own, whatever the coder's date strategy.
                let iso = JSONEncoder()
                iso.dateEncodingStrategy = .iso8601
                #expect(try Self.decoded(try iso.encode(filter)) == filter)
                #expect(try Self.encoded(back) == data)
                if case .activity(let condition) = filter { conditionNames.insert(Self.name(of: condition)) }
                if case .metadataCompare(_, _, let value) = filter { valueNames.insert(Self.name(of: value)) }
            }
        }
        #expect(conditionNames == ["type", "duration", "dates", "statistic"])
        #expect(valueNames == ["string", "date", "integer", "double", "bool", "quantity"])
    }

    @Test func sourceRevisionsKeepTheirOperatingSystemVersion() throws {
        let data = try Self.encoded(.sourceRevisions([Self.revisionWithOS, Self.revisionAnyOS]))
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""operatingSystemVersion":"17.1.0""#))
        #expect(text.contains(#""operatingSystemVersion":null"#))
        guard case .sourceRevisions(let back) = try Self.decoded(data) else {
            Issue.record("not source revisions: \(text)")
            return
        }
        let withOS = try #require(back.first { $0.version == "3.1" }), anyOS = try #require(back.first { $0.version == nil })
        #expect(withOS.operatingSystemVersion.majorVersion == 17 && withOS.operatingSystemVersion.minorVersion == 1)
        #expect(anyOS.operatingSystemVersion.majorVersion == HKSourceRevisionAnyOperatingSystem.majorVersion)
        #expect(anyOS.source.name == "Scale")
    }

    @Test func theFormatIsAsDocumented() throws {
        let samples: [(SampleFilter, String)] = [
            (.dateRange(start: Date(timeIntervalSinceReferenceDate: 725_846_400), end: nil, options: .strictStartDate),
             #"{"end":null,"kind":"dateRange","options":1,"start":725846400}"#),
            (.not(.metadataValues(key: "HKWasUserEntered", values: [.bool(true)])),
             #"{"filter":{"key":"HKWasUserEntered","kind":"metadataValues","values":[{"bool":true}]},"kind":"not"}"#),
            (.and([.quantity(.lessThan, base: 1.5, types: [Self.steps, Self.heartRate]), .workoutsWithActivity(.activity(.type(.running)))]),
             #"{"filters":[{"base":1.5,"kind":"quantity","operator":"<","types":["HKQuantityTypeIdentifierHeartRate","HKQuantityTypeIdentifierStepCount"]},{"filter":{"condition":{"activityType":37,"kind":"type"},"kind":"activity"},"kind":"workoutsWithActivity"}],"kind":"and"}"#),
        ]
        for (filter, json) in samples {
            #expect(String(decoding: try Self.encoded(filter), as: UTF8.self) == json)
            #expect(try Self.decoded(Data(json.utf8)) == filter)
        }
    }

    /// The same sets, filled in another order into tables of another size, so they iterate in another order.
    @Test func equalSetsEncodeToTheSameBytes() throws {
        func reordered<T: Hashable>(_ elements: [T]) -> (Set<T>, Set<T>) {
            var a = Set<T>(), b = Set<T>(minimumCapacity: 4096)
            for element in elements { a.insert(element) }
            for element in elements.reversed() { b.insert(element) }
            return (a, b)
        }
        let uuids = reordered((0..<40).map { _ in UUID() })
        let strings = reordered((0..<40).map { "com.example.app\($0)" })
        let revisions = reordered((0..<40).map {
            HKSourceRevision(source: HKSource(name: "App \($0 % 3)", bundleIdentifier: "com.example.app\($0 % 7)"), version: "\($0)",
                             productType: $0.isMultiple(of: 2) ? nil : "iPhone\($0)",
                             operatingSystemVersion: $0.isMultiple(of: 3) ? HKSourceRevisionAnyOperatingSystem
                                 : OperatingSystemVersion(majorVersion: $0, minorVersion: 1, patchVersion: 0))
        })
        let devices = reordered((0..<40).map {
            HKDevice(name: "Device \($0 % 5)", manufacturer: $0.isMultiple(of: 2) ? nil : "Maker", model: "M\($0)", hardwareVersion: nil,
                     firmwareVersion: nil, softwareVersion: "\($0 % 4)", localIdentifier: nil, udiDeviceIdentifier: nil)
        })
        let values = reordered(try (0..<8).flatMap { i -> [HKMetadataValue] in
            [.string("s\(i)"), .integer(i), .double(Double(i) + 0.5), .date(Date(timeIntervalSinceReferenceDate: Double(i))),
             .quantity(HKQuantity(unit: try HKUnit.parse("count/min"), doubleValue: Double(i)))]
        } + [.bool(true), .bool(false)])
        #expect(Array(uuids.0) != Array(uuids.1) && Array(strings.0) != Array(strings.1) && Array(revisions.0) != Array(revisions.1)
                && Array(devices.0) != Array(devices.1) && Array(values.0) != Array(values.1),
                "the sets must iterate in different orders for the test to mean anything")

        func filter(_ pick: (Set<UUID>, Set<String>, Set<HKSourceRevision>, Set<HKDevice>, Set<HKMetadataValue>)) -> SampleFilter {
            let (uuids, strings, revisions, devices, values) = pick
            return .and([
                .uuids(uuids), .sources(strings), .sourceRevisions(revisions), .devices(devices), .deviceProperty(HKDevicePropertyKeyName, strings),
                .metadataValues(key: "k", values: values), .quantity(.lessThan, base: 1, types: strings),
                .workoutStatistic(.lessThan, statistic: "sum", types: strings, base: 1),
                .workoutsWithActivity(.activity(.statistic(.lessThan, statistic: "sum", types: strings, base: 1))),
            ])
        }
        let first = filter((uuids.0, strings.0, revisions.0, devices.0, values.0))
        let second = filter((uuids.1, strings.1, revisions.1, devices.1, values.1))
        #expect(first == second)
        #expect(try Self.encoded(first) == Self.encoded(second))
        #expect(try Self.decoded(Self.encoded(first)) == first)
    }

    // MARK: - Bad input

    /// The error decoding `json` throws, or `nil` when it decodes (or throws something else).
    static func decodingError(_ json: String) -> DecodingError? {
        do {
            _ = try JSONDecoder().decode(SampleFilter.self, from: Data(json.utf8))
            return nil
        } catch let error as DecodingError {
            return error
        } catch {
            return nil
        }
    }

    /// Whether `error` is data found corrupted, with a description holding `text`.
    static func isCorrupted(_ error: DecodingError?, saying text: String) -> Bool {
        guard case .dataCorrupted(let context) = error else { return false }
        return context.debugDescription.contains(text)
    }

    @Test func anUnknownKindIsAnError() {
        #expect(Self.isCorrupted(Self.decodingError(#"{"kind":"everything"}"#), saying: #"unknown filter kind "everything""#))
        #expect(Self.isCorrupted(Self.decodingError(#"{"kind":"activity","condition":{"kind":"pace"}}"#),
                                 saying: #"unknown activity condition kind "pace""#))
        guard case .keyNotFound(let key, _)? = Self.decodingError(#"{"filters":[]}"#) else {
            Issue.record("a filter without a kind decoded")
            return
        }
        #expect(key.stringValue == "kind")
    }

    @Test func aMissingFieldIsAnError() {
        let missing: [(String, String)] = [
            (#"{"kind":"dateRange","start":null,"options":0}"#, "end"),
            (#"{"kind":"dateRange","start":1,"end":2}"#, "options"),
            (#"{"kind":"not"}"#, "filter"),
            (#"{"kind":"quantity","operator":"<","types":[]}"#, "base"),
            (#"{"kind":"activitySummaryDays","first":"2024-01-01"}"#, "last"),
            (#"{"kind":"devices","devices":[{"name":"n","manufacturer":null,"model":null,"hardwareVersion":null,"firmwareVersion":null,"softwareVersion":null,"localIdentifier":null}]}"#,
             "udiDeviceIdentifier"),
            (#"{"kind":"sourceRevisions","revisions":[{"bundleIdentifier":"b","name":"n","version":null,"productType":null}]}"#,
             "operatingSystemVersion"),
        ]
        for (json, field) in missing {
            guard case .keyNotFound(let key, _)? = Self.decodingError(json) else {
                Issue.record("\(json) decoded without \(field)")
                continue
            }
            #expect(key.stringValue == field)
        }
        #expect(Self.isCorrupted(Self.decodingError(#"{"kind":"metadataValues","key":"k","values":[{}]}"#), saying: "one key"))
        #expect(Self.isCorrupted(Self.decodingError(#"{"kind":"metadataValues","key":"k","values":[{"bool":true,"integer":1}]}"#),
                                 saying: "one key"))
    }

    @Test func anUnknownWorkoutActivityTypeIsAnError() {
        #expect(Self.isCorrupted(Self.decodingError(#"{"kind":"workoutActivityType","activityType":9999}"#),
                                 saying: "unknown workout activity type 9999"))
        #expect(Self.isCorrupted(Self.decodingError(#"{"kind":"activity","condition":{"kind":"type","activityType":0}}"#),
                                 saying: "unknown workout activity type 0"))
    }

    @Test func aDayThatDoesNotExistIsAnError() {
        #expect(Self.isCorrupted(Self.decodingError(#"{"kind":"activitySummaryDays","first":"2024-02-30","last":null}"#),
                                 saying: #""2024-02-30" is not a day"#))
        #expect(Self.isCorrupted(Self.decodingError(#"{"kind":"activitySummaryDays","first":null,"last":"2024-2-3"}"#),
                                 saying: "is not a day"))
    }

    @Test func anUnknownComparisonOperatorIsAnError() {
        #expect(Self.isCorrupted(Self.decodingError(#"{"kind":"categoryValue","operator":"~","value":1}"#),
                                 saying: #"unknown comparison operator "~""#))
        #expect(Self.isCorrupted(Self.decodingError(#"{"kind":"dateCompare","field":"creationDate","operator":"<","date":0}"#),
                                 saying: #"unknown date field "creationDate""#))
        #expect(Self.isCorrupted(Self.decodingError(#"{"kind":"metadataCompare","key":"k","operator":"<","value":{"quantity":{"value":1,"unit":"furlong/"}}}"#),
                                 saying: "furlong"))
        #expect(Self.isCorrupted(Self.decodingError(#"{"kind":"sourceRevisions","revisions":[{"bundleIdentifier":"b","name":"n","version":null,"productType":null,"operatingSystemVersion":"17.1"}]}"#),
                                 saying: "not an OS version"))
    }

    /// `depth` filters of `open`, then `close` as often, around `{"kind":"noCorrelation"}`.
    static func nested(_ depth: Int, open: String = #"{"kind":"not","filter":"#, close: String = "}") -> String {
        String(repeating: open, count: depth) + #"{"kind":"noCorrelation"}"# + String(repeating: close, count: depth)
    }

    @Test func nestingIsBounded() throws {
        let limit = SampleFilter.maximumCodingDepth
        #expect(limit == 64)
        // At the limit, every compound decodes.
        var filter = try JSONDecoder().decode(SampleFilter.self, from: Data(Self.nested(limit).utf8))
        var depth = 0
        while case .not(let inner) = filter { (filter, depth) = (inner, depth + 1) }
        #expect(depth == limit && filter == .noCorrelation)
        let compounds: [(open: String, close: String)] = [
            (#"{"kind":"not","filter":"#, "}"), (#"{"kind":"and","filters":["#, "]}"), (#"{"kind":"or","filters":[{"kind":"noCorrelation"},"#, "]}"),
            (#"{"kind":"correlationMember","type":"t","filter":"#, "}"), (#"{"kind":"workoutsWithActivity","filter":"#, "}"),
        ]
        for (open, close) in compounds {
            #expect(Self.decodingError(Self.nested(limit, open: open, close: close)) == nil, "\(open) nested \(limit) deep")
            #expect(Self.isCorrupted(Self.decodingError(Self.nested(limit + 1, open: open, close: close)), saying: "deeper than 64 levels"),
                    "\(open) nested \(limit + 1) deep")
        }
        // Far deeper input is refused, not a stack overflow.
        #expect(Self.decodingError(Self.nested(10_000)) != nil)
        #expect(Self.decodingError(Self.nested(10_000, open: #"{"kind":"and","filters":["#, close: "]}")) != nil)
    }
}
