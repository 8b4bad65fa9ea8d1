import Crypto
import Foundation
import HealthModel
import HealthStore

/// Reads a top-level `<Record>` straight from the scanner's buffer into an `ImportedSample` row — no attribute
/// dictionary, no HealthKit object, no `String` for what repeats. Records come in long runs of one type, source and
/// device, so the last type, unit, category value and source seen are compared byte for byte before anything is parsed;
/// other sources and devices are parsed once each.
///
/// Each row's UUID is derived from what the record is — type, source, device (without the `0x…` pointer that changes
/// per record), instants, value in the type's canonical unit rounded to 6 significant digits, and the instant it was
/// created (`creationDate`, when the export gives one other than the end: two records alike in all else are two
/// HealthKit objects; a record without one is taken as created at its end, and a later export says so) — so
/// the same data read again, from another export or written at another UTC offset or in another unit, gets the same
/// UUID. Its first 48
/// bits are the start in milliseconds since 1970, so an export's rows, sorted by time within a type, land near one
/// another in the store's UUID index instead of all over it.
struct ExportRecordReader {
    /// A Record whose start tag was read; its `MetadataEntry`s may follow.
    struct Open {
        var row: ImportedSample
        var line: Int
        var metadata: [(String, String)] = []
        /// Children the model does not hold (a `HeartRateVariabilityMetadataList`), as written.
        var extra: String?
    }

    enum TypeKind {
        case quantity(HKQuantityType)
        case category(HKCategoryType)
        case unknown
    }

    /// The last bytes read for one attribute and what they gave.
    struct Recent<Value> {
        var bytes: [UInt8] = []
        var value: Value?

