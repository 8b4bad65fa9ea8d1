#if canImport(CZlib)
import CZlib  // ZIPFoundation's module for the system zlib (Linux)
#else
import zlib
#endif
import HealthModel

/// One entry of a zip archive read front to back: stored bytes as they are, DEFLATE inflated straight into the
/// reader's buffer. It never gives more bytes than the archive's directory declares (a lying size is an error, not a
/// bomb), and at the end checks the size and the CRC-32.
package final class ZipEntryStream: ByteStream {
    private let archive: ZipArchiveReader
    private let entry: ZipArchiveReader.Entry
    /// Where the next compressed bytes are read from, and how many are left.
    private var offset: UInt64
    private var remaining: UInt64
    private var produced: UInt64 = 0
    private var crc: UInt = 0
    private var finished = false
    /// The DEFLATE stream (or the stored bytes) ended: the next read checks size and checksum.
    private var ended = false
    private var stream = z_stream()
    private var input: UnsafeMutableRawBufferPointer
    private static let inputSize = 1 << 18

    init(archive: ZipArchiveReader, entry: ZipArchiveReader.Entry, dataStart: UInt64) {
        self.archive = archive
        self.entry = entry
        offset = dataStart
        remaining = entry.compressedSize
        input = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.inputSize, alignment: 16)
        if entry.method == 8 {
            _ = inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        }
    }

    deinit {
        if entry.method == 8 { inflateEnd(&stream) }
        input.deallocate()
    }

    /// The entry's uncompressed size, as its directory declares it.
    package var size: UInt64 { entry.uncompressedSize }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard !finished, buffer.count > 0 else { return 0 }
        let count = entry.method == 8 ? try inflate(into: buffer) : try copy(into: buffer)
        produced += UInt64(count)
        guard produced <= entry.uncompressedSize else {
            // A flipped bit does this as well as a bomb: either way the archive is not what it says.
            throw archive.damaged("\(entry.path) inflates past the \(entry.uncompressedSize.formattedBytes) its directory declares "
                                  + "(refused, as a zip bomb would be)")
        }
        if count > 0 { crc = crc32(crc, buffer.baseAddress!.assumingMemoryBound(to: Bytef.self), UInt32(count)) }
        if count == 0 || ended || (entry.method == 0 && remaining == 0) { try end() }
        return count
    }

    private func copy(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let want = Int(min(UInt64(buffer.count), remaining))
        guard want > 0 else { return 0 }
        let got = try archive.read(at: offset, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]))
        guard got == want else { throw archive.damaged("\(entry.path) ends early") }
        offset += UInt64(got)
        remaining -= UInt64(got)
        return got
    }

    private func inflate(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        stream.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
        stream.avail_out = UInt32(min(buffer.count, Int(UInt32.max)))
        while stream.avail_out > 0 {
            if stream.avail_in == 0 && remaining > 0 {
                let want = Int(min(UInt64(Self.inputSize), remaining))
                let got = try archive.read(at: offset, into: UnsafeMutableRawBufferPointer(rebasing: input[0..<want]))
                guard got == want else { throw archive.damaged("\(entry.path) ends early") }
                offset += UInt64(got)
                remaining -= UInt64(got)
                stream.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.avail_in = UInt32(got)
            }
            let before = stream.avail_out
            let status = CZlibInflate(&stream)
            if status == Z_STREAM_END { ended = true; break }
            guard status == Z_OK || status == Z_BUF_ERROR else {
                throw archive.damaged("\(entry.path) is not valid DEFLATE data at byte \(produced + UInt64(buffer.count) - UInt64(stream.avail_out))")
            }
            if stream.avail_out == before && stream.avail_in == 0 && remaining == 0 {
                throw archive.damaged("\(entry.path) ends before its DEFLATE data does")
            }
        }
        return buffer.count - Int(stream.avail_out)
    }

    /// The entry is read: its size and checksum must be those its directory declares.
    private func end() throws {
        finished = true
        guard produced == entry.uncompressedSize else {
            throw archive.damaged("\(entry.path) holds \(produced.formattedBytes), its directory says \(entry.uncompressedSize.formattedBytes)")
        }
        guard UInt32(truncatingIfNeeded: crc) == entry.crc32 else {
            throw archive.damaged("the checksum of \(entry.path) does not match (CRC-32)")
        }
    }
}

/// zlib's `inflate`, under a name the stream's own `inflate(into:)` does not hide.
@inline(__always) private func CZlibInflate(_ stream: UnsafeMutablePointer<z_stream>) -> Int32 {
    inflate(stream, Z_NO_FLUSH)
}
