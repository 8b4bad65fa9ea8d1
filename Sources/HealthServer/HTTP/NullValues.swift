import Foundation
import HealthAPI
import HealthModel
import Hummingbird

/// `null` where the API document does not allow it. The document allows it only where it allows any value (a
/// predicate's fields, `additionalProperties: true`): elsewhere an optional field is left out, never sent as null. The
/// generated decoder reads a null as an absent field, so a body the document says is wrong (`"timeoutSeconds": null`)
/// would be answered as if it were right; this refuses it first, naming the field.
///
/// The check first makes one pass over the bytes, looking only outside strings, where the only `n` JSON allows begins
/// `null`: a body without one (nearly every body) costs that pass and nothing else. A body with one is read and
/// walked beside its schema.
struct NullValues: Sendable {
    /// Each operation's request body schema.
    private let operations: [(path: APIDocument.Path, method: HTTPRequest.Method, schema: JSONValue)]
    private let schemas: [String: JSONValue]

    init(document: APIDocument) {
        operations = document.paths.flatMap { path in
            path.methods.compactMap { method, schema in schema.map { (path, method, $0) } }
        }
        schemas = document.schemas
    }

    /// A problem naming the first null `body` may not hold, or nil (also for a body that is not JSON: the decoder
    /// says so).
    func violation(method: HTTPRequest.Method, path: String, body: Data) -> Problem? {
        guard Self.mayHoldNull(body) else { return nil }
        let segments = path.split(separator: "/")
        guard let schema = operations.first(where: { $0.method == method && $0.path.matches(segments) })?.schema,
              let root = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]),
              let place = firstNull(in: root, schema: schema, at: [], depth: 0) else { return nil }
        let pointer = JSONPointer.to(place)
        return Problem(.badRequest, "invalid request body",
                       detail: "\(pointer): null is not a value this API takes here; leave an optional field out",
                       code: .errorInvalidArgument, field: pointer)
    }

    /// Whether the bytes have an `n` outside strings.
    private static func mayHoldNull(_ body: Data) -> Bool {
        body.withUnsafeBytes { bytes in
            var index = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index += 1
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\"") { index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1 }
                case UInt8(ascii: "n"): return true
                default: break
                }
                index += 1
            }
            return false
        }
    }

    /// The path of the first null (array order, then key order) where `schema` does not allow one. A place the schema
    /// leaves open (`nil`) takes any value.
    private func firstNull(in value: Any, schema: JSONValue?, at path: [String], depth: Int) -> [String]? {
        guard let rules = resolved(schema), depth < 64 else { return nil }
        if value is NSNull { return allowsNull(rules) ? nil : path }
        if case .array(let alternatives)? = rules["oneOf"] ?? rules["anyOf"] {
            // The alternative for this kind of value: objects and arrays each have at most one in this document.
            let kind = value is [String: Any] ? "object" : value is [Any] ? "array" : nil
            let chosen = alternatives.first { resolved($0)?["type"].map { if case .string(let type) = $0 { type == kind } else { false } } ?? false }
            return chosen.flatMap { firstNull(in: value, schema: $0, at: path, depth: depth + 1) }
        }
        switch value {
        case let array as [Any]:
            for (index, element) in array.enumerated() {
                if let found = firstNull(in: element, schema: rules["items"], at: path + [String(index)], depth: depth + 1) { return found }
            }
        case let object as [String: Any]:
            var declared: [String: JSONValue] = [:]
            if case .object(let properties)? = rules["properties"] { declared = properties }
            for key in object.keys.sorted() {
                // A declared field has its schema; another one is open when additionalProperties is true or a schema.
                let fieldSchema: JSONValue? = declared[key] ?? {
                    if case .object(let schema)? = rules["additionalProperties"] { return .object(schema) }
                    return nil
                }()
                if let found = firstNull(in: object[key]!, schema: fieldSchema, at: path + [key], depth: depth + 1) { return found }
            }
        default: break
        }
        return nil
    }

    /// A schema's rules with a `$ref` followed; nil for an open place (no schema, or `{}`).
    private func resolved(_ schema: JSONValue?) -> [String: JSONValue]? {
        guard case .object(let rules)? = schema, !rules.isEmpty else { return nil }
        return APIDocument.following(rules, in: schemas)
    }

    private func allowsNull(_ rules: [String: JSONValue]) -> Bool {
        switch rules["type"] {
        case .string(let type)?: return type == "null"
        case .array(let types)?: return types.contains { if case .string("null") = $0 { true } else { false } }
        default:
            guard case .array(let alternatives)? = rules["oneOf"] ?? rules["anyOf"] else { return false }
            return alternatives.contains { resolved($0).map(allowsNull) ?? true }
        }
    }
}
