/// Reads HealthKit's unit-string grammar:
///
/// ```
/// unit    := product [ "/" product ]           ; one "/" at most; all after it is the denominator
/// product := factor { ("." | "*" | "·") factor }
/// factor  := ( atom | "(" [product] ")" ) [ "^" integer ]
/// atom    := [prefix] prefixable | fixed | [prefix] "mol<" number ">"
/// ```
///
/// It runs in one linear pass, never crashes on any input, and reports the first problem as an
/// `HKError(.errorInvalidArgument)` naming the string and the 1-based character position.
struct UnitParser {
    private let scalars: [Unicode.Scalar]
    private let text: String
    private var position = 0

    static let maximumNesting = 32
    static let maximumExponent = 1000

    init(_ text: String) {
        self.text = text
        self.scalars = Array(text.unicodeScalars)
    }

    /// The factors of the unit, merged and in order of first appearance.
    mutating func parse() throws -> [HKUnit.Factor] {
        guard !scalars.isEmpty else { throw failure("the unit string is empty", at: 0) }
        var factors = try parseProduct(depth: 0)
        if peek == "/" {
            position += 1
            let denominator = try parseProduct(depth: 0)
            HKUnit.Factor.merge(denominator.map { $0.raised(to: -1) }, into: &factors)
            try checkBounded(factors, at: position - 1)
        }
        if position < scalars.count {
            let found = scalars[position]
            if found == "/" {
                throw failure("a second \"/\"; HealthKit allows one \"/\" in a unit string", at: position)
            }
            throw failure("unexpected \(Self.quote(found))", at: position)
        }
        return factors
    }

    private var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    private static func isMultiplication(_ s: Unicode.Scalar) -> Bool { s == "." || s == "*" || s == "·" }
    private static func isAtomCharacter(_ s: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(s) || ("A"..."Z").contains(s) || s == "_" || s == "%"
    }

    private mutating func parseProduct(depth: Int) throws -> [HKUnit.Factor] {
        var factors: [HKUnit.Factor] = []
        while true {
            let start = position
            let factor = try parseFactor(depth: depth)
            HKUnit.Factor.merge(factor, into: &factors)
            try checkBounded(factors, at: start)
            guard let next = peek, Self.isMultiplication(next) else { return factors }
            position += 1
        }
    }

    private mutating func parseFactor(depth: Int) throws -> [HKUnit.Factor] {
        var factors: [HKUnit.Factor]
        if peek == "(" {
            guard depth < Self.maximumNesting else {
                throw failure("parentheses nested deeper than \(Self.maximumNesting) levels", at: position)
            }
            let open = position
            position += 1
            if peek == ")" {
                factors = []
            } else {
                factors = try parseProduct(depth: depth + 1)
            }
            guard peek == ")" else {
                if peek == nil { throw failure("the \"(\" at position \(open + 1) is never closed", at: position) }
                throw failure("expected \")\" but found \(Self.quote(scalars[position]))", at: position)
            }
            position += 1
        } else {
            factors = [HKUnit.Factor(atom: try parseAtom(), exponent: 1)]
        }
        if peek == "^" {
            position += 1
            let power = try parseExponent()
            factors = try factors.map { factor in
                let (product, overflow) = factor.exponent.multipliedReportingOverflow(by: power)
                guard !overflow, abs(product) <= Self.maximumExponent else {
                    throw failure("the exponent of \(factor.atom.symbol) exceeds \(Self.maximumExponent)", at: position - 1)
                }
                return HKUnit.Factor(atom: factor.atom, exponent: product)
            }
            factors.removeAll { $0.exponent == 0 }
        }
        return factors
    }

    /// Repeated factors add up (`m*m*m` is `m^3`); the total obeys the same bound as a written exponent,
    /// so every parsed unit prints to a string that parses again.
    private func checkBounded(_ factors: [HKUnit.Factor], at index: Int) throws {
        if let factor = factors.first(where: { abs($0.exponent) > Self.maximumExponent }) {
            throw failure("\(factor.atom.symbol) is raised past the exponent limit of \(Self.maximumExponent)", at: index)
        }
    }

