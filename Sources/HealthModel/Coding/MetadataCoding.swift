package import Foundation

/// How archives hold metadata: a flat array of strings, three per entry — key, kind, value — which every keyed
/// archiver holds under secure coding. Each kind keeps its identity (a Bool stays a Bool, not the integer 1) and
/// numbers keep their exact bits: doubles and dates in Swift's shortest round-trip form, integers in decimal,
/// quantities as that double, a space and the unit string.
package enum MetadataCoding {
    /// Encodes `metadata` for `key`; `nil` metadata encodes nothing (and decodes as `nil`, not as empty).
    package static func encode(_ metadata: [String: HKMetadataValue]?, forKey key: String, with coder: NSCoder) {
        guard let metadata else { return }
        var entries: [String] = []
        entries.reserveCapacity(metadata.count * 3)
        for (name, value) in metadata.sorted(by: { $0.key < $1.key }) {
            let (kind, text) = entry(for: value)
            entries += [name, kind, text]
        }
        coder.encode(entries, forKey: key)
    }

    /// The metadata archived for `key`, or `nil` when there is none. An entry of an unknown kind, a value that does
    /// not read back (a non-finite number, a unit string that does not parse) or a repeated key is an error.
    package static func decode(forKey key: String, from coder: NSCoder) throws -> [String: HKMetadataValue]? {
        guard let entries = try coder.decodeIfPresent([String].self, forKey: key) else { return nil }
        guard entries.count.isMultiple(of: 3) else {
            throw ArchiveError.invalid("metadata holds \(entries.count) strings; entries are key, kind and value")
        }
        var metadata: [String: HKMetadataValue] = [:]
        for start in stride(from: 0, to: entries.count, by: 3) {
            let name = entries[start]
            guard !name.isEmpty, metadata[name] == nil else {
                throw ArchiveError.invalid("metadata has an empty or repeated key \"\(name)\"")
            }
            metadata[name] = try value(kind: entries[start + 1], text: entries[start + 2], key: name)
        }
        return metadata
    }

    private static func entry(for value: HKMetadataValue) -> (kind: String, text: String) {
        switch value {
        case .string(let v): ("string", v)
        case .date(let v): ("date", String(v.timeIntervalSinceReferenceDate))
        case .integer(let v): ("integer", String(v))
        case .double(let v): ("double", String(v))
        case .bool(let v): ("bool", v ? "true" : "false")
        case .quantity(let v): ("quantity", "\(String(v.doubleValue)) \(v.unit.unitString)")
        }
    }

    private static func value(kind: String, text: String, key: String) throws -> HKMetadataValue {
        func invalid() -> ArchiveError { .invalid("metadata key \"\(key)\" holds \"\(text)\", which does not read as a \(kind) value") }
        func finite(_ text: some StringProtocol) throws -> Double {
            guard let value = Double(text), value.isFinite else { throw invalid() }
            return value
        }
        switch kind {
        case "string":
            return .string(text)
        case "date":
            return .date(Date(timeIntervalSinceReferenceDate: try finite(text)))
        case "integer":
            guard let value = Int(text) else { throw invalid() }
            return .integer(value)
        case "double":
            return .double(try finite(text))
        case "bool":
            guard text == "true" || text == "false" else { throw invalid() }
            return .bool(text == "true")
        case "quantity":
            guard let space = text.firstIndex(of: " "), let unit = try? HKUnit.parse(String(text[text.index(after: space)...])) else {
                throw invalid()
            }
            return .quantity(HKQuantity(unit: unit, doubleValue: try finite(text[..<space])))
        default:
            throw ArchiveError.invalid("metadata key \"\(key)\" has a value of unknown kind \"\(kind)\"")
        }
    }
}
