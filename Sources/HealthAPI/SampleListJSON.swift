package import Foundation
package import HealthModel

/// The JSON of a `SampleList` (`POST /v1/queries/samples`) and of an `AnchoredChanges` (`/v1/queries/anchored`: the same
/// list with more members), written and read by hand, and of the `SampleBatch` apps save (`POST /v1/objects`), read by
/// hand: the same text the API document specifies and the generated code writes and reads, at a fraction of the cost. Sample and anchored queries are the calls apps make most, and with
/// `JSONEncoder`, `JSONDecoder` and the generated `Codable` code, coding a hundred samples took most of a remote query's
/// time on both sides (BENCHMARKS.md).
///
/// The fields every sample has (its UUID, type, dates, quantity or value, metadata, source, device, count) go by hand;
/// the rare compound ones (a workout's fields, a correlation's samples, a series summary, a clinical record, a CDA
/// document, an electrocardiogram, a state of mind, a scored assessment) go through the generated `Codable` code, their text spliced in or cut out, so nothing
/// the document allows is left out. Reading is as strict as the generated decoder: a field the document does not allow,
/// a value of the wrong kind or a missing required field is a ``WireFieldError`` naming the field.
package enum SampleListJSON {
    package typealias SampleList = Components.Schemas.SampleList
    typealias Sample = Components.Schemas.Sample

    // MARK: - Writing

    /// The list of `samples` (as `WireSample.list` makes it) written straight from the objects: a quantity or category
    /// sample without the API's intermediate value, any other kind through it. Each source revision and device is
    /// written once, in `sources` and `devices`, after the samples that name them.
    /// `more` writes the answer's members besides the list (an anchored answer's deleted objects and anchor).
    package static func encode(_ samples: [HKSample], more: (inout Members) throws -> Void = { _ in }) throws -> [UInt8] {
        var writer = JSONWriter(capacity: 64 + samples.count * 260)
        var parts = Parts()
        var sources = WireSample.ListParts<HKSourceRevision, Components.Schemas.Source>()
        var devices = WireSample.ListParts<HKDevice, Components.Schemas.Device>()
        writer.raw("{")
        writer.key("samples")
        try writer.array(samples) { sample, writer in
            let sourceIndex = sources.index(of: sample.sourceRevision, wire: WireSample.wireSource)
            let deviceIndex = sample.device.map { devices.index(of: $0, wire: WireSample.wireDevice) }
            let quantity = sample as? HKQuantitySample
            let plain = quantity.map { $0.count == 1 && ($0 as? HKDiscreteQuantitySample)?.series == nil } ?? (sample is HKCategorySample)
            if plain {
                try write(plain: sample, quantity: quantity?.quantity, sourceIndex: sourceIndex, deviceIndex: deviceIndex, to: &writer, parts: &parts)
            } else {
                try write(WireSample.wire(sample, carrying: false, sourceIndex: sourceIndex, deviceIndex: deviceIndex), to: &writer, parts: &parts)
            }
        }
        if !devices.parts.isEmpty {
            writer.next("devices")
            writer.array(devices.parts) { device, writer in write(device, to: &writer) }
        }
        if !sources.parts.isEmpty {
            writer.next("sources")
            writer.array(sources.parts) { source, writer in write(source, to: &writer) }
        }
        var members = Members(writer: writer, parts: parts)
        try more(&members)
        members.writer.raw("}")
        return members.writer.bytes
    }

    /// The members of an answer besides its sample list, as ``encode(_:more:)`` writes them.
    package struct Members {
        fileprivate var writer: JSONWriter
        fileprivate var parts: Parts

        package mutating func string(_ key: StaticString, _ value: String) {
            writer.next(key)
            writer.string(value)
        }

        package mutating func integer(_ key: StaticString, _ value: Int) {
            writer.next(key)
            writer.integer(value)
        }

        /// A value through its generated `Encodable` code.
        package mutating func encoded(_ key: StaticString, _ value: some Encodable) throws {
            writer.next(key)
            try parts.encoded(value, to: &writer)
        }
    }

    /// A quantity sample (one value, no series) or a category sample, as `WireSample.wire` would describe it.
    private static func write(plain sample: HKSample, quantity: HKQuantity?, sourceIndex: Int, deviceIndex: Int?, to writer: inout JSONWriter,
                              parts: inout Parts) throws {
        writer.raw("{")
        if let deviceIndex { writer.key("deviceIndex"); writer.integer(deviceIndex); writer.comma() }
        writer.key("endDate")
        try parts.date(sample.endDate, to: &writer)
        if let metadata = sample.metadataValues, !metadata.isEmpty {
            writer.next("metadata")
            try writer.object(metadata) { value, writer in
                switch value {
                case .string(let text): writer.string(text)
                case .integer(let number): try writer.number(Double(number))
                case .double(let number): try writer.number(number)
                case .bool(let flag): writer.bool(flag)
                case .quantity(let quantity): try write(WireSample.wireQuantity(quantity), to: &writer)
                case .date(let date): try parts.metadataDate(date, to: &writer)
                }
            }
        }
        if let quantity { writer.next("quantity"); try write(WireSample.wireQuantity(quantity), to: &writer) }
        writer.next("sourceIndex")
        writer.integer(sourceIndex)
        writer.next("startDate")
        try parts.date(sample.startDate, to: &writer)
        writer.next("type")
        writer.string(sample.sampleType.identifier)
        writer.next("uuid")
        writer.string(sample.uuid.uuidString)
        if let category = sample as? HKCategorySample { writer.next("value"); writer.integer(category.value) }
        writer.raw("}")
    }

    /// What the samples of one list share while written: the date writer, the encoder for compound fields.
    fileprivate struct Parts {
        let dates = ExactDateTranscoder()
        lazy var encoder = ExactDateTranscoder.jsonEncoder()

        /// The last date written and its text: a point sample's end is its start, and a list's samples often share dates.
        private var last: (date: Date, text: String)?

        mutating func date(_ date: Date, to writer: inout JSONWriter) throws {
            if let last, last.date == date { return writer.string(last.text) }
            let text = try dates.encode(date)
            last = (date, text)
            writer.string(text)
        }

        /// A metadata date: `{"date": …}`.
        mutating func metadataDate(_ date: Date, to writer: inout JSONWriter) throws {
            writer.raw("{")
            writer.key("date")
            try self.date(date, to: &writer)
            writer.raw("}")
        }

        /// A compound field through its generated `Encodable` code.
        mutating func encoded(_ value: some Encodable, to writer: inout JSONWriter) throws {
            writer.raw(try encoder.encode(value))
        }
    }

    private static func write(_ sample: Sample, to writer: inout JSONWriter, parts: inout Parts) throws {
        // In key order, as the generated encoder with sorted keys writes them.
        writer.raw("{")
        if let audiogram = sample.audiogram { writer.key("audiogram"); try parts.encoded(audiogram, to: &writer); writer.comma() }
        if let clinical = sample.clinical { writer.key("clinical"); try parts.encoded(clinical, to: &writer); writer.comma() }
        if let count = sample.count { writer.key("count"); writer.integer(count); writer.comma() }
        if let device = sample.device { writer.key("device"); write(device, to: &writer); writer.comma() }
        if let index = sample.deviceIndex { writer.key("deviceIndex"); writer.integer(index); writer.comma() }
        if let document = sample.document { writer.key("document"); try parts.encoded(document, to: &writer); writer.comma() }
        if let ecg = sample.electrocardiogram { writer.key("electrocardiogram"); try parts.encoded(ecg, to: &writer); writer.comma() }
        writer.key("endDate")
        try parts.date(sample.endDate, to: &writer)
        if let dose = sample.medicationDoseEvent { writer.next("medicationDoseEvent"); try parts.encoded(dose, to: &writer) }
        if let metadata = sample.metadata?.additionalProperties {
            writer.next("metadata")
            try writer.object(metadata) { value, writer in
                switch value {
                case .case1(let text): writer.string(text)
                case .case2(let number): try writer.number(number)
                case .case3(let flag): writer.bool(flag)
                case .Quantity(let quantity): try write(quantity, to: &writer)
                case .MetadataDate(let date): try parts.metadataDate(date.date, to: &writer)
                }
            }
        }
        if let objects = sample.objects { writer.next("objects"); try parts.encoded(objects, to: &writer) }
        if let quantity = sample.quantity { writer.next("quantity"); try write(quantity, to: &writer) }
        if let assessment = sample.scoredAssessment { writer.next("scoredAssessment"); try parts.encoded(assessment, to: &writer) }
        if let series = sample.series { writer.next("series"); try parts.encoded(series, to: &writer) }
        if let source = sample.source { writer.next("source"); write(source, to: &writer) }
        if let index = sample.sourceIndex { writer.next("sourceIndex"); writer.integer(index) }
        writer.next("startDate")
        try parts.date(sample.startDate, to: &writer)
        if let state = sample.stateOfMind { writer.next("stateOfMind"); try parts.encoded(state, to: &writer) }
        writer.next("type")
        writer.string(sample._type)
        writer.next("uuid")
        writer.string(sample.uuid)
        if let value = sample.value { writer.next("value"); writer.integer(value) }
        if let prescription = sample.visionPrescription { writer.next("visionPrescription"); try parts.encoded(prescription, to: &writer) }
        if let workout = sample.workout { writer.next("workout"); try parts.encoded(workout, to: &writer) }
        writer.raw("}")
    }

    private static func write(_ quantity: Components.Schemas.Quantity, to writer: inout JSONWriter) throws {
        writer.raw("{")
        writer.key("unit")
        writer.string(quantity.unit)
        writer.next("value")
        try writer.number(quantity.value)
        writer.raw("}")
    }

    private static func write(_ device: Components.Schemas.Device, to writer: inout JSONWriter) {
        var first = true
        func field(_ key: StaticString, _ value: String?, _ writer: inout JSONWriter) {
            guard let value else { return }
            if !first { writer.comma() }
            first = false
            writer.key(key)
            writer.string(value)
        }
        writer.raw("{")
        field("firmwareVersion", device.firmwareVersion, &writer)
        field("hardwareVersion", device.hardwareVersion, &writer)
        field("localIdentifier", device.localIdentifier, &writer)
        field("manufacturer", device.manufacturer, &writer)
        field("model", device.model, &writer)
        field("name", device.name, &writer)
        field("softwareVersion", device.softwareVersion, &writer)
        field("udiDeviceIdentifier", device.udiDeviceIdentifier, &writer)
        writer.raw("}")
    }

    private static func write(_ source: Components.Schemas.Source, to writer: inout JSONWriter) {
        writer.raw("{")
        writer.key("bundleIdentifier")
        writer.string(source.bundleIdentifier)
        writer.next("name")
        writer.string(source.name)
        if let version = source.operatingSystemVersion { writer.next("operatingSystemVersion"); writer.string(version) }
        if let productType = source.productType { writer.next("productType"); writer.string(productType) }
        if let version = source.version { writer.next("version"); writer.string(version) }
        writer.raw("}")
    }

    // MARK: - Reading

    /// The list the JSON text describes. A text that is not JSON, or not a `SampleList` as the API document describes
    /// one, is a ``WireFieldError`` naming the field (the JSON pointer; empty for the whole text).
    /// `more` reads the answer's members besides the list (an anchored answer's deleted objects and anchor) and says
    /// whether it knew the member; one it did not know is stepped over.
    package static func decode(_ bytes: [UInt8], more: (String, inout Member) throws -> Bool = { _, _ in false }) throws -> SampleList {
        var samples: [Sample]?, sources: [Components.Schemas.Source]?, devices: [Components.Schemas.Device]?
        try reading(bytes) { reader, decoding in
            try reader.object { reader, key in
                try within(key) {
                    switch key {
                    case "samples":
                        samples = try sampleArray(&reader, decoding: &decoding)
                    case "sources":
                        if reader.null() { return }
                        var read: [Components.Schemas.Source] = []
                        try reader.array { reader, index in read.append(try within(String(index)) { try source(&reader) }) }
                        sources = read
                    case "devices":
                        if reader.null() { return }
                        var read: [Components.Schemas.Device] = []
                        try reader.array { reader, index in read.append(try within(String(index)) { try device(&reader) }) }
                        devices = read
                    default:
                        var member = Member(reader: reader, decoding: decoding)
                        let known = try more(key, &member)
                        (reader, decoding) = (member.reader, member.decoding)
                        if !known { try reader.skipValue() }
                    }
                }
            }
        }
        guard let samples else { throw WireFieldError("/samples", "is required") }
        return SampleList(samples: samples, sources: sources, devices: devices)
    }

    /// The `SampleBatch` the JSON text describes (the body of `POST /v1/objects`, the saves apps make), its samples read
    /// as a list's are: as strict as the generated decoder, a misread field is a ``WireFieldError`` naming it.
    package static func decodeBatch(_ bytes: [UInt8]) throws -> Components.Schemas.SampleBatch {
        var samples: [Sample]?
        try reading(bytes) { reader, decoding in
            try reader.object { reader, key in
                try within(key) {
                    guard key == "samples" else { throw Misread("is not a field of a sample batch") }
                    samples = try sampleArray(&reader, decoding: &decoding)
                }
            }
        }
        guard let samples else { throw WireFieldError("/samples", "is required") }
        return Components.Schemas.SampleBatch(samples: samples)
    }

    /// Reads the whole of `bytes` with `body` (which reads the top-level value), turning what it misreads into a
    /// ``WireFieldError`` naming the field.
    private static func reading(_ bytes: [UInt8], _ body: (inout JSONReader, inout Decoding) throws -> Void) throws {
        var reader = JSONReader(bytes)
        var decoding = Decoding()
        do {
            try within(nil) {
                try body(&reader, &decoding)
                try reader.end()
            }
        } catch let error as Misread {
            throw WireFieldError(error.path.isEmpty ? "" : JSONPointer.to(error.path), error.message)
        }
    }

    /// A member of an answer besides its sample list, for ``decode(_:more:)``'s `more` to read.
    package struct Member {
        fileprivate var reader: JSONReader
        fileprivate var decoding: Decoding

        package mutating func string() throws -> String {
            try reader.string()
        }

        package mutating func integer() throws -> Int {
            try reader.integer()
        }

        /// A value through its generated `Decodable` code.
        package mutating func decoded<Value: Decodable>(_ type: Value.Type) throws -> Value {
            try decoding.decoded(type, &reader)
        }
    }

    /// A value read wrongly: where, from the value being read (named from the inside out as the reading unwinds), and why.
    private struct Misread: Error {
        var path: [String]
        let message: String

        init(_ path: [String], _ message: String) {
            self.path = path
            self.message = message
        }

        /// At the value being read.
        init(_ message: String) {
            self.init([], message)
        }
    }

    /// Runs `work`, which reads the member or element `component` (nil: the whole text); what goes wrong in it is placed
    /// under that name. Names are made only for errors, never on the way through.
    private static func within<T>(_ component: @autoclosure () -> String?, _ work: () throws -> T) throws -> T {
        do {
            return try work()
        } catch var error as Misread {
            if let component = component() { error.path.insert(component, at: 0) }
            throw error
        } catch let error as JSONReader.Malformed {
            throw Misread(component().map { [$0] } ?? [], "\(error.message) (byte \(error.offset))")
        }
    }

    /// What reading one list needs more than once: the decoder of compound fields, the dates' reader.
    fileprivate struct Decoding {
        let dates = ExactDateTranscoder()
        lazy var decoder = ExactDateTranscoder.jsonDecoder()

        /// A compound field through its generated `Decodable` code.
        mutating func decoded<Value: Decodable>(_ type: Value.Type, _ reader: inout JSONReader) throws -> Value {
            let text = try reader.skipValue()
            do {
                return try decoder.decode(type, from: Data(text))
            } catch let error as DecodingError {
                let (path, reason): ([any CodingKey], String) = switch error {
                case .keyNotFound(let key, let context): (context.codingPath + [key], "is required")
                case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context): (context.codingPath, context.debugDescription)
                @unknown default: ([], "\(error)")
                }
                throw Misread(path.map { $0.intValue.map(String.init) ?? $0.stringValue }, reason)
            }
        }

        /// The last date text read and its date (see `Parts.last`).
        private var last: (text: String, date: Date)?

        mutating func date(_ reader: inout JSONReader) throws -> Date {
            let text = try reader.string()
            if let last, last.text == text { return last.date }
            do {
                let date = try dates.decode(text)
                last = (text, date)
                return date
            } catch {
                throw Misread("\"\(text)\" is not an RFC 3339 date-time")
            }
        }
    }

    /// A `samples` array, each element named by its index when misread.
    private static func sampleArray(_ reader: inout JSONReader, decoding: inout Decoding) throws -> [Sample] {
        var read: [Sample] = []
        try reader.array { reader, index in read.append(try within(String(index)) { try sample(&reader, decoding: &decoding) }) }
        return read
    }

    private static func sample(_ reader: inout JSONReader, decoding: inout Decoding) throws -> Sample {
        var uuid: String?, type: String?, start: Date?, end: Date?
        var sample = Sample(uuid: "", _type: "", startDate: .distantPast, endDate: .distantPast)
        try reader.object { reader, key in
            try within(key) {
                switch key {
                case "uuid": uuid = try reader.string()
                case "type": type = try reader.string()
                case "startDate": start = try decoding.date(&reader)
                case "endDate": end = try decoding.date(&reader)
                default:
                    if reader.null() { return }
                    switch key {
                    case "quantity": sample.quantity = try quantity(&reader)
                    case "value": sample.value = try reader.integer()
                    case "metadata": sample.metadata = .init(additionalProperties: try metadata(&reader, decoding: &decoding))
                    case "source": sample.source = try source(&reader)
                    case "device": sample.device = try device(&reader)
                    // Their ranges are the reader's to check (an index within the list), as with the generated code.
                    case "sourceIndex": sample.sourceIndex = try reader.integer()
                    case "deviceIndex": sample.deviceIndex = try reader.integer()
                    case "count": sample.count = try reader.integer()
                    case "series": sample.series = try decoding.decoded(Components.Schemas.SeriesSummary.self, &reader)
                    case "workout": sample.workout = try decoding.decoded(Components.Schemas.Workout.self, &reader)
                    case "objects": sample.objects = try decoding.decoded([Components.Schemas.CorrelationMember].self, &reader)
                    case "clinical": sample.clinical = try decoding.decoded(Components.Schemas.ClinicalRecord.self, &reader)
                    case "electrocardiogram": sample.electrocardiogram = try decoding.decoded(Components.Schemas.Electrocardiogram.self, &reader)
                    case "document": sample.document = try decoding.decoded(Components.Schemas.CDADocument.self, &reader)
                    case "audiogram": sample.audiogram = try decoding.decoded(Components.Schemas.Audiogram.self, &reader)
                    case "scoredAssessment": sample.scoredAssessment = try decoding.decoded(Components.Schemas.ScoredAssessment.self, &reader)
                    case "stateOfMind": sample.stateOfMind = try decoding.decoded(Components.Schemas.StateOfMind.self, &reader)
                    case "medicationDoseEvent":
                        sample.medicationDoseEvent = try decoding.decoded(Components.Schemas.MedicationDoseEvent.self, &reader)
                    case "visionPrescription":
                        sample.visionPrescription = try decoding.decoded(Components.Schemas.VisionPrescription.self, &reader)
                    default: throw Misread("is not a field of a sample")
                    }
                }
            }
        }
        guard let uuid else { throw Misread(["uuid"], "is required") }
        guard let type else { throw Misread(["type"], "is required") }
        guard let start else { throw Misread(["startDate"], "is required") }
        guard let end else { throw Misread(["endDate"], "is required") }
        sample.uuid = uuid
        sample._type = type
        sample.startDate = start
        sample.endDate = end
        return sample
    }

    private static func quantity(_ reader: inout JSONReader) throws -> Components.Schemas.Quantity {
        var value: Double?, unit: String?
        try reader.object { reader, key in
            try within(key) {
                switch key {
                case "value": value = try reader.double()
                case "unit": unit = try reader.string()
                default: throw Misread("is not a field of a quantity")
                }
            }
        }
        guard let value else { throw Misread(["value"], "is required") }
        guard let unit else { throw Misread(["unit"], "is required") }
        return .init(value: value, unit: unit)
    }

    private static func metadata(_ reader: inout JSONReader, decoding: inout Decoding) throws -> [String: Components.Schemas.MetadataValue] {
        var values: [String: Components.Schemas.MetadataValue] = [:]
        try reader.object { reader, key in
            try within(key) {
                switch try reader.kind() {
                case .string: values[key] = .case1(try reader.string())
                case .number: values[key] = .case2(try reader.double())
                case .bool: values[key] = .case3(try reader.bool())
                case .object:
                    // A quantity ({value, unit}) or a date ({date}), as the document's oneOf tells them apart.
                    var value: Double?, unit: String?, date: Date?, other = false
                    try reader.object { reader, member in
                        try within(member) {
                            switch member {
                            case "value": value = try reader.double()
                            case "unit": unit = try reader.string()
                            case "date": date = try decoding.date(&reader)
                            default: other = true; try reader.skipValue()
                            }
                        }
                    }
                    if let value, let unit, date == nil, !other {
                        values[key] = .Quantity(.init(value: value, unit: unit))
                    } else if let date, value == nil, unit == nil, !other {
                        values[key] = .MetadataDate(.init(date: date))
                    } else {
                        throw Misread("a metadata value is a string, a number, a boolean, a quantity ({value, unit}) or a date ({date})")
                    }
                case .array, .null:
                    throw Misread("a metadata value is a string, a number, a boolean, a quantity ({value, unit}) or a date ({date})")
                }
            }
        }
        return values
    }

    private static func source(_ reader: inout JSONReader) throws -> Components.Schemas.Source {
        var name: String?, bundle: String?
        var source = Components.Schemas.Source(name: "", bundleIdentifier: "")
        try reader.object { reader, key in
            try within(key) {
                if reader.null() { return }
                switch key {
                case "name": name = try reader.string()
                case "bundleIdentifier": bundle = try reader.string()
                case "version": source.version = try reader.string()
                case "productType": source.productType = try reader.string()
                case "operatingSystemVersion": source.operatingSystemVersion = try reader.string()
                default: try reader.skipValue()   // the document allows a source more fields
                }
            }
        }
        guard let name else { throw Misread(["name"], "is required") }
        guard let bundle else { throw Misread(["bundleIdentifier"], "is required") }
        source.name = name
        source.bundleIdentifier = bundle
        return source
    }

    private static func device(_ reader: inout JSONReader) throws -> Components.Schemas.Device {
        var device = Components.Schemas.Device()
        try reader.object { reader, key in
            try within(key) {
                if reader.null() { return }
                let value = try reader.string()
                switch key {
                case "name": device.name = value
                case "manufacturer": device.manufacturer = value
                case "model": device.model = value
                case "hardwareVersion": device.hardwareVersion = value
                case "firmwareVersion": device.firmwareVersion = value
                case "softwareVersion": device.softwareVersion = value
                case "localIdentifier": device.localIdentifier = value
                case "udiDeviceIdentifier": device.udiDeviceIdentifier = value
                default: throw Misread("is not a field of a device")
                }
            }
        }
        return device
    }
}
