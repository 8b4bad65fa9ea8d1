#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
package import Foundation
import HealthModel

/// Reads a zip archive in place: its central directory once, then any entry as a stream (`ZipEntryStream`: stored
/// bytes, or DEFLATE inflated as they are read), so nothing is unpacked to disk. ZIP64 archives (an export.xml over
/// 4 GB) are read too.
///
/// The whole directory is checked before anything is read, and an archive that is not what a phone writes is refused
/// with the reason: an entry whose path leaves the archive's folder (`../`, `/etc/…`, `C:\…`), an encrypted entry, a
/// compression other than stored or DEFLATE, entries whose data overlap (the overlapping-file zip bomb), an entry that
/// would inflate more than `Limits.maximumRatio` times or past `Limits.maximumEntrySize`, sizes or offsets outside the
/// file. While an entry is read, it may not inflate past the size its directory declares, and its CRC-32 is checked
/// at its end.
package final class ZipArchiveReader: @unchecked Sendable {
    /// One file of the archive, as the central directory describes it.
    package struct Entry: Sendable, Hashable {
        /// The path inside the archive, `/`-separated, never absolute, never with a `..` part.
        package let path: String
        /// 0 stored, 8 DEFLATE.
        package let method: UInt16
        package let compressedSize: UInt64
        package let uncompressedSize: UInt64
        package let crc32: UInt32
        let localHeaderOffset: UInt64
        package var isDirectory: Bool { path.hasSuffix("/") }
    }

    /// What the reader accepts.
    package struct Limits: Sendable {
        /// The most an entry of over a megabyte may inflate, uncompressed to compressed. Apple Health's export.xml
        /// compresses ≈ 45 times; DEFLATE cannot exceed ≈ 1,032, which only runs of one byte reach.
        package var maximumRatio: Double = 250
        /// The largest entry accepted (the largest real exports reported hold a few GB of export.xml).
        package var maximumEntrySize: UInt64 = 1 << 40
        package static let `default` = Limits()
    }

    /// The archive's file name, for messages.
    package let name: String
    /// Every file and folder entry, in directory order (symbolic links are left out: an export has none).
    package let entries: [Entry]
    /// Each entry by its path (a file path never repeats: such an archive is refused).
    private let byPath: [String: Entry]
    private let descriptor: Int32
    let fileSize: UInt64

    package init(url: URL, limits: Limits = .default) throws {
        name = url.lastPathComponent
        descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else { throw HKError.invalidArgument("cannot read \(url.path): \(String(cString: strerror(errno)))") }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            close(descriptor)
            throw HKError.invalidArgument("cannot read \(url.path)")
        }
        fileSize = UInt64(status.st_size)
        do {
            entries = try Self.readDirectory(descriptor: descriptor, fileSize: fileSize, name: name, limits: limits)
        } catch {
            close(descriptor)
            throw error
        }
        byPath = Dictionary(entries.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    }

    deinit { close(descriptor) }

    /// The entry at `path`, if the archive has one.
    package func entry(_ path: String) -> Entry? { byPath[path] }

    /// A stream of the entry's bytes, inflated as they are read.
    package func stream(_ entry: Entry) throws -> ZipEntryStream {
        let header = try read(at: entry.localHeaderOffset, count: 30)
        guard header.uint32(0) == 0x0403_4B50 else { throw damaged("\(entry.path) has no local header where the directory says") }
        let dataStart = entry.localHeaderOffset + 30 + UInt64(header.uint16(26)) + UInt64(header.uint16(28))
        guard dataStart + entry.compressedSize <= fileSize else { throw damaged("\(entry.path) runs past the end of the file") }
        return ZipEntryStream(archive: self, entry: entry, dataStart: dataStart)
    }

    /// The whole entry, at most `limit` bytes.
    package func data(_ entry: Entry, limit: Int) throws -> Data {
        guard entry.uncompressedSize <= UInt64(limit) else {
            throw HKError.invalidArgument("\(name): \(entry.path) is larger than \(limit / 1_000_000) MB: not read")
        }
        return try stream(entry).readAll(limit: limit, name: "\(name): \(entry.path)")
    }

    // MARK: Reading the file

    /// `count` bytes at `offset` (`pread`, so that streams of several entries can be read at once).
    func read(at offset: UInt64, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = try bytes.withUnsafeMutableBytes { try read(at: offset, into: $0) }
        guard got == count else { throw damaged("it ends before its directory says") }
        return bytes
    }

    /// Fills `buffer` from `offset` on, short only at the end of the file.
    func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        var done = 0
        while done < buffer.count {
            let count = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            if count < 0 {
                if errno == EINTR { continue }
                throw HKError.invalidArgument("cannot read \(name): \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            done += count
        }
        return done
    }

    func damaged(_ reason: String) -> HKError {
        HKError.invalidArgument("\(name) is damaged: \(reason)")
    }

    // MARK: The central directory

    private static func readDirectory(descriptor: Int32, fileSize: UInt64, name: String, limits: Limits) throws -> [Entry] {
        func read(_ offset: UInt64, _ count: Int) throws -> [UInt8] {
            guard offset + UInt64(count) <= fileSize else { throw HKError.invalidArgument("\(name) is damaged: its directory lies outside the file") }
            var bytes = [UInt8](repeating: 0, count: count)
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, count, off_t(offset)) }
            guard got == count else { throw HKError.invalidArgument("cannot read \(name)") }
            return bytes
        }
        // The end-of-central-directory record: in the last 22 bytes, or before a comment of up to 65,535 bytes.
        let tailLength = Int(min(fileSize, 22 + 65_535))
        let tail = try read(fileSize - UInt64(tailLength), tailLength)
        guard tailLength >= 22,
              let end = stride(from: tailLength - 22, through: 0, by: -1).first(where: { tail.uint32($0) == 0x0605_4B50 }) else {
            throw HKError.invalidArgument("\(name) is not a zip archive (it has no end-of-central-directory record)")
        }
        let endOffset = fileSize - UInt64(tailLength) + UInt64(end)
        var count = UInt64(tail.uint16(end + 10))
        var directorySize = UInt64(tail.uint32(end + 12))
        var directoryOffset = UInt64(tail.uint32(end + 16))
        guard tail.uint16(end + 4) == 0 || tail.uint16(end + 4) == 0xFFFF else {
            throw HKError.invalidArgument("\(name) is one part of a multi-part archive; give the whole archive")
        }
        // ZIP64: a locator just before the record points at the ZIP64 end record, which holds the 64-bit figures.
        if count == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF, endOffset >= 20 {
            let locator = try read(endOffset - 20, 20)
            if locator.uint32(0) == 0x0706_4B50 {
                let record = try read(locator.uint64(8), 56)
                guard record.uint32(0) == 0x0606_4B50 else { throw HKError.invalidArgument("\(name) is damaged: its ZIP64 end record is missing") }
                count = record.uint64(32)
                directorySize = record.uint64(40)
                directoryOffset = record.uint64(48)
            }
        }
        guard directoryOffset + directorySize <= fileSize, directorySize <= 1 << 30, count <= directorySize / 46 + 1 else {
            throw HKError.invalidArgument("\(name) is damaged: its directory lies outside the file")
        }
        let directory = try read(directoryOffset, Int(directorySize))
        var entries: [Entry] = []
        entries.reserveCapacity(Int(count))
        var position = 0
        for _ in 0..<count {
            guard position + 46 <= directory.count, directory.uint32(position) == 0x0201_4B50 else {
                throw HKError.invalidArgument("\(name) is damaged: its directory ends early")
            }
            let flags = directory.uint16(position + 8)
            let method = directory.uint16(position + 10)
            let crc = directory.uint32(position + 16)
            var compressed = UInt64(directory.uint32(position + 20))
            var uncompressed = UInt64(directory.uint32(position + 24))
            let nameLength = Int(directory.uint16(position + 28)), extraLength = Int(directory.uint16(position + 30))
            let commentLength = Int(directory.uint16(position + 32))
            let madeBy = directory.uint16(position + 4) >> 8
            let external = directory.uint32(position + 38)
            var offset = UInt64(directory.uint32(position + 42))
            let nameStart = position + 46, extraStart = nameStart + nameLength
            guard extraStart + extraLength + commentLength <= directory.count else {
                throw HKError.invalidArgument("\(name) is damaged: its directory ends early")
            }
            let nameBytes = directory[nameStart..<extraStart]
            // Bit 11: the name is UTF-8; otherwise IBM 437, of which exports only use the ASCII part.
            let path = String(decoding: nameBytes, as: UTF8.self)
            // ZIP64 extra field: the 64-bit sizes and offset, each present only when its 32-bit field is all ones.
            var extra = extraStart
            while extra + 4 <= extraStart + extraLength {
                let id = directory.uint16(extra), size = Int(directory.uint16(extra + 2))
                if id == 0x0001 {
                    var field = extra + 4
                    if uncompressed == 0xFFFF_FFFF, field + 8 <= extra + 4 + size { uncompressed = directory.uint64(field); field += 8 }
                    if compressed == 0xFFFF_FFFF, field + 8 <= extra + 4 + size { compressed = directory.uint64(field); field += 8 }
                    if offset == 0xFFFF_FFFF, field + 8 <= extra + 4 + size { offset = directory.uint64(field) }
                }
                extra += 4 + size
            }
            position = extraStart + extraLength + commentLength

            // Unix symbolic links (made on a Unix system, S_IFLNK in the mode): an export has none; never followed.
            if madeBy == 3, (external >> 16) & 0o170000 == 0o120000 { continue }
            try check(path: path, archive: name)
            guard flags & 1 == 0 else { throw HKError.invalidArgument("\(name): \(path) is encrypted; an export never is") }
            guard method == 0 || method == 8 else {
                throw HKError.invalidArgument("\(name): \(path) is compressed with method \(method); only stored and DEFLATE entries are read")
            }
            guard uncompressed <= limits.maximumEntrySize else {
                throw HKError.invalidArgument("\(name): \(path) says it holds \(uncompressed.formattedBytes), more than any export: refused")
            }
            if method == 0, compressed != uncompressed {
                throw HKError.invalidArgument("\(name) is damaged: the stored entry \(path) has two sizes")
            }
            if uncompressed > 1 << 20, Double(uncompressed) > Double(max(compressed, 1)) * limits.maximumRatio {
                throw HKError.invalidArgument(
                    "\(name): \(path) would inflate \(Int(Double(uncompressed) / Double(max(compressed, 1)))) times "
                        + "(\(uncompressed.formattedBytes) from \(compressed.formattedBytes)); an export compresses about 45 times: "
                        + "refused as a zip bomb")
            }
            guard offset + 30 + compressed <= fileSize else {
                throw HKError.invalidArgument("\(name) is damaged: \(path) lies outside the file")
            }
            entries.append(Entry(path: path, method: method, compressedSize: compressed, uncompressedSize: uncompressed,
                                 crc32: crc, localHeaderOffset: offset))
        }
        // Each entry's data must lie apart from every other's: overlapping entries are how a small zip inflates a
        // thousand times over without any one entry looking big.
        let spans = entries.filter { !$0.isDirectory || $0.compressedSize > 0 }.sorted { $0.localHeaderOffset < $1.localHeaderOffset }
        for (earlier, later) in zip(spans, spans.dropFirst()) where earlier.localHeaderOffset + 30 + earlier.compressedSize > later.localHeaderOffset {
            throw HKError.invalidArgument("\(name): the entries \(earlier.path) and \(later.path) overlap: refused as a zip bomb")
        }
        // Two entries at one path: which is the person's file cannot be told (unzip tools disagree), so neither is.
        var seen = Set<String>()
        for entry in entries where !entry.isDirectory && !seen.insert(entry.path).inserted {
            throw HKError.invalidArgument("\(name) holds \(entry.path) twice: the archive was damaged or altered and which copy is the export "
                                          + "cannot be told; nothing imported")
        }
        return entries
    }

    /// Refuses a path that would leave the folder an archive is unpacked into.
    static func check(path: String, archive: String) throws {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        let escapes = path.hasPrefix("/") || path.contains("\\") || path.contains("\0") || parts.contains("..")
            || (path.count >= 2 && path.dropFirst().first == ":")
        if escapes || path.isEmpty {
            throw HKError.invalidArgument("\(archive) holds an entry whose path leaves the archive's folder (\"\(path)\"): "
                                          + "refused, nothing imported")
        }
    }
}

extension [UInt8] {
    @inline(__always) func uint16(_ at: Int) -> UInt16 { UInt16(self[at]) | UInt16(self[at + 1]) << 8 }
    @inline(__always) func uint32(_ at: Int) -> UInt32 { UInt32(uint16(at)) | UInt32(uint16(at + 2)) << 16 }
    @inline(__always) func uint64(_ at: Int) -> UInt64 { UInt64(uint32(at)) | UInt64(uint32(at + 4)) << 32 }
}

extension UInt64 {
    /// 1.2 GB, 3.4 MB, 512 bytes.
    var formattedBytes: String {
        if self >= 1_000_000_000 { return String(format: "%.1f GB", Double(self) / 1e9) }
        if self >= 1_000_000 { return String(format: "%.1f MB", Double(self) / 1e6) }
        if self >= 1_000 { return String(format: "%.1f KB", Double(self) / 1e3) }
        return "\(self) bytes"
    }
}
