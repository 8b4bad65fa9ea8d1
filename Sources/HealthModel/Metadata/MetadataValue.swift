public import Foundation

/// One metadata value, in the kinds HealthKit allows: a string, a date, a number, a Boolean or a quantity.
///
/// `HKObject.metadata` keeps Apple's `[String: Any]` shape; this enum is how OpenHealthKit holds the
/// same values safely (it is `Sendable` and `Hashable`) and how stores and wire formats read them:
///
/// ```swift
/// let value = try HKMetadataValue(any: 72.5)   // .double(72.5)
/// value.anyValue as? Double                    // 72.5
/// ```
public enum HKMetadataValue: Sendable, Hashable, CustomStringConvertible {
    case string(String)
    case date(Date)
    case integer(Int)
    case double(Double)
    case bool(Bool)
    case quantity(HKQuantity)

    /// Converts a value given in `[String: Any]` metadata. Anything HealthKit does not allow
    /// (arrays, dictionaries, `Data`, `URL`, `NSNull`…), and non-finite numbers, are an
    /// `HKError(.errorInvalidArgument)` naming the key.
    public init(any value: Any, key: String = "") throws {
        let named = key.isEmpty ? "a metadata value" : "metadata key \"\(key)\""
        switch value {
        case let v as HKMetadataValue: self = v
        case let v as String: self = .string(v)
        case let v as Substring: self = .string(String(v))
        case let v as Date: self = .date(v)
        case let v as Bool: self = .bool(v)
        case let v as HKQuantity:
            guard v.doubleValue.isFinite else {
                throw HKError.invalidArgument("\(named) holds a non-finite quantity")
            }
            self = .quantity(v)
        case let v as Int: self = .integer(v)
        case let v as Int8: self = .integer(Int(v))
        case let v as Int16: self = .integer(Int(v))
        case let v as Int32: self = .integer(Int(v))
        case let v as Int64: self = .integer(Int(v))
        case let v as UInt8: self = .integer(Int(v))
        case let v as UInt16: self = .integer(Int(v))
        case let v as UInt32: self = .integer(Int(v))
        case let v as UInt:
            guard let i = Int(exactly: v) else { throw HKError.invalidArgument("\(named) is an integer too large to store") }
            self = .integer(i)
        case let v as UInt64:
            guard let i = Int(exactly: v) else { throw HKError.invalidArgument("\(named) is an integer too large to store") }
            self = .integer(i)
        case let v as Double:
            guard v.isFinite else { throw HKError.invalidArgument("\(named) is \(v); numbers must be finite") }
            self = .double(v)
        case let v as Float:
            guard v.isFinite else { throw HKError.invalidArgument("\(named) is \(v); numbers must be finite") }
            self = .double(Double(v))
        case let v as NSNumber:
            let d = v.doubleValue
            guard d.isFinite else { throw HKError.invalidArgument("\(named) is \(d); numbers must be finite") }
            if let i = Int(exactly: d), v.int64Value == Int64(i) { self = .integer(i) } else { self = .double(d) }
        default:
            throw HKError.invalidArgument(
                "\(named) has a value of type \(type(of: value)); HealthKit allows String, Date, number, Bool and HKQuantity"
            )
        }
    }

    /// The value as `[String: Any]` metadata holds it (String, Date, Int, Double, Bool or HKQuantity).
    public var anyValue: Any {
        switch self {
        case .string(let v): v
        case .date(let v): v
        case .integer(let v): v
        case .double(let v): v
        case .bool(let v): v
        case .quantity(let v): v
        }
    }

    /// The numeric value of an integer, double or Boolean (1/0), as HealthKit's NSNumber would give it.
    public var numberValue: Double? {
        switch self {
        case .integer(let v): Double(v)
        case .double(let v): v
        case .bool(let v): v ? 1 : 0
        default: nil
        }
    }

    public var description: String {
        switch self {
        case .string(let v): v
        case .date(let v): v.formatted(.iso8601)
        case .integer(let v): String(v)
        case .double(let v): String(v)
        case .bool(let v): v ? "true" : "false"
        case .quantity(let v): v.description
        }
    }
}
