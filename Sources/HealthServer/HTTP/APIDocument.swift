import Foundation
import HealthAPI
import Hummingbird

/// The API document the daemon serves (`/openapi.json`), read once: each path with its methods and their request body
/// schemas, and the shared schemas they refer to. What the middleware checks against, so the daemon and its document
/// agree.
struct APIDocument: Sendable {
    struct Path: Sendable {
        /// The path's segments; `nil` stands for a `{parameter}`.
        let segments: [String?]
        /// Each method the path takes, with the schema of its JSON request body (`nil`: none).
        let methods: [HTTPRequest.Method: JSONValue?]

        func matches(_ path: [Substring]) -> Bool {
            segments.count == path.count && zip(segments, path).allSatisfy { $0 == nil || $0! == $1 }
        }
    }

    let paths: [Path]
    /// `components.schemas`, by name.
    let schemas: [String: JSONValue]

    /// A schema's rules with its `$ref` (if any) followed to the shared schema it names.
    static func following(_ rules: [String: JSONValue], in schemas: [String: JSONValue]) -> [String: JSONValue] {
        guard case .string(let reference)? = rules["$ref"], let name = reference.split(separator: "/").last,
              case .object(let target)? = schemas[String(name)] else { return rules }
        return target
    }

    init(json: String = OpenAPIDocument.json) {
        let root = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] ?? [:]
        let documented = root["paths"] as? [String: [String: Any]] ?? [:]
        var paths = documented.map { path, operations in
            Path(segments: path.split(separator: "/").map { $0.hasPrefix("{") ? nil : String($0) },
                 methods: Dictionary(uniqueKeysWithValues: operations.compactMap { method, operation in
                     HTTPRequest.Method(method.uppercased()).map { method in
                         let content = ((operation as? [String: Any])?["requestBody"] as? [String: Any])?["content"] as? [String: Any]
                         return (method, ((content?["application/json"] as? [String: Any])?["schema"]).map(JSONValue.init))
                     }
                 }))
        }
        paths.append(Path(segments: ["openapi.json"], methods: [.get: nil]))   // the document itself
        self.paths = paths
        schemas = ((root["components"] as? [String: Any])?["schemas"] as? [String: Any] ?? [:]).mapValues(JSONValue.init)
    }

    /// The documented paths `path` is an instance of.
    func paths(matching path: String) -> [Path] {
        let segments = path.split(separator: "/")
        return paths.filter { $0.matches(segments) }
    }
}

/// A JSON schema (or value) as the checks need it: strings, numbers, arrays, objects; the rest (null) unchecked.
enum JSONValue: Sendable {
    case string(String)
    case number(Double)
    case array([JSONValue])
    case object([String: JSONValue])
    case other

    init(_ value: Any) {
        switch value {
        case let string as String: self = .string(string)
        case let number as NSNumber: self = .number(number.doubleValue)
        case let array as [Any]: self = .array(array.map(JSONValue.init))
        case let object as [String: Any]: self = .object(object.mapValues(JSONValue.init))
        default: self = .other
        }
    }
}
