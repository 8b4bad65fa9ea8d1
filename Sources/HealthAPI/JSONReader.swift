/// Reads JSON text value by value, in one pass over its bytes, for the hot paths that cannot afford `JSONDecoder` and the
/// generated `Decodable` code (``SampleListJSON``): the caller asks for the value it expects, and a value of another kind
/// is an error. Strings are decoded (escapes and surrogate pairs included), numbers read exactly as `Double(_:)` reads
/// them, and any value can be stepped over and its bytes kept, to hand a part to `JSONDecoder` after all.
struct JSONReader {
    /// Text that is not JSON, or not the value asked for: what was wrong, and the byte where it was found.
    struct Malformed: Error, Equatable {
        let offset: Int
        let message: String
    }

    let bytes: [UInt8]
    private(set) var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The kinds of value, as the first byte of one tells.
    enum Kind: Equatable { case object, array, string, number, bool, null }

    /// The kind of the next value (after white space).
    mutating func kind() throws -> Kind {
        skipSpace()
        guard index < bytes.count else { throw fail("the text ends where a value should be") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        default: throw fail("unexpected character")
        }
    }

    /// Reads an object, calling `member` with each key; `member` reads (or skips) the key's value.
    mutating func object(_ member: (inout JSONReader, String) throws -> Void) throws {
        try expect(UInt8(ascii: "{"), "an object")
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return }
        while true {
            skipSpace()
            let key = try string()
            skipSpace()
            try expect(UInt8(ascii: ":"), "a colon after the key")
            try member(&self, key)
            if try closes(UInt8(ascii: "}")) { return }
        }
    }

    /// Reads an array, calling `element` with each element's index; `element` reads the element.
    mutating func array(_ element: (inout JSONReader, Int) throws -> Void) throws {
        try expect(UInt8(ascii: "["), "an array")
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return }
        var count = 0
        while true {
            try element(&self, count)
            count += 1
            if try closes(UInt8(ascii: "]")) { return }
        }
    }

    mutating func string() throws -> String {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a string") }
        index += 1
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                guard let text = String(validating: bytes[start..<index], as: UTF8.self) else { throw fail("a string that is not UTF-8") }
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { return try escapedString(from: start) }
            guard byte >= 0x20 else { throw fail("a control character inside a string") }
            index += 1
        }
        throw fail("a string that does not end")
    }

    /// The rest of a string with escapes, from its first escape on.
    private mutating func escapedString(from start: Int) throws -> String {
        var text = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                // As JSONDecoder: bytes that are not UTF-8 are refused, never replaced.
                guard let string = String(validating: text, as: UTF8.self) else { throw fail("a string that is not UTF-8") }
                return string
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escape)
                case UInt8(ascii: "b"): text.append(0x08)
                case UInt8(ascii: "f"): text.append(0x0C)
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "r"): text.append(0x0D)
                case UInt8(ascii: "t"): text.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw fail("a lone surrogate in a \\u escape")
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw fail("a lone surrogate in a \\u escape") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        throw fail("a lone surrogate in a \\u escape")
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw fail("\\u escape of no character") }
                    text.append(contentsOf: Array(String(Character(unicode)).utf8))
                default:
                    throw fail("an unknown escape in a string")
                }
            default:
                guard byte >= 0x20 else { throw fail("a control character inside a string") }
                text.append(byte)
            }
        }
        throw fail("a string that does not end")
    }

    private mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("a \\u escape needs four hex digits") }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw fail("a \\u escape needs four hex digits")
            }
            value = value << 4 | UInt32(digit)
        }
        index += 4
        return value
    }

    /// A number, read as `Double(_:)` reads its text (correctly rounded).
    mutating func double() throws -> Double {
        let text = try numberText()
        guard let value = Double(String(decoding: bytes[text], as: UTF8.self)), value.isFinite else { throw fail("a number out of range") }
        return value
    }

    /// A whole number; one with a fraction or an exponent is read too when its value is whole.
    mutating func integer() throws -> Int {
        let text = try numberText()
        var value = 0
        var negative = false
        for (position, byte) in bytes[text].enumerated() {
            if position == 0, byte == UInt8(ascii: "-") { negative = true; continue }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
                guard let number = Double(String(decoding: bytes[text], as: UTF8.self)), number.rounded() == number,
                      let whole = Int(exactly: number) else { throw fail("expected a whole number") }
                return whole
            }
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = times.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            guard !overflowTimes, !overflowSum else { throw fail("a whole number out of range") }
            value = sum
        }
        return negative ? -value : value
    }

    /// The bytes of a number, checked against JSON's grammar.
    private mutating func numberText() throws -> Range<Int> {
        skipSpace()
        let start = index
        func digits() -> Int {
            let first = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            return index - first
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let leading = index
        guard digits() > 0 else { index = start; throw fail("expected a number") }
        guard bytes[leading] != UInt8(ascii: "0") || index - leading == 1 else { throw fail("a number with a leading zero") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw fail("a number with no digit after its point") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw fail("a number with no digit in its exponent") }
        }
        return start..<index
    }

    mutating func bool() throws -> Bool {
        skipSpace()
        if literal("true") { return true }
        if literal("false") { return false }
        throw fail("expected true or false")
    }

    /// Steps over `null` if it comes next, and says whether it did.
    mutating func null() -> Bool {
        skipSpace()
        return literal("null")
    }

    /// Steps over the next value, checking it as it goes, and gives its bytes.
    @discardableResult
    mutating func skipValue() throws -> ArraySlice<UInt8> {
        skipSpace()
        let start = index
        switch try kind() {
        case .object: try object { reader, _ in try reader.skipValue() }
        case .array: try array { reader, _ in try reader.skipValue() }
        case .string: _ = try string()
        case .number: _ = try numberText()
        case .bool: _ = try bool()
        case .null: _ = null()
        }
        return bytes[start..<index]
    }

    /// Checks that nothing but white space follows the value read.
    mutating func end() throws {
        skipSpace()
        guard index == bytes.count else { throw fail("more text after the value") }
    }

    func fail(_ message: String) -> Malformed {
        Malformed(offset: index, message: message)
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let matches = word.withUTF8Buffer { text in
            text.indices.allSatisfy { bytes[index + $0] == text[$0] }
        }
        if matches { index += count }
        return matches
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { throw fail("expected \(what)") }
        index += 1
    }

    /// After a member or an element: true at the closing bracket, false at a comma.
    private mutating func closes(_ closing: UInt8) throws -> Bool {
        skipSpace()
        guard index < bytes.count else { throw fail("the text ends inside an object or array") }
        defer { index += 1 }
        if bytes[index] == closing { return true }
        guard bytes[index] == UInt8(ascii: ",") else { throw fail("expected a comma or a closing bracket") }
        return false
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }
}
