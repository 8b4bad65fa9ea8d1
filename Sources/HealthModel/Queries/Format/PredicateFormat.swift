import Foundation

/// Reads the predicate format strings HealthKit code writes over HealthKit's key paths —
/// `NSPredicate(format: "%K >= %@", HKPredicateKeyPathStartDate, date as NSDate)`,
/// `NSPredicate(format: "metadata.%K != YES", HKMetadataKeyWasUserEntered)` — into the same `SampleFilter` the
/// `HKQuery.predicateFor…` factories make, so the store runs them as SQL. Anything it does not understand becomes
/// `.invalid` with the reason, and the query that uses it fails with `errorInvalidArgument`.
///
/// Grammar: comparisons `keyPath op value` joined by `AND`/`&&`, `OR`/`||`, `NOT`/`!` and parentheses, and
/// `TRUEPREDICATE`/`FALSEPREDICATE`. Operators: `==`, `=`, `!=`, `<>`, `<`, `<=`, `=<`, `>`, `>=`, `=>`, `IN`. Values:
/// `%@`, `%d`/`%i`/`%ld`/`%lld`/`%u`/`%lu`, `%f`/`%lf`/`%g`, numbers, quoted strings, `YES`/`NO`/`TRUE`/`FALSE`, `nil`/`NULL`
/// and `{a, b}` lists. Key paths: `%K` or written out, `metadata.<key>` or `metadata.%K`.
package struct PredicateFormat {
    package static func filter(_ format: String, _ arguments: [Any]) -> SampleFilter {
        var parser = PredicateFormat(format: format, arguments: arguments)
        do {
            let filter = try parser.parseOr()
            guard parser.peek() == nil else { throw parser.failure("unexpected \"\(parser.peek()!.text)\"") }
            guard parser.argumentIndex == arguments.count else {
                throw parser.failure("\(arguments.count) arguments for \(parser.argumentIndex) placeholders")
            }
            return filter
        } catch let error as HKError {
            return .invalid(error.message)
        } catch {
            return .invalid("\(error)")
        }
    }

    private let format: String
    private let tokens: [Token]
    private var position = 0
    private let arguments: [Any]
    private var argumentIndex = 0

    private init(format: String, arguments: [Any]) {
        self.format = format
        self.arguments = arguments
        self.tokens = Token.scan(format)
    }

    // MARK: - Grammar

    private mutating func parseOr() throws -> SampleFilter {
        var parts = [try parseAnd()]
        while accept("OR") || accept("||") { parts.append(try parseAnd()) }
        return parts.count == 1 ? parts[0] : .or(parts)
    }

    private mutating func parseAnd() throws -> SampleFilter {
        var parts = [try parseNot()]
        while accept("AND") || accept("&&") { parts.append(try parseNot()) }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    private mutating func parseNot() throws -> SampleFilter {
        if accept("NOT") || accept("!") { return .not(try parseNot()) }
        if accept("(") {
            let inner = try parseOr()
            guard accept(")") else { throw failure("a \"(\" is never closed") }
            return inner
        }
        if accept("TRUEPREDICATE") { return .and([]) }
        if accept("FALSEPREDICATE") { return .or([]) }
        return try parseComparison()
    }

    private mutating func parseComparison() throws -> SampleFilter {
        let keyPath = try parseKeyPath()
        guard let token = next() else { throw failure("\(keyPath) is compared with nothing") }
        let op: Operator
        switch token.text.uppercased() {
        case "==", "=": op = .equal
        case "!=", "<>": op = .notEqual
        case "<": op = .compare(.lessThan)
        case "<=", "=<": op = .compare(.lessThanOrEqualTo)
        case ">": op = .compare(.greaterThan)
        case ">=", "=>": op = .compare(.greaterThanOrEqualTo)
        case "IN": op = .in
        default: throw failure("\"\(token.text)\" is not an operator OpenHealthKit reads (==, !=, <, <=, >, >=, IN)")
        }
        let value = try parseValue()
        return try KeyPathComparison(keyPath: keyPath, op: op, value: value).filter()
    }

    private mutating func parseKeyPath() throws -> String {
        var parts: [String] = []
        repeat {
            guard let token = next() else { throw failure("a key path is missing") }
            if token.text == "%K" {
                guard let key = try argument() as? String else { throw failure("%K takes a key path string") }
                parts.append(key)
            } else if token.isIdentifier {
                parts.append(token.text)
            } else {
                throw failure("\"\(token.text)\" is not a key path")
            }
        } while accept(".")
        return parts.joined(separator: ".")
    }

    private mutating func parseValue() throws -> Any? {
        guard let token = next() else { throw failure("a value is missing") }
        switch token.text {
        case "%@": return try argument()
        case "%d", "%i", "%ld", "%lld", "%u", "%lu", "%llu", "%hd", "%hu":
            let value = try argument()
            guard let number = Self.number(value) else { throw failure("\(token.text) takes an integer, not \(type(of: value))") }
            return number
        case "%f", "%lf", "%g", "%e":
            let value = try argument()
            guard let number = Self.number(value) else { throw failure("\(token.text) takes a number, not \(type(of: value))") }
            return number
        case "{":
            var items: [Any?] = []
            if accept("}") { return items }
            repeat { items.append(try parseValue()) } while accept(",")
            guard accept("}") else { throw failure("a \"{\" list is never closed") }
            return items
        default: break
        }
        switch token.text.uppercased() {
        case "YES", "TRUE": return true
        case "NO", "FALSE": return false
        case "NIL", "NULL": return nil
        default: break
        }
        if let string = token.quoted { return string }
        if let number = Double(token.text) { return number }
        throw failure("\"\(token.text)\" is not a value")
    }

    // MARK: - Tokens

    private func peek() -> Token? { position < tokens.count ? tokens[position] : nil }

    private mutating func next() -> Token? {
        defer { position += 1 }
        return peek()
    }

    private mutating func accept(_ text: String) -> Bool {
        guard let token = peek(), token.quoted == nil, token.text.uppercased() == text else { return false }
        position += 1
        return true
    }

    private mutating func argument() throws -> Any {
        guard argumentIndex < arguments.count else { throw failure("more placeholders than arguments") }
        defer { argumentIndex += 1 }
        return arguments[argumentIndex]
    }

    private func failure(_ reason: String) -> HKError {
        HKError.invalidArgument("NSPredicate(format: \"\(format)\"): \(reason)")
    }

    static func number(_ value: Any?) -> Double? {
        switch value {
        case let value as Bool: value ? 1 : 0
        case let value as Int: Double(value)
        case let value as Int32: Double(value)
        case let value as Int64: Double(value)
        case let value as UInt: Double(value)
        case let value as Double: value
        case let value as Float: Double(value)
        case let value as NSNumber: value.doubleValue
        default: nil
        }
    }

    enum Operator {
        case equal, notEqual, compare(ComparisonOperator), `in`
    }

    struct Token {
        let text: String
        let quoted: String?

        var isIdentifier: Bool {
            quoted == nil && text.first.map { $0.isLetter || $0 == "_" || $0 == "@" } == true
        }

        static func scan(_ format: String) -> [Token] {
            var tokens: [Token] = []
            var characters = Array(format)[...]
            let symbols = ["==", "!=", "<>", "<=", "=<", ">=", "=>", "&&", "||", "=", "<", ">", "!", "(", ")", "{", "}", ",", "."]
            while let first = characters.first {
                if first.isWhitespace {
                    characters = characters.dropFirst()
                } else if first == "\"" || first == "'" {
                    let body = characters.dropFirst().prefix { $0 != first }
                    tokens.append(Token(text: String(first) + String(body) + String(first), quoted: String(body)))
                    characters = characters.dropFirst(body.count + 2)
                } else if first == "%" {
                    let spec = characters.dropFirst().prefix { $0.isLetter || $0 == "@" }
                    let length = spec.firstIndex(where: { "@Kdiuxfegs".contains($0) }).map { $0 - spec.startIndex + 1 } ?? spec.count
                    tokens.append(Token(text: "%" + String(spec.prefix(length)), quoted: nil))
                    characters = characters.dropFirst(1 + length)
                } else if let symbol = symbols.first(where: { characters.starts(with: $0) }),
                          symbol != "." || !(characters.dropFirst().first?.isNumber ?? false) {
                    tokens.append(Token(text: symbol, quoted: nil))
                    characters = characters.dropFirst(symbol.count)
                } else {
                    let word = characters.prefix { !$0.isWhitespace && !"=!<>&|(){},\"'%".contains($0) && $0 != "." }
                    let number = characters.prefix { $0.isNumber || $0 == "." || $0 == "-" || $0 == "e" || $0 == "E" }
                    let taken = first.isNumber || first == "-" ? number : (word.isEmpty ? characters.prefix(1) : word)
                    tokens.append(Token(text: String(taken), quoted: nil))
                    characters = characters.dropFirst(taken.count)
                }
            }
            return tokens
        }
    }
}
