import Foundation
@testable import HealthModel

// Archiving the way apps do (secure coding, unarchivedObject(ofClass:from:)), and forging the archives an app could
// be handed: another class name over an object's fields, fields replaced or removed.

/// Archives `object` with secure coding and reads it back as `type`.
func roundTrip<T: NSObject & NSSecureCoding>(_ object: T, as type: T.Type = T.self) throws -> T? {
    let data = try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: true)
    return try NSKeyedUnarchiver.unarchivedObject(ofClass: type, from: data)
}

/// `data` read as `type`, or `nil` when it does not decode. swift-corelibs-foundation throws when an object fails to
/// decode (and returns nil for a root that is a plain value, such as a string): either way there is no object.
func decoded<T: NSObject & NSCoding>(_ type: T.Type, from data: Data) -> T? {
    (try? NSKeyedUnarchiver.unarchivedObject(ofClass: type, from: data)) ?? nil
}

/// An archive holding `object`'s fields, under `archivedClass`'s name when given, with the `replacing` values in
/// place of the object's own (a Bool, Int or Double is encoded as such, anything else as an object) and the
/// `removing` keys left out. `object` may be `nil` to forge an archive of only the `replacing` fields.
func forgedArchive(
    of object: (any NSCoding)?, as archivedClass: AnyClass? = nil, replacing: [String: Any] = [:], removing: Set<String> = []
) throws -> Data {
    let forger = Forger(object: object, archivedClass: archivedClass ?? type(of: object as AnyObject), replacing: replacing, removing: removing)
    return try NSKeyedArchiver.archivedData(withRootObject: forger, requiringSecureCoding: true)
}

/// Encodes another object's fields, changed, under the name of a class it picks (`classForKeyedArchiver`).
private final class Forger: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }

    let object: (any NSCoding)?
    let archivedClass: AnyClass
    let replacing: [String: Any]
    let removing: Set<String>

    init(object: (any NSCoding)?, archivedClass: AnyClass, replacing: [String: Any], removing: Set<String>) {
        (self.object, self.archivedClass, self.replacing, self.removing) = (object, archivedClass, replacing, removing)
    }

    required init?(coder: NSCoder) { nil }

    override var classForKeyedArchiver: AnyClass? { archivedClass }
    override var classForCoder: AnyClass { archivedClass }

    func encode(with coder: NSCoder) {
        object?.encode(with: FilteringCoder(coder, skipping: removing.union(replacing.keys)))
        for (key, value) in replacing {
            switch value {
            case let value as Bool: coder.encode(value, forKey: key)
            case let value as Int: coder.encode(value, forKey: key)
            case let value as Double: coder.encode(value, forKey: key)
            default: coder.encode(value, forKey: key)
            }
        }
    }
}

/// Passes an object's encoding on to the real archiver, leaving out some keys.
private final class FilteringCoder: NSCoder {
    let base: NSCoder
    let skipped: Set<String>

    init(_ base: NSCoder, skipping skipped: Set<String>) {
        (self.base, self.skipped) = (base, skipped)
        super.init()
    }

    override var allowsKeyedCoding: Bool { true }
    override var requiresSecureCoding: Bool { base.requiresSecureCoding }

    override func encode(_ object: Any?, forKey key: String) { if !skipped.contains(key) { base.encode(object, forKey: key) } }
    override func encode(_ value: Bool, forKey key: String) { if !skipped.contains(key) { base.encode(value, forKey: key) } }
    override func encode(_ value: Int, forKey key: String) { if !skipped.contains(key) { base.encode(value, forKey: key) } }
    override func encode(_ value: Int32, forKey key: String) { if !skipped.contains(key) { base.encode(value, forKey: key) } }
    override func encode(_ value: Int64, forKey key: String) { if !skipped.contains(key) { base.encode(value, forKey: key) } }
    override func encode(_ value: Float, forKey key: String) { if !skipped.contains(key) { base.encode(value, forKey: key) } }
    override func encode(_ value: Double, forKey key: String) { if !skipped.contains(key) { base.encode(value, forKey: key) } }
}

/// Whether two metadata dictionaries hold the same entries, each of the same kind with the same bits (`==` on
/// `HKMetadataValue` takes -0.0 for 0.0 and quantities in other units as equal).
func identical(_ lhs: [String: HKMetadataValue]?, _ rhs: [String: HKMetadataValue]?) -> Bool {
    guard let lhs, let rhs else { return lhs == nil && rhs == nil }
    guard lhs.count == rhs.count else { return false }
    return lhs.allSatisfy { key, value in rhs[key].map { identical(value, $0) } ?? false }
}

func identical(_ lhs: HKMetadataValue, _ rhs: HKMetadataValue) -> Bool {
    switch (lhs, rhs) {
    case let (.double(l), .double(r)): l.bitPattern == r.bitPattern
    case let (.date(l), .date(r)): l.timeIntervalSinceReferenceDate.bitPattern == r.timeIntervalSinceReferenceDate.bitPattern
    case let (.quantity(l), .quantity(r)): identical(l, r)
    case (.string, .string), (.integer, .integer), (.bool, .bool): lhs == rhs
    default: false
    }
}

/// Same unit (same string) and the same value bits.
func identical(_ lhs: HKQuantity?, _ rhs: HKQuantity?) -> Bool {
    guard let lhs, let rhs else { return lhs == nil && rhs == nil }
    return lhs.unit == rhs.unit && lhs.unit.unitString == rhs.unit.unitString && lhs.doubleValue.bitPattern == rhs.doubleValue.bitPattern
}

/// Objects every sample test reuses: a full source revision, a device with all eight fields, metadata of every kind.
enum CodingFixtures {
    static let start = Date(timeIntervalSinceReferenceDate: 785_000_000.123_456_7)
    static let end = start.addingTimeInterval(1_234.567_8)

    static let revision = HKSourceRevision(
        source: HKSource(name: "Steps", bundleIdentifier: "com.example.steps"), version: "3.1", productType: "iPhone14,2",
        operatingSystemVersion: OperatingSystemVersion(majorVersion: 17, minorVersion: 2, patchVersion: 1))

    static let device = HKDevice(
        name: "Watch", manufacturer: "Apple Inc.", model: "Watch", hardwareVersion: "Watch6,1", firmwareVersion: "1.2",
        softwareVersion: "10.1", localIdentifier: "local-1", udiDeviceIdentifier: "00888888888888")

    static let glucoseUnit = HKUnit.moleUnit(with: .milli, molarMass: HKUnitMolarMassBloodGlucose).unitDivided(by: .liter())

    static let everyKindOfMetadata: [String: HKMetadataValue] = [
        "text": .string("héllo · wörld\n"),
        "when": .date(Date(timeIntervalSinceReferenceDate: 712_345_678.123_456_7)),
        "smallest": .integer(Int.min),
        "largest": .integer(Int.max),
        "one": .integer(1),
        "yes": .bool(true),
        "no": .bool(false),
        "sum": .double(0.1 + 0.2),
        "subnormal": .double(5e-324),
        "negativeZero": .double(-0.0),
        "glucose": .quantity(HKQuantity(unit: glucoseUnit, doubleValue: 5.5 + 1e-12)),
        HKMetadataKeyWasUserEntered: .bool(true),
    ]
}
