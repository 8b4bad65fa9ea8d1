import Foundation
import HealthModel

/// The bytes of an XML file on their way to disk: appended to a buffer that goes to the file handle a megabyte at a
/// time, so writing an export of any size takes the same memory. Attribute values are escaped as XML 1.0 needs.
struct ExportXMLOutput {
    private let handle: FileHandle
    private let url: URL
    private var buffer: [UInt8] = []
    private let flushSize: Int
    /// Bytes written so far (flushed or not).
    private(set) var count = 0

    init(url: URL, flushSize: Int = 1 << 20) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil), let handle = FileHandle(forWritingAtPath: url.path) else {
            throw HKError.invalidArgument("cannot create \(url.path)")
        }
        self.handle = handle
        self.url = url
        self.flushSize = flushSize
        buffer.reserveCapacity(flushSize + 64 * 1024)
    }

    mutating func raw(_ text: String) {
        var text = text
        text.withUTF8 { buffer.append(contentsOf: $0) }
    }

    mutating func byte(_ byte: UInt8) { buffer.append(byte) }

    mutating func bytes(_ bytes: some Collection<UInt8>) { buffer.append(contentsOf: bytes) }

    /// ` name="value"`, the value escaped.
    mutating func attribute(_ name: String, _ value: String) {
        buffer.append(UInt8(ascii: " "))
        raw(name)
        buffer.append(UInt8(ascii: "="))
        buffer.append(UInt8(ascii: "\""))
        escaped(value)
        buffer.append(UInt8(ascii: "\""))
    }

    /// `value` escaped for an attribute: `&`, `<`, `>` and `"` as entities; TAB, LF and CR as character references
    /// (a reader would normalize them to spaces otherwise); the characters XML 1.0 does not allow at all (other C0
    /// controls, U+FFFE, U+FFFF) as U+FFFD, so that every XML parser can read the file.
    mutating func escaped(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            var clean = 0, skip = 0
            for (index, byte) in utf8.enumerated() {
                if skip > 0 {
                    skip -= 1
                    continue
                }
                let replacement: StaticString
                switch byte {
                case UInt8(ascii: "&"): replacement = "&amp;"
                case UInt8(ascii: "<"): replacement = "&lt;"
                case UInt8(ascii: ">"): replacement = "&gt;"
                case UInt8(ascii: "\""): replacement = "&quot;"
                case 0x09: replacement = "&#9;"
                case 0x0A: replacement = "&#10;"
                case 0x0D: replacement = "&#13;"
                case 0x00..<0x20: replacement = "\u{FFFD}"
                case 0xEF where index + 2 < utf8.count && utf8[index + 1] == 0xBF && utf8[index + 2] >= 0xBE:
                    replacement = "\u{FFFD}"  // U+FFFE or U+FFFF: three bytes
                    skip = 2
                default: continue
                }
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean..<index]))
                replacement.withUTF8Buffer { buffer.append(contentsOf: $0) }
                clean = index + 1 + skip
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean...]))
        }
    }

    /// Writes the buffer out once it holds a megabyte or more.
    mutating func flushIfNeeded() throws {
        if buffer.count >= flushSize { try flush() }
    }

    mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        do { try handle.write(contentsOf: buffer) } catch {
            throw HKError.invalidArgument("cannot write \(url.lastPathComponent): \(error.localizedDescription)")
        }
        count += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    /// Bytes written, including those still in the buffer.
    var total: Int { count + buffer.count }

    mutating func close() throws {
        try flush()
        try? handle.close()
    }
}
