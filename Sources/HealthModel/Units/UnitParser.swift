/// Reads HealthKit's unit-string grammar (Reference/hkunit.md §1):
///
/// ```
/// unit     := quotient
/// quotient := product [ "/" product ]            ; ONE "/" in the whole string; all after it is the denominator
/// product  := factor { ("." | "*" | "·") factor }
/// factor   := ( atom | "(" [quotient] ")" ) [ "^" ["+"|"-"] digits ]
/// atom     := fixed | [prefix] prefixable | [prefix] "mol<" number ">"
/// ```
///
/// So `kg/m.s^2` is `kg/(m·s^2)`, `ml/(kg*min)` is `mL/kg·min`, and `()` is the null unit. Atom names are
/// matched whole first (`mmHg`, `min`, `d`, `cmAq`, `kcal`), then as prefix + prefixable unit with the
/// two-letter prefixes `mc` and `da` tried before the one-letter ones (`mcg`, `dam`, `dL`).
///
/// ```swift
/// let factors = try UnitParser.parse("kcal/(kg*hr)")   // kcal^1, kg^-1, hr^-1
/// ```
///
/// One pass over the UTF-8 bytes, no regular expressions, no allocation beyond the factor list for
/// ordinary strings. Parentheses nest at most ``maximumNesting`` deep and exponents stay within
/// ±``HKUnit/maximumExponent``, so no input can exhaust the stack or overflow. Every failure is an
/// `HKError(.errorInvalidArgument)` naming the string, the problem and its 1-based character position.
struct UnitParser {
    /// The deepest parenthesis nesting accepted.
    static let maximumNesting = 32
    /// Molar masses longer than this are rejected before conversion.
    private static let maximumNumberLength = 64

    private let bytes: UnsafeBufferPointer<UInt8>
    private let text: String
    private var position = 0
    private var sawSlash = false

    private init(bytes: UnsafeBufferPointer<UInt8>, text: String) {
        self.bytes = bytes
        self.text = text
    }

    /// The factors of the unit `text` spells: distinct atoms, non-zero exponents, in order of first appearance.
    static func parse(_ text: String) throws -> [UnitFactor] {
        var storage = text
        return try storage.withUTF8 { bytes in
            var parser = UnitParser(bytes: bytes, text: text)
            return try parser.parseUnit()
        }
    }

    // MARK: - Grammar

    private mutating func parseUnit() throws -> [UnitFactor] {
        guard !bytes.isEmpty else {
            throw failure("nothing", at: 0, hint: "expected a unit such as \"count/min\"; the null unit is \"()\"")
        }
        var list = UnitFactorList()
        try parseQuotient(into: &list, depth: 0)
        if position < bytes.count {
            if bytes[position] == UInt8(ascii: ")") { throw failure("an unmatched \")\"", at: position) }
            throw unexpected()
        }
        return list.result
    }

    private mutating func parseQuotient(into list: inout UnitFactorList, depth: Int) throws {
        try parseProduct(into: &list, sign: 1, depth: depth)
        guard peek == UInt8(ascii: "/") else { return }
        if sawSlash { throw secondSlash() }
        sawSlash = true
        position += 1
        try parseProduct(into: &list, sign: -1, depth: depth)
        if peek == UInt8(ascii: "/") { throw secondSlash() }
    }

    private mutating func parseProduct(into list: inout UnitFactorList, sign: Int, depth: Int) throws {
        while true {
            try parseFactor(into: &list, sign: sign, depth: depth)
            guard let length = multiplicationLength else { return }
            position += length
        }
    }

    private mutating func parseFactor(into list: inout UnitFactorList, sign: Int, depth: Int) throws {
        let start = position
        if peek == UInt8(ascii: "(") {
            guard depth < Self.maximumNesting else {
                throw failure("parentheses nested more than \(Self.maximumNesting) deep", at: position)
            }
            position += 1
            var group = UnitFactorList()
            if peek != UInt8(ascii: ")") {
                try parseQuotient(into: &group, depth: depth + 1)
            }
            guard peek == UInt8(ascii: ")") else {
                if position == bytes.count { throw failure("an unclosed \"(\"", at: start) }
                throw unexpected()
            }
            position += 1
            let power = try parseOptionalExponent() * sign
            for factor in group.factors where factor.exponent != 0 {
                try add(factor.atom, factor.exponent * power, to: &list, factorAt: start)
            }
        } else {
            let atom = try parseAtom()
            let power = try parseOptionalExponent() * sign
            try add(atom, power, to: &list, factorAt: start)
        }
    }

