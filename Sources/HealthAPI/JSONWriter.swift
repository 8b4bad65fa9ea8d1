/// Writes JSON text into bytes, for the hot paths that cannot afford `JSONEncoder` and the generated `Encodable` code
/// (``SampleListJSON``). The caller writes the punctuation; the writer escapes strings and writes numbers as the shortest
/// text that reads back as the same `Double`.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func raw<Bytes: Sequence>(_ text: Bytes) where Bytes.Element == UInt8 {
        bytes.append(contentsOf: text)
    }

    /// An array: `write` writes each element.
    mutating func array<Element>(_ elements: [Element], _ write: (Element, inout JSONWriter) throws -> Void) rethrows {
        raw("[")
        for (index, element) in elements.enumerated() {
            if index > 0 { comma() }
            try write(element, &self)
        }
        raw("]")
    }

    /// An object of `members`, its keys sorted: `write` writes each value.
    mutating func object<Value>(_ members: [String: Value], _ write: (Value, inout JSONWriter) throws -> Void) rethrows {
        raw("{")
        for (index, key) in (members.count == 1 ? Array(members.keys) : members.keys.sorted()).enumerated() {
            if index > 0 { comma() }
            string(key)
            raw(":")
            try write(members[key]!, &self)
        }
        raw("}")
    }

    /// `"key":`, for keys known to need no escaping.
    mutating func key(_ key: StaticString) {
        bytes.append(UInt8(ascii: "\""))
        raw(key)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// `,"key":`: the next member of an object.
    mutating func next(_ key: StaticString) {
        comma()
        self.key(key)
    }

    mutating func comma() {
        bytes.append(UInt8(ascii: ","))
    }

    /// A string, with `"`, `\` and the control characters escaped (`/` is not: JSON does not ask it).
    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        // Most text needs no escape: copied whole.
        let plain = text.utf8.withContiguousStorageIfAvailable { utf8 in
            guard utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if plain == true {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
            case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case 0..<0x20:
                raw("\\u00")
                bytes.append(Self.hex[Int(byte >> 4)])
                bytes.append(Self.hex[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// A finite number: a whole one (below 2^53) without a fraction, any other as Swift's shortest round-trip text.
    mutating func number(_ value: Double) throws {
        guard value.isFinite else { throw NotFinite(value: value) }
        if value.rounded() == value, abs(value) < 9_007_199_254_740_992 {
            integer(Int(value))
        } else {
            raw(value.description.utf8)
        }
    }

    /// JSON has no text for an infinity or NaN.
    struct NotFinite: Error { let value: Double }

    mutating func integer(_ value: Int) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            if value == .min { raw("9223372036854775808"); return }
        }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[19 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            bytes.append(contentsOf: buffer[(20 - count)...])
        }
    }

    mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }
}
