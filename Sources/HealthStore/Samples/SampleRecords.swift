import Foundation
import GRDB
import HealthModel

/// The kinds of rows in `sample`.
enum SampleKind: Int, Codable {
    case quantity = 0
    case category = 1
    case correlation = 2
    case workout = 3
    case document = 4
    case clinicalRecord = 5
    case route = 6
    case heartbeatSeries = 7
    case electrocardiogram = 8
    case stateOfMind = 9
    case scoredAssessment = 10
    case audiogram = 11
    case visionPrescription = 12
    case medicationDoseEvent = 13
}

/// A row of `sample`: one saved sample. Quantities keep both the SI-base value (for statistics in SQL)
/// and the value and unit the app gave (for a faithful round trip).
struct SampleRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "sample"

    var id: Int64?
    var uuid: String
    var type: String
    var kind: SampleKind
    var startDate: Double
    var endDate: Double
    var value: Double?
    var originalValue: Double?
    var unit: String?
    var count: Int
    var sourceId: Int64
    var sourceVersion: String?
    var productType: String?
    var osVersion: String?
    var deviceId: Int64?
    var correlationId: Int64?
    var savedAt: Double

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// Encodes by hand, for the same reason on the save path.
    func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["uuid"] = uuid
        container["typeCode"] = SampleTypeCode.code(type)
        container["kind"] = kind.rawValue
        container["startDate"] = startDate
        container["endDate"] = endDate
        container["value"] = value
        container["originalValue"] = originalValue
        container["unit"] = unit
        container["count"] = count
        container["sourceId"] = sourceId
        container["sourceVersion"] = sourceVersion
        container["productType"] = productType
        container["osVersion"] = osVersion
        container["deviceId"] = deviceId
        container["correlationId"] = correlationId
        container["savedAt"] = savedAt
    }

    enum Columns {
        static let uuid = Column(CodingKeys.uuid)
        static let sourceId = Column(CodingKeys.sourceId)
        static let correlationId = Column(CodingKeys.correlationId)
        static let startDate = Column(CodingKeys.startDate)
    }
}

extension SampleRecord {
    /// Decodes by hand: Codable's keyed decoding was most of the time of reading 100 samples.
    init(row: Row) throws {
        id = row["id"]
        uuid = row["uuid"]
        let code: Int64 = row["typeCode"]
        guard let type = SampleTypeCode.identifier(code) else {
            throw HKError(.errorDatabaseInaccessible, "the store holds a sample of a type it does not know (code \(code))")
        }
        self.type = type
        guard let kind = SampleKind(rawValue: row["kind"]) else {
            throw HKError(.errorDatabaseInaccessible, "the store holds a sample row of unknown kind \(row["kind"] as Int? ?? -1)")
        }
        self.kind = kind
        startDate = row["startDate"]
        endDate = row["endDate"]
        value = row["value"]
        originalValue = row["originalValue"]
        unit = row["unit"]
        count = row["count"]
        sourceId = row["sourceId"]
        sourceVersion = row["sourceVersion"]
        productType = row["productType"]
        osVersion = row["osVersion"]
        deviceId = row["deviceId"]
        correlationId = row["correlationId"]
        savedAt = row["savedAt"]
    }
}