    private func add(_ atom: UnitAtom, _ exponent: Int, to list: inout UnitFactorList, factorAt start: Int) throws {
        let total = list.add(atom, exponent)
        guard abs(total) <= HKUnit.maximumExponent else {
            throw failure(
                "\"\(atom.symbol)\" raised to the power \(total)", at: start,
                hint: "exponents are limited to ±\(HKUnit.maximumExponent)"
            )
        }
    }

    /// `^n` if present (1 otherwise), with |n| ≤ the exponent limit. Scans every digit, so the work stays
    /// linear and nothing overflows whatever the length.
    private mutating func parseOptionalExponent() throws -> Int {
        guard peek == UInt8(ascii: "^") else { return 1 }
        let caret = position
        position += 1
        var negative = false
        if let sign = peek, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            position += 1
        }
        let digitsStart = position
        var value = 0
        while let byte = peek, Self.isDigit(byte) {
            if value <= HKUnit.maximumExponent { value = value * 10 + Int(byte - UInt8(ascii: "0")) }
            position += 1
        }
        guard position > digitsStart else {
            throw failure("\"^\" without an integer exponent", at: caret, hint: "write a power such as \"m^2\" or \"s^-1\"")
        }
        guard value <= HKUnit.maximumExponent else {
            throw failure("an exponent beyond ±\(HKUnit.maximumExponent)", at: digitsStart)
        }
        return negative ? -value : value
    }

    private mutating func parseAtom() throws -> UnitAtom {
        let start = position
        while let byte = peek, Self.isAtomByte(byte) { position += 1 }
        guard position > start else {
            if position == bytes.count { throw failure("a missing unit", at: position) }
            if bytes[position] == UInt8(ascii: "/") { throw sawSlash ? secondSlash() : failure("a \"/\" with nothing before it", at: position) }
            throw unexpected(expectingUnit: true)
        }
        let name = string(from: start, to: position)
        if peek == UInt8(ascii: "<") {
            return try parseMole(named: name, at: start)
        }
        if let kind = UnitAtomKind(symbol: name) {
            return UnitAtom(kind)
        }
        // Prefix + prefixable unit: the two-letter prefixes "mc" and "da" first, then the one-letter ones.
        var unprefixable: UnitAtomKind?
        let length = position - start
        if length > 2 {
            let first = bytes[start], second = bytes[start + 1]
            let prefix: HKMetricPrefix? =
                first == UInt8(ascii: "m") && second == UInt8(ascii: "c") ? .micro
                : first == UInt8(ascii: "d") && second == UInt8(ascii: "a") ? .deca : nil
            if let prefix, let kind = UnitAtomKind(symbol: string(from: start + 2, to: position)) {
                if kind.isPrefixable { return UnitAtom(kind, prefix: prefix) }
                unprefixable = kind
            }
        }
        if length > 1, let prefix = HKMetricPrefix(singleCharacter: bytes[start]),
           let kind = UnitAtomKind(symbol: string(from: start + 1, to: position)) {
            if kind.isPrefixable { return UnitAtom(kind, prefix: prefix) }
            unprefixable = unprefixable ?? kind
        }
        if name.hasSuffix("mol") {
            throw failure(
                "\(Self.quoted(name)) without a molar mass", at: start,
                hint: "write the grams per mole in angle brackets, such as \"mmol<180.15588000005408>\""
            )
        }
        if let unprefixable {
            throw failure("unknown unit \(Self.quoted(name))", at: start, hint: "\"\(unprefixable.symbol)\" takes no SI prefix")
        }
        throw failure("unknown unit \(Self.quoted(name))", at: start)
    }

    /// The bytes `start..<end` (ASCII here) as a string; short names are small strings, with no allocation.
    private func string(from start: Int, to end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    /// `[prefix]mol<number>`, with `position` at the `<`.
    private mutating func parseMole(named name: String, at start: Int) throws -> UnitAtom {
        let open = position
        guard name.hasSuffix("mol") else {
            throw failure("\"<\" after \(Self.quoted(name))", at: open, hint: "only mol takes a molar mass in angle brackets")
        }
        let prefixSymbol = String(name.dropLast(3))
        guard let prefix = HKMetricPrefix.allCases.first(where: { $0.symbol == prefixSymbol }) else {
            throw failure("unknown unit \(Self.quoted(name))", at: start, hint: "\(Self.quoted(prefixSymbol)) is not an SI prefix")
        }
        position += 1
        let numberStart = position
        while let byte = peek, byte != UInt8(ascii: ">") {
            guard Self.isDigit(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
            else {
                throw unexpected(inMolarMass: true)
            }
            position += 1
            guard position - numberStart <= Self.maximumNumberLength else {
                throw failure("a molar mass longer than \(Self.maximumNumberLength) characters", at: numberStart)
            }
        }
        guard position < bytes.count else {
            throw failure("a \"<\" never closed with \">\"", at: open)
        }
        let number = string(from: numberStart, to: position)
        position += 1
        guard let value = Double(number), let molarMass = UnitAtom.roundedMolarMass(value) else {
            throw failure(
                "the molar mass \"\(number)\"", at: numberStart,
                hint: "a molar mass is a positive, finite number of grams per mole"
            )
        }
        return UnitAtom(.mole, prefix: prefix, molarMass: molarMass)
    }

    // MARK: - Bytes

    private var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    /// The length of the multiplication operator at `position` (`.`, `*`, or `·` = C2 B7), or `nil`.
    private var multiplicationLength: Int? {
        guard let byte = peek else { return nil }
        if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "*") { return 1 }
        if byte == 0xC2, position + 1 < bytes.count, bytes[position + 1] == 0xB7 { return 2 }
        return nil
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isAtomByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "%")
    }

    // MARK: - Errors

    /// A name from the input, quoted, cut to 40 characters so messages stay short whatever the input.
    private static func quoted(_ name: String) -> String {
        name.utf8.count <= 40 ? "\"\(name)\"" : "\"\(name.prefix(40))…\""
    }

    private func secondSlash() -> HKError {
        failure("a second \"/\"", at: position, hint: "HealthKit allows one \"/\"")
    }

    private func unexpected(expectingUnit: Bool = false, inMolarMass: Bool = false) -> HKError {
        let found = describeCharacter(at: position)
        if inMolarMass { return failure("\(found) in a molar mass", at: position) }
        if expectingUnit { return failure("\(found) where a unit was expected", at: position) }
        let byte = bytes[position]
        if byte == UInt8(ascii: "-") || byte == UInt8(ascii: " ") {
            return failure("unexpected \(found)", at: position, hint: "multiply with \".\", \"*\" or \"·\"")
        }
        return failure("unexpected \(found)", at: position)
    }

    /// The character starting at UTF-8 offset `offset`, quoted, or as U+XXXX when invisible.
    private func describeCharacter(at offset: Int) -> String {
        let utf8 = text.utf8
        guard offset < utf8.count else { return "the end" }
        let index = utf8.index(utf8.startIndex, offsetBy: offset)
        let scalar = text.unicodeScalars[index]
        if scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
            || scalar.properties.generalCategory == .format || scalar.properties.generalCategory == .nonspacingMark {
            return "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
        }
        return "\"" + String(Character(scalar)) + "\""
    }

    /// `Invalid unit string "S": <problem> at position N[; <hint>]`, N counting characters from 1. A string
    /// longer than 100 characters is shown by its first 100 and its length.
    private func failure(_ problem: String, at offset: Int, hint: String? = nil) -> HKError {
        let shown = text.prefix(100)
        let quoted = shown.endIndex == text.endIndex
            ? "\"\(text)\"" : "\"\(shown)…\" (\(text.count) characters)"
        var message = "Invalid unit string \(quoted): \(problem) at position \(characterPosition(ofUTF8Offset: offset))"
        if let hint { message += "; \(hint)" }
        return HKError(.errorInvalidArgument, message)
    }

    /// The 1-based position of the character holding UTF-8 offset `offset` (one past the last at the end).
    private func characterPosition(ofUTF8Offset offset: Int) -> Int {
        var consumed = 0
        var position = 1
        for character in text {
            consumed += character.utf8.count
            if consumed > offset { return position }
            position += 1
        }
        return position
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
