import Crypto
import Foundation

/// How the pages of an encrypted store are sealed: AES-256-GCM per page, a fresh random nonce for every write, the nonce
/// and tag kept in the page's reserved bytes (the last `reservedBytes` of every page, which SQLite leaves alone when the
/// database says so), and bound as associated data to the file's identity, the kind of file and the page's place in it —
/// so a page cannot be moved to another page, another file or another kind of file without failing to open.
///
/// A page on disk: `[sealed bytes][nonce 12][tag 16][zero 4]`. Page 1 of the database keeps its first 16 bytes (where
/// SQLite writes "SQLite format 3") for the file's random identity, in clear; the rest of it is sealed as any page.
struct PageCipher: Sendable {
    /// Every encrypted store uses this page size (SQLite's default): the VFS must know where pages start before it has
    /// read any of them.
    static let pageSize = 4096
    /// Bytes at the end of each page that SQLite leaves to the VFS: nonce, tag, and 4 bytes kept zero.
    static let reservedBytes = 32
    static let nonceSize = 12
    static let tagSize = 16
    /// The bytes of page 1 that hold the file's identity instead of SQLite's magic text.
    static let identitySize = 16
    /// What SQLite writes in those bytes, given back to it when page 1 is read.
    static let sqliteMagic: [UInt8] = Array("SQLite format 3\0".utf8)

    /// Which file of a store a page belongs to: bound into every page so that a page from the log cannot stand in for
    /// one of the database, nor one of the rollback journal for either.
    enum FileKind: UInt8, Sendable {
        case database = 0x44  // "D"
        case log = 0x57  // "W"
        case journal = 0x4A  // "J"
    }

    let key: SymmetricKey

    /// The associated data of one page: identity (16), kind (1), place (8, big-endian), and for a page of the write-ahead
    /// log the first 8 bytes of its frame header (page number, commit size), so a frame cannot stand for another page. Not
    /// its salts: SQLite writes a frame with zero salts when it will rewrite the transaction's checksums at commit, and
    /// fills them in then, without writing the page again. (A frame of an older log put in its place still fails: its
    /// salts or its checksum, over the plain page, no longer match the log's.)
    private static func withAssociatedData<R>(identity: UnsafeRawBufferPointer, kind: FileKind, place: UInt64,
                                             frameHeader: UnsafeRawBufferPointer?, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeTemporaryAllocation(byteCount: 33, alignment: 8) { buffer in
            buffer.copyMemory(from: identity)
            buffer[16] = kind.rawValue
            withUnsafeBytes(of: place.bigEndian) { buffer.baseAddress!.advanced(by: 17).copyMemory(from: $0.baseAddress!, byteCount: 8) }
            var count = 25
            if let frameHeader {
                buffer.baseAddress!.advanced(by: 25).copyMemory(from: frameHeader.baseAddress!, byteCount: 8)
                count = 33
            }
            return try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    /// Seals the page in `plain` into `sealed` (both `pageSize` bytes; they may not overlap). Bytes before `start` are
    /// copied as they are (page 1's identity, which the caller has put there).
    func seal(_ plain: UnsafeRawBufferPointer, into sealed: UnsafeMutableRawBufferPointer, from start: Int,
              identity: UnsafeRawBufferPointer, kind: FileKind, place: UInt64, frameHeader: UnsafeRawBufferPointer? = nil) throws {
        let end = Self.pageSize - Self.reservedBytes
        let box = try Self.withAssociatedData(identity: identity, kind: kind, place: place, frameHeader: frameHeader) { associated in
            try AES.GCM.seal(UnsafeRawBufferPointer(rebasing: plain[start..<end]), using: key, nonce: AES.GCM.Nonce(), authenticating: associated)
        }
        if start > 0 { sealed.baseAddress!.copyMemory(from: plain.baseAddress!, byteCount: start) }
        box.ciphertext.withUnsafeBytes { sealed.baseAddress!.advanced(by: start).copyMemory(from: $0.baseAddress!, byteCount: end - start) }
        box.nonce.withUnsafeBytes { sealed.baseAddress!.advanced(by: end).copyMemory(from: $0.baseAddress!, byteCount: Self.nonceSize) }
        box.tag.withUnsafeBytes { sealed.baseAddress!.advanced(by: end + Self.nonceSize).copyMemory(from: $0.baseAddress!, byteCount: Self.tagSize) }
        for index in (end + Self.nonceSize + Self.tagSize)..<Self.pageSize { sealed[index] = 0 }
    }

    /// Opens the sealed page in `page`, in place: on success the page holds its plain bytes from `start` on, with its
    /// reserved bytes zeroed. Returns false, leaving the page as it was, when the page does not authenticate — altered,
    /// moved, or sealed with another key.
    func open(_ page: UnsafeMutableRawBufferPointer, from start: Int, identity: UnsafeRawBufferPointer, kind: FileKind, place: UInt64,
              frameHeader: UnsafeRawBufferPointer? = nil) -> Bool {
        let end = Self.pageSize - Self.reservedBytes
        let readOnly = UnsafeRawBufferPointer(page)
        guard let nonce = try? AES.GCM.Nonce(data: UnsafeRawBufferPointer(rebasing: readOnly[end..<(end + Self.nonceSize)])),
              let box = try? AES.GCM.SealedBox(nonce: nonce, ciphertext: UnsafeRawBufferPointer(rebasing: readOnly[start..<end]),
                                               tag: UnsafeRawBufferPointer(rebasing: readOnly[(end + Self.nonceSize)..<(end + Self.nonceSize + Self.tagSize)])),
              let plain = try? Self.withAssociatedData(identity: identity, kind: kind, place: place, frameHeader: frameHeader, { associated in
                  try AES.GCM.open(box, using: key, authenticating: associated)
              })
        else { return false }
        plain.withUnsafeBytes { page.baseAddress!.advanced(by: start).copyMemory(from: $0.baseAddress!, byteCount: end - start) }
        for index in end..<Self.pageSize { page[index] = 0 }
        return true
    }
}