        /// The value of the bytes last seen, when `raw` holds the same bytes.
        func lookup(_ raw: UnsafeBufferPointer<UInt8>) -> Value? {
            guard let value, raw.count == bytes.count,
                  raw.isEmpty || bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, raw.baseAddress!, raw.count) == 0 }) else { return nil }
            return value
        }

        mutating func store(_ raw: UnsafeBufferPointer<UInt8>, _ made: Value) {
            bytes = Array(raw)
            value = made
        }

        mutating func value(for raw: UnsafeBufferPointer<UInt8>, make: () -> Value) -> Value {
            if let known = lookup(raw) { return known }
            let made = make()
            store(raw, made)
            return made
        }
    }

    /// What a source attribute set (name, version, device) stands for.
    struct Source {
        var name: String
        var revision: HKSourceRevision
        var device: HKDevice?
        /// The identity of records of this source and device, before their type.
        var key: [UInt8]
    }

    /// Whether rows also carry the UUID an import before creation dates counted gave them (`ImportedSample.legacyUUID`),
    /// for a store that holds such imports.
    var legacyIdentities = false

    private var types = Recent<(name: String, kind: TypeKind)>()
    private var sourceNames = Recent<String>(), versions = Recent<String?>(), deviceTexts = Recent<String?>()
    private var source: Source?
    private var units = Recent<HKUnit?>()
    private var categoryValues = Recent<Int?>()

    /// The row shape (type, unit, source, device) last used and the identity hash fed with its type and source, which
    /// every record of the shape shares; other shapes met are kept by what makes them.
    private var shape: ShapeEntry?
    private var shapes: [ShapeKey: ShapeEntry] = [:]

    struct ShapeKey: Hashable {
        let type: String
        let unit: String?
        let revision: ObjectIdentifier
        let device: ObjectIdentifier?
    }

    struct ShapeEntry {
        let shape: ImportedSample.Shape
        /// SHA-256 after "Record|<type>|<source key>": a record's identity continues from here.
        let prefix: SHA256
    }

    /// Device strings and source revisions repeat on every record of a source: parsed once each, shared by every row
    /// (the store looks their rows up by object). Device strings are keyed without their `0x…` pointer.
    private(set) var devices: [Substring: HKDevice?] = [:]
    private var revisions: [String: HKSourceRevision] = [:]
    private var parsedUnits: [String: HKUnit] = [:]

    /// Reads a Record's start tag; a reason when it cannot be stored.
    mutating func open(_ tag: XMLStartTagScanner.RawTag) -> Result<Open, Reason> {
        guard let typeRaw = tag.raw("type"), !typeRaw.bytes.isEmpty else { return .failure(Reason("a Record without type")) }
        let type = types.value(for: typeRaw.bytes) {
            let name = Self.text(typeRaw)
            switch HKObjectType.type(forIdentifier: name) {
            case let quantity as HKQuantityType: return (name, .quantity(quantity))
            case let category as HKCategoryType: return (name, .category(category))
            default: return (name, .unknown)
            }
        }
        if case .unknown = type.kind { return .failure(Reason("unknown record type \(type.name) (kept as written)", unknownType: true)) }
        guard let nameRaw = tag.raw("sourceName") ?? tag.raw("source") else { return .failure(Reason("a Record without sourceName")) }
        guard let start = tag.raw("startDate").flatMap({ ExportDates.parse($0.bytes) }) else { return .failure(Self.unreadable("startDate")) }
        guard let end = tag.raw("endDate").flatMap({ ExportDates.parse($0.bytes) }) else { return .failure(Self.unreadable("endDate")) }
        guard end >= start else { return .failure(Reason("a Record that ends before it starts")) }
        let createdRaw = tag.raw("creationDate")
        let created = createdRaw.flatMap { ExportDates.parse($0.bytes) }.map { $0 - Date.timeIntervalBetween1970AndReferenceDate }
        // An unreadable creation date would silently become the end date (and another identity): refused instead.
        if createdRaw != nil && created == nil { return .failure(Self.unreadable("creationDate")) }
        let source = self.source(name: nameRaw, version: tag.raw("sourceVersion"), device: tag.raw("device"))
        let identity: Double, stored: Double, originalValue: Double?, unitString: String?
        switch type.kind {
        case .quantity(let quantityType):
            // 2015 exports wrote averaged heart rate as min/max/average/recordCount, without a value.
            guard let valueRaw = tag.raw("value") ?? tag.raw("average"), let value = Double(Self.text(valueRaw)), value.isFinite else {
                return .failure(Reason("a \(type.name) Record whose value is not a number"))
            }
            let unitRaw = tag.raw("unit")
            let unitBytes = unitRaw?.bytes ?? UnsafeBufferPointer(start: nil, count: 0)
            let unit: HKUnit?
            if let known = units.lookup(unitBytes) {
                unit = known
            } else {
                unit = self.unit(unitRaw.map(Self.text) ?? "")
                units.store(unitBytes, unit)
            }
            guard let unit, unit.isCompatible(with: quantityType.canonicalUnit),
                  let canonical = try? unit.convert(value, to: quantityType.canonicalUnit), let base = try? unit.toBase(value) else {
                return .failure(Reason("unit \"\(unitRaw.map(Self.text) ?? "")\" does not fit \(type.name)"))
            }
            guard canonical.isFinite, base.isFinite else {
                return .failure(Reason("value \(value) \(unit.unitString) of \(type.name) is too large to hold"))
            }
            (identity, stored, originalValue, unitString) = (Self.rounded(canonical), base, value, unit.unitString)
        case .category(let categoryType):
            let valueRaw = tag.raw("value")
            let category: Int?
            if valueRaw == nil && categoryType.info.valueEnumName == "HKCategoryValue" {
                // A type whose only value is "not applicable" (a mindful session): Health writes no value at all.
                category = HKCategoryValue.notApplicable.rawValue
            } else {
                category = categoryValues.value(for: valueRaw?.bytes ?? UnsafeBufferPointer(start: nil, count: 0)) {
                    let text = valueRaw.map(Self.text) ?? ""
                    return categoryValueRawValuesByName[text] ?? Int(text)
                }
            }
            guard let category else {
                return .failure(Reason("\"\(valueRaw.map(Self.text) ?? "")\" is not a value of \(type.name)"))
            }
            // The store keeps values as doubles: beyond 2^53 a category value would not come back as written.
            guard abs(category) <= 1 << 53 else {
                return .failure(Reason("category value \(category) of \(type.name) is outside what a category value can be (±2^53)"))
            }
            (identity, stored, originalValue, unitString) = (Double(category), Double(category), nil, nil)
        case .unknown:
            return .failure(Reason("unknown record type \(type.name) (kept as written)", unknownType: true))
        }
        let entry = shapeEntry(type: type.name, isQuantity: originalValue != nil, unit: unitString, source: source)
        var hash = entry.prefix
        withUnsafeBytes(of: (start.bitPattern.bigEndian, end.bitPattern.bigEndian, identity.bitPattern.bigEndian)) { hash.update(bufferPointer: $0) }
        let legacy = legacyIdentities ? ExportSources.timeOrderedUUID(milliseconds: start * 1000, digest: hash.finalize()) : nil
        let endSince2001 = end - Date.timeIntervalBetween1970AndReferenceDate
        if let created, Self.milliseconds(created) != Self.milliseconds(endSince2001) {
            withUnsafeBytes(of: Self.milliseconds(created).bigEndian) { hash.update(bufferPointer: $0) }
        }
        var row = ImportedSample(uuid: ExportSources.timeOrderedUUID(milliseconds: start * 1000, digest: hash.finalize()), shape: entry.shape,
                                 start: start - Date.timeIntervalBetween1970AndReferenceDate, end: end - Date.timeIntervalBetween1970AndReferenceDate,
                                 value: stored, originalValue: originalValue)
        // Without a creation date (2015 exports), the end: what a later export writes back, which identifies alike.
        row.created = created ?? endSince2001
        row.legacyUUID = legacy
        return .success(Open(row: row, line: tag.line))
    }

    /// The row of a Record whose element has ended, with its metadata typed.
    func close(_ open: Open) -> ImportedSample {
        var row = open.row
        let metadata = ExportMetadata.typed(open.metadata)
        if metadata != nil || open.extra != nil { row.details = ImportedSample.Details(metadata: metadata, extra: open.extra) }
        return row
    }

    /// The shape of a record of this type, unit and source, and its identity hash so far: the last one when it fits.
    private mutating func shapeEntry(type: String, isQuantity: Bool, unit: String?, source: Source) -> ShapeEntry {
        if let shape, shape.shape.type == type, shape.shape.unit == unit, shape.shape.revision === source.revision,
           shape.shape.device === source.device {
            return shape
        }
        let key = ShapeKey(type: type, unit: unit, revision: ObjectIdentifier(source.revision), device: source.device.map(ObjectIdentifier.init))
        if let known = shapes[key] {
            shape = known
            return known
        }
        var prefix = SHA256()
        prefix.update(data: Array("Record|\(type)|".utf8))
        prefix.update(data: source.key)
        let made = ShapeEntry(shape: ImportedSample.Shape(type: type, isQuantity: isQuantity, unit: unit, revision: source.revision,
                                                          device: source.device), prefix: prefix)
        shapes[key] = made
        shape = made
        return made
    }

    /// A device from its export string, parsed once per distinct device.
    mutating func device(_ text: String?) -> HKDevice? {
        guard let text else { return nil }
        let key = text.firstRange(of: ">, ").map { text[$0.upperBound...] } ?? Substring(text)
        if let known = devices[key] { return known }
        let parsed = ExportSources.device(text)
        devices[key] = parsed
        return parsed
    }

    /// The source revision of a name, version and device, made once per distinct combination.
    mutating func revision(_ sourceName: String, _ version: String?, _ device: HKDevice?) -> HKSourceRevision {
        let key = "\(sourceName)|\(version ?? "")|\(Self.deviceKey(device))"
        if let known = revisions[key] { return known }
        let made = ExportSources.revision(sourceName: sourceName, sourceVersion: version, device: device)
        revisions[key] = made
        return made
    }

    mutating func unit(_ text: String) -> HKUnit? {
        if let known = parsedUnits[text] { return known }
        guard let parsed = try? HKUnit.parse(text) else { return nil }
        parsedUnits[text] = parsed
        return parsed
    }

    private mutating func source(name: (bytes: UnsafeBufferPointer<UInt8>, hasEntity: Bool),
                                 version: (bytes: UnsafeBufferPointer<UInt8>, hasEntity: Bool)?,
                                 device: (bytes: UnsafeBufferPointer<UInt8>, hasEntity: Bool)?) -> Source {
        var changed = source == nil
        let nameText = sourceNames.value(for: name.bytes) { changed = true; return Self.text(name) }
        let versionText = versions.value(for: version?.bytes ?? UnsafeBufferPointer(start: nil, count: 0)) { changed = true; return version.map(Self.text) }
        // The device string without its pointer (`<<HKDevice: 0x…>, name:…`): the pointer changes per record.
        let deviceTail = device.map { raw -> UnsafeBufferPointer<UInt8> in
            guard let comma = raw.bytes.firstIndex(of: UInt8(ascii: ",")) else { return raw.bytes }
            return UnsafeBufferPointer(rebasing: raw.bytes[comma...])
        }
        let deviceText = deviceTexts.value(for: deviceTail ?? UnsafeBufferPointer(start: nil, count: 0)) { changed = true; return device.map(Self.text) }
        if !changed, let source { return source }
        let parsedDevice = self.device(deviceText)
        let revision = self.revision(nameText, versionText, parsedDevice)
        let made = Source(name: nameText, revision: revision, device: parsedDevice, key: Array("\(nameText)|\(Self.deviceKey(parsedDevice))|".utf8))
        source = made
        return made
    }

    /// An attribute's text, entities decoded.
    static func text(_ raw: (bytes: UnsafeBufferPointer<UInt8>, hasEntity: Bool)) -> String {
        raw.hasEntity ? XMLStartTagScanner.decodeEntities(Array(raw.bytes)) : String(decoding: raw.bytes, as: UTF8.self)
    }

    static func deviceKey(_ device: HKDevice?) -> String {
        guard let device else { return "" }
        return [device.name, device.manufacturer, device.model, device.hardwareVersion, device.softwareVersion].map { $0 ?? "" }.joined(separator: ";")
    }

    /// A creation instant (seconds since 2001) as whole milliseconds, the form identities hash.
    static func milliseconds(_ seconds: Double) -> Int64 { Int64((seconds * 1000).rounded()) }

    /// A value rounded to 6 significant digits, so that the same value exported in another unit (154.3236 lb, 70 kg)
    /// compares equal once converted to the canonical unit.
    static func rounded(_ value: Double) -> Double {
        guard value != 0, value.isFinite else { return 0 }
        let scale = pow(10, 5 - floor(log10(abs(value))))
        return (value * scale).rounded() / scale
    }

    /// Why a Record was left out.
    /// Why an element whose date attribute is absent, unreadable or impossible (30 February, 24:00, an offset of +9999)
    /// is left out.
    static func dateReason(_ attribute: String, of element: String) -> String {
        "a \(element) whose \(attribute) is not a possible date (yyyy-MM-dd HH:mm:ss ±hhmm)"
    }

    static func unreadable(_ attribute: String) -> Reason { Reason(dateReason(attribute, of: "Record")) }

    struct Reason: Error {
        let text: String
        /// The record's type is not in the catalog: the element is kept as written instead.
        var unknownType = false
        init(_ text: String, unknownType: Bool = false) {
            self.text = text
            self.unknownType = unknownType
        }
    }
}