    private mutating func parseExponent() throws -> Int {
        let start = position
        var negative = false
        if peek == "-" || peek == "+" {
            negative = peek == "-"
            position += 1
        }
        var value = 0
        var digits = 0
        while let s = peek, ("0"..."9").contains(s) {
            value = value * 10 + Int(s.value - 48)
            digits += 1
            position += 1
            guard value <= Self.maximumExponent else {
                throw failure("the exponent is larger than \(Self.maximumExponent)", at: start)
            }
        }
        guard digits > 0 else {
            throw failure("\"^\" must be followed by an integer exponent", at: position)
        }
        return negative ? -value : value
    }

    private mutating func parseAtom() throws -> UnitAtom {
        let start = position
        while let s = peek, Self.isAtomCharacter(s) { position += 1 }
        guard position > start else {
            if let found = peek { throw failure("expected a unit but found \(Self.quote(found))", at: position) }
            throw failure("expected a unit after \(Self.quote(scalars[position - 1]))", at: position)
        }
        let name = String(String.UnicodeScalarView(scalars[start..<position]))
        if peek == "<" {
            return try parseMole(named: name, at: start)
        }
        if let definition = UnitAtom.Definition.bySymbol[name] {
            return UnitAtom(definition)
        }
        for (symbol, prefix) in HKMetricPrefix.bySymbolLongestFirst where name.hasPrefix(symbol) {
            if let definition = UnitAtom.Definition.bySymbol[String(name.dropFirst(symbol.count))], definition.prefixable {
                return UnitAtom(definition, prefix: prefix)
            }
        }
        if name.hasSuffix("mol") {
            throw failure("\"\(name)\" needs a molar mass in grams per mole, e.g. \(name)<180.156>", at: start)
        }
        throw failure("unknown unit \"\(name)\"", at: start)
    }

    private mutating func parseMole(named name: String, at start: Int) throws -> UnitAtom {
        guard name.hasSuffix("mol") else {
            throw failure("only mol takes a molar mass in <…>, not \"\(name)\"", at: start)
        }
        let prefixSymbol = String(name.dropLast(3))
        guard let prefix = HKMetricPrefix.allCases.first(where: { $0.symbol == prefixSymbol }) else {
            throw failure("unknown prefix \"\(prefixSymbol)\" on mol", at: start)
        }
        position += 1  // "<"
        let numberStart = position
        while let s = peek, s != ">" {
            guard ("0"..."9").contains(s) || s == "." || s == "e" || s == "E" || s == "-" || s == "+" else {
                throw failure("a molar mass must be a number, but found \(Self.quote(s))", at: position)
            }
            position += 1
        }
        guard peek == ">" else { throw failure("the molar mass opened at position \(numberStart) is never closed with \">\"", at: position) }
        let digits = String(String.UnicodeScalarView(scalars[numberStart..<position]))
        position += 1
        guard let molarMass = Double(digits), molarMass.isFinite, molarMass > 0 else {
            throw failure("the molar mass \"\(digits)\" must be a positive number", at: numberStart)
        }
        return UnitAtom(.mole, prefix: prefix, molarMass: molarMass)
    }

    private func failure(_ reason: String, at index: Int) -> HKError {
        let shown = text.count > 80 ? String(text.prefix(80)) + "…" : text
        return HKError(.errorInvalidArgument, "Invalid unit string \"\(shown)\" at position \(index + 1): \(reason)")
    }

    private static func quote(_ s: Unicode.Scalar) -> String {
        s.properties.isWhitespace || s.value < 0x20 ? "U+\(String(s.value, radix: 16, uppercase: true))" : "\"\(Character(s))\""
    }
}
