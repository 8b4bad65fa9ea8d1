import Foundation
import HealthAPI
import Hummingbird

/// The limits the API document sets on request bodies — string lengths, array sizes, number ranges — checked before a
/// handler runs (the generated code checks types, required and unknown fields, but not these). A body over a limit is
/// 400 naming the field (a JSON pointer), as every other bad input is.
///
/// Each request schema is compiled once into the parts of it that hold limits, so a body is walked only where a limit
/// can apply: the samples of a batch, whose schema sets none, are not visited.
struct SchemaLimits: Sendable {
    /// The limits of one place in a body, and of the places below it that have any.
    private final class Rule: Sendable {
        let minLength, maxLength, minItems, maxItems, minimum, maximum: Double?
        /// The limits of the declared properties that have any; `declared` names them all (one without limits is
        /// not an additional property).
        let properties: [String: Rule]
        let declared: Set<String>
        let additionalProperties: Rule?
        let items: Rule?

        init?(_ schema: JSONValue, schemas: [String: JSONValue], depth: Int = 0) {
            guard depth < 32, case .object(let written) = schema else { return nil }
            let rules = APIDocument.following(written, in: schemas)
            func number(_ key: String) -> Double? { if case .number(let limit)? = rules[key] { limit } else { nil } }
            func rule(_ key: String) -> Rule? { rules[key].flatMap { Rule($0, schemas: schemas, depth: depth + 1) } }
            (minLength, maxLength, minItems, maxItems) = (number("minLength"), number("maxLength"), number("minItems"), number("maxItems"))
            (minimum, maximum) = (number("minimum"), number("maximum"))
            var properties: [String: Rule] = [:]
            if case .object(let declared)? = rules["properties"] {
                for (name, schema) in declared { properties[name] = Rule(schema, schemas: schemas, depth: depth + 1) }
                self.declared = Set(declared.keys)
            } else {
                declared = []
            }
            (self.properties, additionalProperties, items) = (properties, rule("additionalProperties"), rule("items"))
            let own = [minLength, maxLength, minItems, maxItems, minimum, maximum].contains { $0 != nil }
            guard own || !properties.isEmpty || additionalProperties != nil || items != nil else { return nil }
        }
    }

    /// Each operation's compiled request body limits.
    private let operations: [(path: APIDocument.Path, method: HTTPRequest.Method, rule: Rule)]

    init(document: APIDocument) {
        operations = document.paths.flatMap { path in
            path.methods.compactMap { method, schema in
                schema.flatMap { Rule($0, schemas: document.schemas) }.map { (path, method, $0) }
            }
        }
    }

    /// The first limit `body` breaks for this request, as a problem, or nil (also for a body that is not JSON: the
    /// decoder names that fault).
    func violation(method: HTTPRequest.Method, path: String, body: Data) -> Problem? {
        let segments = path.split(separator: "/")
        guard let rule = operations.first(where: { $0.method == method && $0.path.matches(segments) })?.rule else { return nil }
        return body.withUnsafeBytes { bytes in
            var scanner = Scanner(bytes: bytes.bindMemory(to: UInt8.self))
            var place: [String] = []
            return (try? scanner.check(rule, at: &place)) ?? nil
        }
    }

    /// Walks the JSON text once, reading only what a rule applies to and skipping the rest (a batch's samples) as
    /// bytes: the check costs a fraction of decoding the body.
    private struct Scanner {
        struct Malformed: Error {}
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        mutating func check(_ rule: Rule?, at place: inout [String]) throws -> Problem? {
            skipSpace()
            guard index < bytes.count else { throw Malformed() }
            guard let rule else { try skipValue(); return nil }
            func refuse(_ what: String) -> Problem {
                let pointer = JSONPointer.to(place)
                return Problem(.badRequest, "invalid request body", detail: "\(pointer): \(what)", code: .errorInvalidArgument, field: pointer)
            }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                let length = Double(try string().unicodeScalars.count)
                if let most = rule.maxLength, length > most { return refuse("at most \(text(most)) characters, not \(text(length))") }
                if let least = rule.minLength, length < least { return refuse("at least \(text(least)) characters, not \(text(length))") }
            case UInt8(ascii: "["):
                index += 1
                var count = 0
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1 } else {
                    while true {
                        place.append(String(count))
                        let problem = try check(rule.items, at: &place)
                        place.removeLast()
                        if let problem { return problem }
                        count += 1
                        if try separator(closing: "]") { break }
                    }
                }
                if let most = rule.maxItems, Double(count) > most { return refuse("at most \(text(most)) items, not \(count)") }
                if let least = rule.minItems, Double(count) < least { return refuse("at least \(text(least)) items, not \(count)") }
            case UInt8(ascii: "{"):
                index += 1
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return nil }
                while true {
                    skipSpace()
                    let key = try string()
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw Malformed() }
                    index += 1
                    place.append(key)
                    let problem = try check(rule.declared.contains(key) ? rule.properties[key] : rule.additionalProperties, at: &place)
                    place.removeLast()
                    if let problem { return problem }
                    if try separator(closing: "}") { break }
                }
            default:
                let start = index
                try skipValue()
                guard let given = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)) else { return nil }
                if let most = rule.maximum, given > most { return refuse("at most \(text(most)), not \(text(given))") }
                if let least = rule.minimum, given < least { return refuse("at least \(text(least)), not \(text(given))") }
            }
            return nil
        }

        /// After an element: true at the closing bracket, false at a comma.
        mutating func separator(closing: Unicode.Scalar) throws -> Bool {
            skipSpace()
            guard index < bytes.count else { throw Malformed() }
            defer { index += 1 }
            if bytes[index] == UInt8(ascii: closing) { return true }
            guard bytes[index] == UInt8(ascii: ",") else { throw Malformed() }
            return false
        }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
        }

        /// Steps over one value: a string, or brackets counted to their match (strings inside stepped over whole),
        /// or a number or literal.
        mutating func skipValue() throws {
            guard index < bytes.count else { throw Malformed() }
            switch bytes[index] {
            case UInt8(ascii: "\""): try skipString()
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                var depth = 0
                repeat {
                    guard index < bytes.count else { throw Malformed() }
                    switch bytes[index] {
                    case UInt8(ascii: "\""): try skipString(); continue
                    case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                    case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
                    default: break
                    }
                    index += 1
                } while depth > 0
            default:
                let start = index
                while index < bytes.count, !",]} \n\r\t".utf8.contains(bytes[index]) { index += 1 }
                guard index > start else { throw Malformed() }
            }
        }

        mutating func skipString() throws {
            index += 1
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") { index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1 }
            guard index < bytes.count else { throw Malformed() }
            index += 1
        }

        /// A string's text, its escapes decoded (the limits count Unicode scalars, as JSON Schema does).
        mutating func string() throws -> String {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw Malformed() }
            let start = index
            try skipString()
            let quoted = UnsafeBufferPointer(rebasing: bytes[start..<index])
            if !quoted.contains(UInt8(ascii: "\\")) { return String(decoding: quoted.dropFirst().dropLast(), as: UTF8.self) }
            let text = Data(quoted)
            guard let decoded = try? JSONSerialization.jsonObject(with: text, options: [.fragmentsAllowed]) as? String else { throw Malformed() }
            return decoded
        }

        private func text(_ number: Double) -> String { SchemaLimits.text(number) }
    }

    /// A number as JSON writes it: whole numbers without a fraction.
    fileprivate static func text(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}
