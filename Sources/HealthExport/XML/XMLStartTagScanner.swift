package import Foundation
import HealthModel

/// Streams the start tags of an XML file — element name, attributes (entities decoded) and line — in constant
/// memory, skipping the prolog, comments, the DOCTYPE and its internal subset, processing instructions, CDATA,
/// text; end tags are reported by name. It is the reader Apple Health exports need: their data lives entirely in
/// attributes, and swift-corelibs' `XMLParser` crashes on the DTD of real exports (a NULL `strlen` in attribute
/// defaulting).
///
/// It works a buffer at a time: each construct is parsed from a contiguous chunk of the file (1 MB by default);
/// one that runs past the chunk's end is parsed again once more of the file is read — at least as much again as it
/// has so far, so that however long it is each of its bytes is parsed a bounded number of times (linear, not
/// quadratic). No construct may be longer than `maximumTokenBytes`: past that the scan stops with an error naming
/// the limit and the line, rather than holding an unbounded attribute or an unterminated comment in memory.
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

    /// A start tag read in place: its name and attributes are spans of the scanner's buffer, valid only inside the
    /// callback that receives it. Reading an attribute costs no allocation until it is turned into a `String`.
    package struct RawTag {
        package let bytes: UnsafeBufferPointer<UInt8>
        let nameRange: Range<Int>
        let spans: [AttributeSpan]
        /// 1-based line of the `<`.
        package let line: Int
        package let selfClosing: Bool
        /// Where the `<` is: bytes from the start of the file.
        package let offset: Int

        package var name: String { String(decoding: UnsafeBufferPointer(rebasing: bytes[nameRange]), as: UTF8.self) }

        package func nameIs(_ literal: StaticString) -> Bool { XMLStartTagScanner.equals(bytes, nameRange, literal) }

        /// The value of attribute `key` as written (entities not decoded), and whether it holds an entity.
        package func raw(_ key: StaticString) -> (bytes: UnsafeBufferPointer<UInt8>, hasEntity: Bool)? {
            for span in spans where XMLStartTagScanner.equals(bytes, span.key, key) {
                return (UnsafeBufferPointer(rebasing: bytes[span.value]), span.hasEntity)
            }
            return nil
        }

        /// The value of attribute `key`, entities decoded.
        package func value(_ key: StaticString) -> String? {
            raw(key).map { $0.hasEntity ? XMLStartTagScanner.decodeEntities(Array($0.bytes)) : String(decoding: $0.bytes, as: UTF8.self) }
        }

        /// Every attribute, entities decoded.
        package var attributes: [String: String] {
            var result: [String: String] = [:]
            for span in spans {
                let value = UnsafeBufferPointer(rebasing: bytes[span.value])
                result[String(decoding: UnsafeBufferPointer(rebasing: bytes[span.key]), as: UTF8.self)] =
                    span.hasEntity ? XMLStartTagScanner.decodeEntities(Array(value)) : String(decoding: value, as: UTF8.self)
            }
            return result
        }

        package var tag: Tag { Tag(name: name, attributes: attributes, line: line, selfClosing: selfClosing) }

        /// The tag as written — name, attributes in order with their quotes and entities — with one space between
        /// attributes: `<Name a="1" b="&lt;"/>`.
        package var xml: String {
            var out: [UInt8] = [UInt8(ascii: "<")]
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[nameRange]))
            for span in spans {
                let quote = bytes[span.value.lowerBound - 1]
                out.append(UInt8(ascii: " "))
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[span.key]))
                out.append(UInt8(ascii: "="))
                out.append(quote)
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[span.value]))
                out.append(quote)
            }
            out.append(contentsOf: selfClosing ? [UInt8(ascii: "/"), UInt8(ascii: ">")] : [UInt8(ascii: ">")])
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// Where one attribute's name and value lie in the buffer.
    struct AttributeSpan {
        let key: Range<Int>
        let value: Range<Int>
        let hasEntity: Bool
    }

    let chunkSize: Int
    /// The longest one construct (a start tag with its attributes, a comment, a CDATA section, a declaration) may be.
    /// Apple Health's are under 4 KB, its DTD ≈ 10 KB.
    package let maximumTokenBytes: Int
    /// Opens the bytes to scan, once per scan.
    let open: () throws -> any ByteStream
    /// Counts what a scan parsed in vain, for tests.
    let statistics: Statistics?

    /// The default `maximumTokenBytes`: 16 MiB.
    package static let defaultMaximumTokenBytes = 16 << 20

    /// Scans a file (or a pipe).
    package init(url: URL, chunkSize: Int = 1 << 20, maximumTokenBytes: Int = defaultMaximumTokenBytes) {
        self.init(chunkSize: chunkSize, maximumTokenBytes: maximumTokenBytes) { try FileByteStream(url: url) }
    }

    /// Scans what `open` gives: an entry of a zip archive inflated as it is read, say.
    package init(chunkSize: Int = 1 << 20, maximumTokenBytes: Int = defaultMaximumTokenBytes, statistics: Statistics? = nil,
                 open: @escaping () throws -> any ByteStream) {
        self.chunkSize = chunkSize
        self.maximumTokenBytes = maximumTokenBytes
        self.statistics = statistics
        self.open = open
    }

    /// What a scan cost: the bytes of unfinished constructs parsed before more of the file was read (parsed again
    /// afterwards), and how often that happened.
    package final class Statistics: @unchecked Sendable {
        package var reparsedBytes = 0
        package var refills = 0
        package init() {}
    }

    /// What parsing one construct gave.
    private enum Step {
        /// A start tag (its attributes are in the scanner's span list), where the next construct begins, and what was
        /// wrong in it.
        case start(nameRange: Range<Int>, selfClosing: Bool, next: Int, lines: Int, issues: [String])
        /// Text, a comment, a declaration: nothing to report.
        case skip(next: Int, lines: Int)
        case end(Range<Int>, next: Int, lines: Int)
        /// The construct runs past the buffered bytes.
        case needMore
    }

    /// Calls `tag` for each start tag whose name is in `names` (all tags when `names` is nil), `end` for their end
    /// tags, and `problem` for each piece of markup it cannot read.
    package func scan(names: Set<String>? = nil, tag: (Tag) throws -> Void, end: (String) throws -> Void = { _ in },
                      problem: (Int, String) -> Void = { _, _ in }, progress: (Int) -> Void = { _ in }) throws {
        try scanInPlace(tag: { raw in
            let name = raw.name
            if names?.contains(name) ?? true { try tag(Tag(name: name, attributes: raw.attributes, line: raw.line, selfClosing: raw.selfClosing)) }
        }, end: { bytes in
            let name = String(decoding: bytes, as: UTF8.self)
            if names?.contains(name) ?? true { try end(name) }
        }, problem: problem, progress: progress)
    }

    /// Calls `tag` with every start tag read in place, and `end` with the name of every end tag (both valid only during
    /// the call): the fast path, for readers that pick the few attributes they need.
    package func scanInPlace(tag: (RawTag) throws -> Void, end: (UnsafeBufferPointer<UInt8>) throws -> Void = { _ in },
                             problem: (Int, String) -> Void = { _, _ in }, progress: (Int) -> Void = { _ in }) throws {
        let stream = try open()
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        var buffer: [UInt8] = []
        var spans: [AttributeSpan] = []
        spans.reserveCapacity(16)
        // `base` is the file offset of `buffer[0]`.
        var position = 0, line = 1, atEnd = false, read = 0, base = 0
        func readMore() throws {
            if position > 0 {
                buffer.removeSubrange(0..<position)
                base += position
                position = 0
            }
            let count = try chunk.withUnsafeMutableBytes { try stream.read(into: $0) }
            buffer.append(contentsOf: chunk[0..<count])
            if count == 0 { atEnd = true }
            read += count
            progress(read)
        }
        while true {
            // Read more when the rest of the buffer is short, or when a construct asked for it.
            if buffer.count - position < 4096 && !atEnd { try readMore() }
            if position >= buffer.count { return }
            let needMore = try buffer.withUnsafeBufferPointer { bytes -> Bool in
                // Every construct that fits in the buffer, without leaving the closure.
                while position < bytes.count {
                    if bytes.count - position < 4096 && !atEnd { return false }
                    switch Self.step(bytes, from: position, atEnd: atEnd, spans: &spans) {
                    case .start(let nameRange, let selfClosing, let next, let lines, let issues):
                        for issue in issues { problem(line, issue) }
                        try tag(RawTag(bytes: bytes, nameRange: nameRange, spans: spans, line: line, selfClosing: selfClosing,
                                       offset: base + position))
                        position = next
                        line += lines
                    case .skip(let next, let lines):
                        position = next
                        line += lines
                    case .end(let nameRange, let next, let lines):
                        try end(UnsafeBufferPointer(rebasing: bytes[nameRange]))
                        position = next
                        line += lines
                    case .needMore:
                        return true
                    }
                }
                return false
            }
            if needMore {
                if atEnd {
                    problem(line, "the file ends inside markup")
                    return
                }
                // Keep the unfinished construct and read on until there is twice as much of it to parse again: its
                // bytes are then parsed about twice in all, however long it is (a chunk at a time was quadratic).
                let pending = buffer.count - position
                statistics?.reparsedBytes += pending
                statistics?.refills += 1
                guard pending <= maximumTokenBytes else {
                    throw HKError.invalidArgument(
                        "line \(line): \(buffer.withUnsafeBufferPointer { Self.describe($0, at: position) }) runs past "
                        + "\(Self.mebibytes(maximumTokenBytes)), the longest one piece of markup may be (an export's are under 4 KB): "
                        + "the file was read no further")
                }
                let wanted = min(2 * pending, maximumTokenBytes + 1)
                repeat { try readMore() } while buffer.count - position < wanted && !atEnd
            }
        }
    }

    /// What the construct at `at` is, for messages: "the start tag <Record", "a comment"….
    static func describe(_ bytes: UnsafeBufferPointer<UInt8>, at: Int) -> String {
        if has(bytes, at, "<!--") { return "a comment" }
        if has(bytes, at, "<![CDATA[") { return "a CDATA section" }
        if has(bytes, at, "<?") { return "a processing instruction" }
        if has(bytes, at, "<!") { return "a declaration" }
        if has(bytes, at, "</") { return "an end tag" }
        var end = at + 1
        while end < bytes.count, end - at <= 64, !isSpace(bytes[end]), bytes[end] != gt, bytes[end] != slash { end += 1 }
        return "the start tag " + String(decoding: UnsafeBufferPointer(rebasing: bytes[at..<end]), as: UTF8.self)
    }

    /// "16 MiB", "64 KiB".
    package static func mebibytes(_ bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : bytes % (1 << 10) == 0 ? "\(bytes >> 10) KiB" : "\(bytes) bytes"
    }

    /// Whether `bytes[range]` is exactly `literal`.
    @inline(__always) static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ literal: StaticString) -> Bool {
        guard range.count == literal.utf8CodeUnitCount else { return false }
        let pointer = literal.utf8Start
        var offset = 0
        for index in range {
            if bytes[index] != pointer[offset] { return false }
            offset += 1
        }
        return true
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
    private static func step(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, atEnd: Bool, spans: inout [AttributeSpan]) -> Step {
        var index = from, lines = 0
        // Text: skip to the next '<'.
        if bytes[index] != lt {
            while index < bytes.count, bytes[index] != lt {
                if bytes[index] == newline { lines += 1 }
                index += 1
            }
            return .skip(next: index, lines: lines)
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
            return .end(nameStart..<nameEnd, next: cursor + 1, lines: lines)
        case UInt8(ascii: "?"):
            guard let (next, crossed) = find(bytes, index + 2, "?>") else { return .needMore }
            return .skip(next: next, lines: crossed)
        case UInt8(ascii: "!"):
            if has(bytes, index, "<!--") {
                guard let (next, crossed) = find(bytes, index + 4, "-->") else { return .needMore }
                return .skip(next: next, lines: crossed)
            }
            if has(bytes, index, "<![CDATA[") {
                guard let (next, crossed) = find(bytes, index + 9, "]]>") else { return .needMore }
                return .skip(next: next, lines: crossed)
            }
            if index + 9 > bytes.count, !atEnd { return .needMore }
            return declaration(bytes, from: index)
        default:
            return startTag(bytes, from: index, spans: &spans)
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
                return .skip(next: index + 1, lines: lines)
            default: break
            }
            index += 1
        }
        return .needMore
    }

    private static func startTag(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, spans: inout [AttributeSpan]) -> Step {
        var index = from + 1, lines = 0
        let nameStart = index
        while index < bytes.count, !isSpace(bytes[index]), bytes[index] != gt, bytes[index] != slash { index += 1 }
        guard index < bytes.count else { return .needMore }
        let nameRange = nameStart..<index
        let name = { String(decoding: UnsafeBufferPointer(rebasing: bytes[nameRange]), as: UTF8.self) }
        spans.removeAll(keepingCapacity: true)
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
                issues.append("attribute \(key()) of <\(name())> has no value")
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
                issues.append("attribute \(key()) of <\(name())> is not quoted")
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
            spans.append(AttributeSpan(key: keyStart..<keyEnd, value: valueStart..<index, hasEntity: hasEntity))
            index += 1
        }
        return .start(nameRange: nameRange, selfClosing: selfClosing, next: index, lines: lines, issues: issues)
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
