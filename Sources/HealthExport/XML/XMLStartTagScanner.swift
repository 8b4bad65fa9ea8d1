package import Foundation
import HealthModel

/// Streams the start tags of an XML file — element name, attributes (entities decoded) and line — in constant
/// memory, skipping the prolog, comments, the DOCTYPE and its internal subset, processing instructions, CDATA,
/// text and end tags. It is the reader Apple Health exports need: their data lives entirely in attributes, and
/// swift-corelibs' `XMLParser` crashes on the DTD of real exports (a NULL `strlen` in attribute defaulting).
///
/// Malformed markup (a tag that never closes, an attribute without quotes) is reported with its line through
/// `problem`, and scanning goes on after it where it can.
package struct XMLStartTagScanner {
    /// One start tag (or empty-element tag).
    package struct Tag {
        package let name: String
        package let attributes: [String: String]
        /// 1-based line of the `<`.
        package let line: Int
        /// `<Name … />`: the element has no content and no end tag follows.
        package let selfClosing: Bool
    }

    let url: URL
    let chunkSize: Int

    package init(url: URL, chunkSize: Int = 1 << 20) {
        self.url = url
        self.chunkSize = chunkSize
    }

    /// Calls `tag` for each start tag whose name is in `names` (all tags when `names` is nil), and `problem` for
    /// each piece of markup it cannot read.
    package func scan(names: Set<String>? = nil, tag: (Tag) throws -> Void, end: (String) throws -> Void = { _ in },
                      problem: (Int, String) -> Void = { _, _ in }) throws {
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw HKError.invalidArgument("cannot read \(url.path)")
        }
        defer { try? handle.close() }
        let wanted = names.map { Set($0.map { Array($0.utf8) }) }
        var buffer: [UInt8] = []
        var position = 0, line = 1, atEnd = false

        /// Makes sure `count` bytes from `position` are buffered (unless the file ends first).
        func fill(_ count: Int) throws -> Bool {
            while buffer.count - position < count && !atEnd {
                if position > 0 {
                    buffer.removeSubrange(0..<position)
                    position = 0
                }
                let chunk = try handle.read(upToCount: chunkSize) ?? Data()
                if chunk.isEmpty { atEnd = true } else { buffer.append(contentsOf: chunk) }
            }
            return buffer.count - position >= count
        }

        /// Advances to just past `terminator` (counting lines); false if the file ends first.
        func skip(past terminator: [UInt8]) throws -> Bool {
            while true {
                guard try fill(terminator.count) else { return false }
                if buffer[position] == terminator[0], buffer[position..<position + terminator.count].elementsEqual(terminator) {
                    for byte in terminator where byte == 0x0A { line += 1 }
                    position += terminator.count
                    return true
                }
                if buffer[position] == 0x0A { line += 1 }
                position += 1
            }
        }

        while try fill(1) {
            let byte = buffer[position]
            if byte == 0x0A { line += 1 }
            guard byte == UInt8(ascii: "<") else { position += 1; continue }
            guard try fill(2) else { break }
            let next = buffer[position + 1]
            let startLine = line
            switch next {
            case UInt8(ascii: "/"):
                position += 2
                var name: [UInt8] = []
                while try fill(1), buffer[position] != UInt8(ascii: ">") {
                    if !isSpace(buffer[position]) { name.append(buffer[position]) } else if buffer[position] == 0x0A { line += 1 }
                    position += 1
                }
                position += 1
                if wanted?.contains(name) ?? true { try end(String(decoding: name, as: UTF8.self)) }
            case UInt8(ascii: "?"):
                position += 2
                if !(try skip(past: Array("?>".utf8))) { problem(startLine, "a processing instruction never ends") }
            case UInt8(ascii: "!"):
                if try fill(4), buffer[position..<position + 4].elementsEqual(Array("<!--".utf8)) {
                    position += 4
                    if !(try skip(past: Array("-->".utf8))) { problem(startLine, "a comment never ends") }
                } else if try fill(9), buffer[position..<position + 9].elementsEqual(Array("<![CDATA[".utf8)) {
                    position += 9
                    if !(try skip(past: Array("]]>".utf8))) { problem(startLine, "a CDATA section never ends") }
                } else {
                    try skipDeclaration(startLine)
                }
            default:
                position += 1
                try readTag(startLine)
            }
        }

        /// `<!DOCTYPE … [ internal subset ] >` and other declarations: skip to the `>` that closes them, past any
        /// bracketed subset and quoted strings.
        func skipDeclaration(_ startLine: Int) throws {
            position += 2
            var depth = 0, quote: UInt8? = nil
            while try fill(1) {
                let byte = buffer[position]
                position += 1
                if byte == 0x0A { line += 1 }
                if let open = quote {
                    if byte == open { quote = nil }
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "'"): quote = byte
                case UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "]"): depth -= 1
                case UInt8(ascii: "<"):
                    // Comments inside the internal subset may hold anything.
                    if try fill(3), buffer[position..<position + 3].elementsEqual(Array("!--".utf8)) {
                        position += 3
                        _ = try skip(past: Array("-->".utf8))
                    }
                case UInt8(ascii: ">") where depth <= 0: return
                default: break
                }
            }
            problem(startLine, "a declaration (<!…>) never ends")
        }

        /// Reads a start tag from just after its `<`.
        func readTag(_ startLine: Int) throws {
            var name: [UInt8] = []
            while try fill(1), !isSpace(buffer[position]), buffer[position] != UInt8(ascii: ">"), buffer[position] != UInt8(ascii: "/") {
                name.append(buffer[position])
                position += 1
            }
            let keep = wanted?.contains(name) ?? true
            var attributes: [String: String] = [:]
            var selfClosing = false
            while true {
                guard try fill(1) else { return problem(startLine, "the <\(String(decoding: name, as: UTF8.self))> tag never ends") }
                let byte = buffer[position]
                if isSpace(byte) {
                    if byte == 0x0A { line += 1 }
                    position += 1
                    continue
                }
                if byte == UInt8(ascii: ">") {
                    position += 1
                    break
                }
                if byte == UInt8(ascii: "/") {
                    selfClosing = true
                    position += 1
                    continue
                }
                // An attribute: name = "value".
                var key: [UInt8] = []
                while try fill(1), buffer[position] != UInt8(ascii: "="), !isSpace(buffer[position]), buffer[position] != UInt8(ascii: ">") {
                    key.append(buffer[position])
                    position += 1
                }
                while try fill(1), isSpace(buffer[position]) {
                    if buffer[position] == 0x0A { line += 1 }
                    position += 1
                }
                guard try fill(2), buffer[position] == UInt8(ascii: "=") else {
                    problem(line, "attribute \(String(decoding: key, as: UTF8.self)) of <\(String(decoding: name, as: UTF8.self))> has no value")
                    continue
                }
                position += 1
                while try fill(1), isSpace(buffer[position]) {
                    if buffer[position] == 0x0A { line += 1 }
                    position += 1
                }
                guard try fill(1), buffer[position] == UInt8(ascii: "\"") || buffer[position] == UInt8(ascii: "'") else {
                    problem(line, "attribute \(String(decoding: key, as: UTF8.self)) of <\(String(decoding: name, as: UTF8.self))> is not quoted")
                    _ = try skip(past: [UInt8(ascii: ">")])
                    return
                }
                let quote = buffer[position]
                position += 1
                var value: [UInt8] = []
                while try fill(1), buffer[position] != quote {
                    if buffer[position] == 0x0A { line += 1 }
                    value.append(buffer[position])
                    position += 1
                }
                guard try fill(1) else { return problem(startLine, "an attribute value of <\(String(decoding: name, as: UTF8.self))> never ends") }
                position += 1
                if keep { attributes[String(decoding: key, as: UTF8.self)] = Self.decodeEntities(value) }
            }
            if keep { try tag(Tag(name: String(decoding: name, as: UTF8.self), attributes: attributes, line: startLine, selfClosing: selfClosing)) }
        }
    }

    private func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D }

    /// The text of an attribute value with `&amp;` `&lt;` `&gt;` `&quot;` `&apos;` and numeric references decoded.
    package static func decodeEntities(_ bytes: [UInt8]) -> String {
        guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
        let text = String(decoding: bytes, as: UTF8.self)
        var result = "", rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            guard let semicolon = rest[amp...].firstIndex(of: ";"), rest.distance(from: amp, to: semicolon) <= 10 else {
                result += "&"
                rest = rest[rest.index(after: amp)...]
                continue
            }
            let entity = rest[rest.index(after: amp)..<semicolon]
            switch entity {
            case "amp": result += "&"
            case "lt": result += "<"
            case "gt": result += ">"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                let scalar: UInt32?
                if entity.hasPrefix("#x") { scalar = UInt32(entity.dropFirst(2), radix: 16) } else if entity.hasPrefix("#") { scalar = UInt32(entity.dropFirst()) } else { scalar = nil }
                if let scalar, let character = Unicode.Scalar(scalar) { result.unicodeScalars.append(character) } else { result += "&\(entity);" }
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }
}
