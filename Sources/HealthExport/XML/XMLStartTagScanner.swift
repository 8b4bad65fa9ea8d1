package import Foundation
import HealthModel

/// Streams the start tags of an XML file — element name, attributes (entities decoded) and line — in constant
/// memory, skipping the prolog, comments, the DOCTYPE and its internal subset, processing instructions, CDATA,
/// text; end tags are reported by name. It is the reader Apple Health exports need: their data lives entirely in
/// attributes, and swift-corelibs' `XMLParser` crashes on the DTD of real exports (a NULL `strlen` in attribute
/// defaulting).
///
/// It works a buffer at a time: each construct is parsed from a contiguous chunk of the file (1 MB by default);
/// one that runs past the chunk's end is parsed again once more of the file is read. Malformed markup (a tag that
/// never closes, an attribute without quotes) is reported with its line through `problem`, and scanning goes on
/// after it where it can.
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

    /// What parsing one construct gave.
    private enum Step {
        /// A start tag (or nothing worth reporting, when nil), where the next construct begins, and what was wrong in it.
        case tag(Tag?, next: Int, lines: Int, issues: [String] = [])
        case end(String?, next: Int, lines: Int)
        /// The construct runs past the buffered bytes.
        case needMore
    }

    /// Calls `tag` for each start tag whose name is in `names` (all tags when `names` is nil), `end` for their end
    /// tags, and `problem` for each piece of markup it cannot read.
    package func scan(names: Set<String>? = nil, tag: (Tag) throws -> Void, end: (String) throws -> Void = { _ in },
                      problem: (Int, String) -> Void = { _, _ in }, progress: (Int) -> Void = { _ in }) throws {
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw HKError.invalidArgument("cannot read \(url.path)")
        }
        defer { try? handle.close() }
        var buffer: [UInt8] = []
        var position = 0, line = 1, atEnd = false, read = 0
        while true {
            // Read more when the rest of the buffer is short, or when a construct asked for it.
            if buffer.count - position < 4096 && !atEnd {
                buffer.removeSubrange(0..<position)
                position = 0
                let chunk = try handle.read(upToCount: chunkSize) ?? Data()
                if chunk.isEmpty { atEnd = true } else { buffer.append(contentsOf: chunk) }
                read += chunk.count
                progress(read)
            }
            if position >= buffer.count { return }
            let step = buffer.withUnsafeBufferPointer { bytes in Self.step(bytes, from: position, line: line, names: names, atEnd: atEnd) }
            switch step {
            case .tag(let found, let next, let lines, let issues):
                for issue in issues { problem(line, issue) }
                if let found { try tag(found) }
                position = next
                line += lines
            case .end(let name, let next, let lines):
                if let name { try end(name) }
                position = next
                line += lines
            case .needMore:
                if atEnd {
                    problem(line, "the file ends inside markup")
                    return
                }
                // Keep the unfinished construct and read on, however long it is.
                buffer.removeSubrange(0..<position)
                position = 0
                let chunk = try handle.read(upToCount: chunkSize) ?? Data()
                if chunk.isEmpty { atEnd = true } else { buffer.append(contentsOf: chunk) }
                read += chunk.count
                progress(read)
            }
        }
    }

    private static let lt = UInt8(ascii: "<"), gt = UInt8(ascii: ">"), slash = UInt8(ascii: "/"), newline = UInt8(ascii: "\n")
    private static let quote = UInt8(ascii: "\""), apostrophe = UInt8(ascii: "'"), equals = UInt8(ascii: "=")

    @inline(__always) private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D }

    /// Whether `bytes[at...]` starts with `literal`.
    @inline(__always) private static func has(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int, _ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard at + count <= bytes.count else { return false }
        let pointer = literal.utf8Start
        for offset in 0..<count where bytes[at + offset] != pointer[offset] { return false }
        return true
    }

    /// Index just past `terminator` from `from`, with the newlines crossed; nil when it is not buffered.
    private static func find(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ terminator: StaticString) -> (Int, Int)? {
        let first = terminator.utf8Start[0]
        var index = from, lines = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == newline { lines += 1 } else if byte == first, has(bytes, index, terminator) {
                return (index + terminator.utf8CodeUnitCount, lines)
            }
            index += 1
        }
        return nil
    }

    /// Parses the construct at `from`: text up to the next `<`, or one piece of markup.
    private static func step(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, line: Int, names: Set<String>?, atEnd: Bool) -> Step {
        var index = from, lines = 0
        // Text: skip to the next '<'.
        if bytes[index] != lt {
            while index < bytes.count, bytes[index] != lt {
                if bytes[index] == newline { lines += 1 }
                index += 1
            }
            return .tag(nil, next: index, lines: lines)
        }
        guard index + 1 < bytes.count else { return .needMore }
        switch bytes[index + 1] {
        case slash:
            var cursor = index + 2
            let nameStart = cursor
            while cursor < bytes.count, bytes[cursor] != gt, !isSpace(bytes[cursor]) { cursor += 1 }
            let nameEnd = cursor
            while cursor < bytes.count, bytes[cursor] != gt {
                if bytes[cursor] == newline { lines += 1 }
                cursor += 1
            }
            guard cursor < bytes.count else { return .needMore }
            let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<nameEnd]), as: UTF8.self)
            return .end(names.map { $0.contains(name) } ?? true ? name : nil, next: cursor + 1, lines: lines)
        case UInt8(ascii: "?"):
            guard let (next, crossed) = find(bytes, index + 2, "?>") else { return .needMore }
            return .tag(nil, next: next, lines: crossed)
        case UInt8(ascii: "!"):
            if has(bytes, index, "<!--") {
                guard let (next, crossed) = find(bytes, index + 4, "-->") else { return .needMore }
                return .tag(nil, next: next, lines: crossed)
            }
            if has(bytes, index, "<![CDATA[") {
                guard let (next, crossed) = find(bytes, index + 9, "]]>") else { return .needMore }
                return .tag(nil, next: next, lines: crossed)
            }
            if index + 9 > bytes.count, !atEnd { return .needMore }
            return declaration(bytes, from: index)
        default:
            return startTag(bytes, from: index, line: line, names: names)
        }
    }

    /// `<!DOCTYPE … [ internal subset ] >` and other declarations: to the `>` that closes them, past any bracketed
    /// subset, quoted strings and comments.
    private static func declaration(_ bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Step {
        var index = from + 2, lines = 0, depth = 0
        var quoteByte: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            if byte == newline { lines += 1 }
            if let open = quoteByte {
                if byte == open { quoteByte = nil }
                index += 1
                continue
            }
            switch byte {
            case quote, apostrophe: quoteByte = byte
            case UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "]"): depth -= 1
            case lt where has(bytes, index, "<!--"):
                guard let (next, crossed) = find(bytes, index + 4, "-->") else { return .needMore }
                lines += crossed
                index = next
                continue
            case gt where depth <= 0:
                return .tag(nil, next: index + 1, lines: lines)
            default: break
            }
            index += 1
        }
        return .needMore
    }

    private static func startTag(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, line: Int, names: Set<String>?) -> Step {
        var index = from + 1, lines = 0
        let nameStart = index
        while index < bytes.count, !isSpace(bytes[index]), bytes[index] != gt, bytes[index] != slash { index += 1 }
        guard index < bytes.count else { return .needMore }
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<index]), as: UTF8.self)
        let keep = names?.contains(name) ?? true
        var attributes: [String: String] = [:]
        var selfClosing = false
        var issues: [String] = []
        while true {
            guard index < bytes.count else { return .needMore }
            let byte = bytes[index]
            if isSpace(byte) {
                if byte == newline { lines += 1 }
                index += 1
                continue
            }
            if byte == gt { index += 1; break }
            if byte == slash { selfClosing = true; index += 1; continue }
            // An attribute: name = "value".
            let keyStart = index
            while index < bytes.count, bytes[index] != equals, !isSpace(bytes[index]), bytes[index] != gt { index += 1 }
            let keyEnd = index
            while index < bytes.count, isSpace(bytes[index]) {
                if bytes[index] == newline { lines += 1 }
                index += 1
            }
            guard index < bytes.count else { return .needMore }
            let key = { String(decoding: UnsafeBufferPointer(rebasing: bytes[keyStart..<keyEnd]), as: UTF8.self) }
            guard bytes[index] == equals else {
                // The iOS 8 export bug: metadata keys with spaces written as attribute names. Skip the word, keep the tag.
                issues.append("attribute \(key()) of <\(name)> has no value")
                if index == keyStart { index += 1 }
                continue
            }
            index += 1
            while index < bytes.count, isSpace(bytes[index]) {
                if bytes[index] == newline { lines += 1 }
                index += 1
            }
            guard index < bytes.count else { return .needMore }
            let open = bytes[index]
            guard open == quote || open == apostrophe else {
                issues.append("attribute \(key()) of <\(name)> is not quoted")
                while index < bytes.count, !isSpace(bytes[index]), bytes[index] != gt { index += 1 }
                continue
            }
            index += 1
            let valueStart = index
            var hasEntity = false
            while index < bytes.count, bytes[index] != open {
                if bytes[index] == newline { lines += 1 } else if bytes[index] == UInt8(ascii: "&") { hasEntity = true }
                index += 1
            }
            guard index < bytes.count else { return .needMore }
            if keep {
                let raw = UnsafeBufferPointer(rebasing: bytes[valueStart..<index])
                attributes[key()] = hasEntity ? decodeEntities(Array(raw)) : String(decoding: raw, as: UTF8.self)
            }
            index += 1
        }
        return .tag(keep ? Tag(name: name, attributes: attributes, line: line, selfClosing: selfClosing) : nil, next: index, lines: lines,
                    issues: issues)
    }

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
