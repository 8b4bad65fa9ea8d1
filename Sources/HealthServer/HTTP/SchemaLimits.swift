import Foundation
import HealthAPI
import HealthModel
import Hummingbird

/// The limits the API document sets on request bodies — string lengths, array sizes, number ranges — checked before a
/// handler runs (the generated code checks types, required and unknown fields, but not these). A body over a limit is
/// 400 naming the field (a JSON pointer), as every other bad input is.
struct SchemaLimits: Sendable {
    /// Each operation's path (segments; `nil` a `{parameter}`), method and request body schema (JSON).
    private let operations: [(segments: [String?], method: String, schema: JSONValue)]
    private let components: [String: JSONValue]

    init(document: String = OpenAPIDocument.json) {
        let root = (try? JSONSerialization.jsonObject(with: Data(document.utf8))) as? [String: Any] ?? [:]
        let paths = root["paths"] as? [String: [String: Any]] ?? [:]
        var operations: [(segments: [String?], method: String, schema: JSONValue)] = []
        for (path, methods) in paths {
            for (method, operation) in methods {
                let content = ((operation as? [String: Any])?["requestBody"] as? [String: Any])?["content"] as? [String: Any]
                guard let schema = (content?["application/json"] as? [String: Any])?["schema"] else { continue }
                operations.append((path.split(separator: "/").map { $0.hasPrefix("{") ? nil : String($0) }, method.uppercased(), JSONValue(schema)))
            }
        }
        self.operations = operations
        let schemas = (root["components"] as? [String: Any])?["schemas"] as? [String: Any] ?? [:]
        components = schemas.mapValues(JSONValue.init)
    }

    /// The first limit `body` breaks for this request, as a problem, or nil.
    func violation(method: String, path: String, body: Data) -> Problem? {
        let segments = path.split(separator: "/")
        guard let operation = operations.first(where: { operation in
            operation.method == method && operation.segments.count == segments.count
                && zip(operation.segments, segments).allSatisfy { $0 == nil || $0! == $1 }
        }), let value = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else { return nil }
        return check(JSONValue(value), against: operation.schema, at: [], depth: 0)
    }

    private func check(_ value: JSONValue, against schema: JSONValue, at path: [String], depth: Int) -> Problem? {
        guard depth < 32, case .object(var rules) = schema else { return nil }
        if case .string(let reference)? = rules["$ref"], let name = reference.split(separator: "/").last,
           case .object(let resolved)? = components[String(name)] {
            rules = resolved
        }
        func number(_ key: String) -> Double? { if case .number(let limit)? = rules[key] { limit } else { nil } }
        let pointer = "/" + path.joined(separator: "/")
        func refuse(_ what: String) -> Problem {
            Problem(.badRequest, "invalid request body", detail: "\(pointer): \(what)", code: .errorInvalidArgument, field: pointer)
        }
        switch value {
        case .string(let text):
            let length = Double(text.unicodeScalars.count)
            if let most = number("maxLength"), length > most { return refuse("at most \(Int(most)) characters, not \(Int(length))") }
            if let least = number("minLength"), length < least { return refuse("at least \(Int(least)) characters, not \(Int(length))") }
        case .number(let given):
            if let most = number("maximum"), given > most { return refuse("at most \(Self.text(most)), not \(Self.text(given))") }
            if let least = number("minimum"), given < least { return refuse("at least \(Self.text(least)), not \(Self.text(given))") }
        case .array(let elements):
            if let most = number("maxItems"), Double(elements.count) > most { return refuse("at most \(Int(most)) items, not \(elements.count)") }
            if let least = number("minItems"), Double(elements.count) < least { return refuse("at least \(Int(least)) items, not \(elements.count)") }
            if let items = rules["items"] {
                for (index, element) in elements.enumerated() {
                    if let problem = check(element, against: items, at: path + [String(index)], depth: depth + 1) { return problem }
                }
            }
        case .object(let members):
            let properties: [String: JSONValue] = if case .object(let properties)? = rules["properties"] { properties } else { [:] }
            for key in members.keys.sorted() {
                guard let schema = properties[key] ?? rules["additionalProperties"] else { continue }
                let token = key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
                if let problem = check(members[key]!, against: schema, at: path + [token], depth: depth + 1) { return problem }
            }
        case .other:
            break
        }
        return nil
    }

    /// A number as JSON writes it: whole numbers without a fraction.
    private static func text(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}

/// A JSON value as the checks need it: strings, numbers, arrays, objects; the rest (null) unchecked.
enum JSONValue: Sendable {
    case string(String)
    case number(Double)
    case array([JSONValue])
    case object([String: JSONValue])
    case other

    init(_ value: Any) {
        switch value {
        case let string as String: self = .string(string)
        // A boolean is an NSNumber too; none stands where the document sets a range (the generated decoder refuses one).
        case let number as NSNumber: self = .number(number.doubleValue)
        case let array as [Any]: self = .array(array.map(JSONValue.init))
        case let object as [String: Any]: self = .object(object.mapValues(JSONValue.init))
        default: self = .other
        }
    }
}