/// A row of `source`: an app that saved data.
struct SourceRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "source"
    var id: Int64?
    var bundleIdentifier: String
    var name: String
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A row of `device`.
struct DeviceRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "device"
    static let propertyColumns = [
        "name", "manufacturer", "model", "hardwareVersion", "firmwareVersion", "softwareVersion", "localIdentifier",
        "udiDeviceIdentifier",
    ]

    var id: Int64?
    var fingerprint: String
    var name, manufacturer, model, hardwareVersion, firmwareVersion, softwareVersion, localIdentifier, udiDeviceIdentifier: String?

    init(_ device: HKDevice) {
        let values = [device.name, device.manufacturer, device.model, device.hardwareVersion, device.firmwareVersion,
                      device.softwareVersion, device.localIdentifier, device.udiDeviceIdentifier]
        // Unit separator between fields, a marker for NULL, so distinct devices never share a fingerprint.
        fingerprint = values.map { $0.map { "=" + $0 } ?? "∅" }.joined(separator: "\u{1F}")
        (name, manufacturer, model, hardwareVersion) = (device.name, device.manufacturer, device.model, device.hardwareVersion)
        (firmwareVersion, softwareVersion) = (device.firmwareVersion, device.softwareVersion)
        (localIdentifier, udiDeviceIdentifier) = (device.localIdentifier, device.udiDeviceIdentifier)
    }

    var device: HKDevice {
        HKDevice(name: name, manufacturer: manufacturer, model: model, hardwareVersion: hardwareVersion,
                 firmwareVersion: firmwareVersion, softwareVersion: softwareVersion, localIdentifier: localIdentifier,
                 udiDeviceIdentifier: udiDeviceIdentifier)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension SourceRecord {
    /// Decodes by hand: Codable's keyed decoding was a tenth of a small query's time in the daemon.
    init(row: Row) throws {
        id = row["id"]
        bundleIdentifier = row["bundleIdentifier"]
        name = row["name"]
    }
}

extension DeviceRecord {
    /// Decodes by hand (Codable is slow on the read path).
    init(row: Row) throws {
        id = row["id"]
        fingerprint = row["fingerprint"]
        (name, manufacturer, model, hardwareVersion) = (row["name"], row["manufacturer"], row["model"], row["hardwareVersion"])
        (firmwareVersion, softwareVersion) = (row["firmwareVersion"], row["softwareVersion"])
        (localIdentifier, udiDeviceIdentifier) = (row["localIdentifier"], row["udiDeviceIdentifier"])
    }
}

/// A row of `metadata`: one key of one sample, typed.
struct MetadataRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "metadata"


    var sampleId: Int64
    var key: String
    var kind: Kind
    var text: String?
    var number: Double?
    var integer: Int64?

    func value() throws -> HKMetadataValue { try kind.decode(text: text, number: number, integer: integer) }
}

extension MetadataRecord {
    /// Decodes by hand (Codable is slow on the read path).
    init(row: Row) throws {
        sampleId = row["sampleId"]
        key = row["key"]
        guard let kind = Kind(rawValue: row["kind"]) else {
            throw HKError(.errorDatabaseInaccessible, "the store holds metadata of unknown kind \(row["kind"] as Int? ?? -1)")
        }
        self.kind = kind
        text = row["text"]
        number = row["number"]
        integer = row["integer"]
    }
}

extension MetadataRecord {
    /// How a metadata value is laid out in the `kind`, `text`, `number` and `integer` columns.
    enum Kind: Int, Codable {
        case string = 0, date, integer, double, bool, quantity

        static func encode(_ value: HKMetadataValue) -> (Kind, String?, Double?, Int64?) {
            switch value {
            case .string(let v): (.string, v, nil, nil)
            case .date(let v): (.date, nil, v.timeIntervalSinceReferenceDate, nil)
            case .integer(let v): (.integer, nil, nil, Int64(v))
            case .double(let v): (.double, nil, v, nil)
            case .bool(let v): (.bool, nil, nil, v ? 1 : 0)
            case .quantity(let q): (.quantity, q.unit.unitString, q.doubleValue, nil)
            }
        }

        func decode(text: String?, number: Double?, integer: Int64?) throws -> HKMetadataValue {
            switch self {
            case .string: .string(text ?? "")
            case .date: .date(Date(timeIntervalSinceReferenceDate: number ?? 0))
            case .integer: .integer(Int(integer ?? 0))
            case .double: .double(number ?? 0)
            case .bool: .bool((integer ?? 0) != 0)
            case .quantity: .quantity(HKQuantity(unit: try HKUnit.parse(text ?? ""), doubleValue: number ?? 0))
            }
        }
    }
}
