import CPageSeal
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

    /// The key, set up once (`ohk_page_key`), shared by every file and thread that uses this cipher; forgotten while
    /// the store is locked.
    private let prepared: PreparedKey

    init(key: SymmetricKey) {
        prepared = PreparedKey(key)
    }

    /// Whether the key is forgotten (the store locked): no page can be sealed or opened until it is restored.
    var isForgotten: Bool { prepared.isForgotten }

    /// Frees the key (BoringSSL wipes its memory), after the seals and opens in progress: from now on no page of the store
    /// can be read or written in this process, until `restore`.
    func forget() { prepared.forget() }

    /// Sets the key up again (the same data key, unwrapped anew when the store is unlocked).
    func restore(_ key: SymmetricKey) { prepared.restore(key) }

    /// BoringSSL's AES-256-GCM context for one key, freed with the last cipher that uses it or when the store is locked.
    /// Each page's seal or open holds a shared lock on it; forgetting the key takes it exclusively, so a context is never
    /// freed under a page being sealed.
    private final class PreparedKey: @unchecked Sendable {  // the pointer changes only under the exclusive lock
        private var pointer: OpaquePointer?
        private let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)

        init(_ key: SymmetricKey) {
            pthread_rwlock_init(lock, nil)
            pointer = Self.make(key)
        }

        private static func make(_ key: SymmetricKey) -> OpaquePointer {
            guard let made = key.withUnsafeBytes({ ohk_page_key_new($0.bindMemory(to: UInt8.self).baseAddress) }) else {
                fatalError("BoringSSL refused a 256-bit AES-GCM key")
            }
            return made
        }

        /// `body` with the context, or nil when the key is forgotten.
        func with<R>(_ body: (OpaquePointer) -> R) -> R? {
            pthread_rwlock_rdlock(lock)
            defer { pthread_rwlock_unlock(lock) }
            return pointer.map(body)
        }

        var isForgotten: Bool { with { _ in false } ?? true }

        func forget() {
            pthread_rwlock_wrlock(lock)
            defer { pthread_rwlock_unlock(lock) }
            ohk_page_key_free(pointer)
            pointer = nil
        }

        func restore(_ key: SymmetricKey) {
            pthread_rwlock_wrlock(lock)
            defer { pthread_rwlock_unlock(lock) }
            if pointer == nil { pointer = Self.make(key) }
        }

        deinit {
            ohk_page_key_free(pointer)
            pthread_rwlock_destroy(lock)
            lock.deallocate()
        }
    }

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

    /// Seals the page in `plain` into `sealed` (both `pageSize` bytes; they may not overlap) under `nonce` (fresh random
    /// bytes, never used before: `NoncePool`). Bytes before `start` are copied as they are (page 1's identity, which the
    /// caller has put there).
    func seal(_ plain: UnsafeRawBufferPointer, into sealed: UnsafeMutableRawBufferPointer, from start: Int, nonce: AES.GCM.Nonce,
              identity: UnsafeRawBufferPointer, kind: FileKind, place: UInt64, frameHeader: UnsafeRawBufferPointer? = nil) throws {
        let end = Self.pageSize - Self.reservedBytes
        let out = sealed.baseAddress!.assumingMemoryBound(to: UInt8.self)
        if start > 0 { sealed.baseAddress!.copyMemory(from: plain.baseAddress!, byteCount: start) }
        nonce.withUnsafeBytes { sealed.baseAddress!.advanced(by: end).copyMemory(from: $0.baseAddress!, byteCount: Self.nonceSize) }
        let done = Self.withAssociatedData(identity: identity, kind: kind, place: place, frameHeader: frameHeader) { associated in
            prepared.with { ohk_page_seal($0, out.advanced(by: start), out.advanced(by: end + Self.nonceSize), out.advanced(by: end), Self.nonceSize,
                          plain.baseAddress!.assumingMemoryBound(to: UInt8.self).advanced(by: start), end - start,
                          associated.baseAddress!.assumingMemoryBound(to: UInt8.self), associated.count) }
        }
        guard let done else { throw StoreLockedError() }
        guard done == 1 else { throw CryptoKitError.underlyingCoreCryptoError(error: 0) }
        for index in (end + Self.nonceSize + Self.tagSize)..<Self.pageSize { sealed[index] = 0 }
    }

    /// Opens the sealed page in `page`, in place: on success the page holds its plain bytes from `start` on, with its
    /// reserved bytes zeroed. Returns false, leaving the page as it was, when the page does not authenticate — altered,
    /// moved, or sealed with another key.
    func open(_ page: UnsafeMutableRawBufferPointer, from start: Int, identity: UnsafeRawBufferPointer, kind: FileKind, place: UInt64,
              frameHeader: UnsafeRawBufferPointer? = nil) -> Bool {
        let end = Self.pageSize - Self.reservedBytes
        let bytes = page.baseAddress!.assumingMemoryBound(to: UInt8.self)
        // Into a buffer of its own: BoringSSL clears its output when the page does not authenticate, and the page must
        // stay as it was then (it may be tried again with another frame header).
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.pageSize) { plain in
            let done = Self.withAssociatedData(identity: identity, kind: kind, place: place, frameHeader: frameHeader) { associated in
                prepared.with { ohk_page_open($0, plain.baseAddress!, bytes.advanced(by: end), Self.nonceSize, bytes.advanced(by: start), end - start,
                              bytes.advanced(by: end + Self.nonceSize), associated.baseAddress!.assumingMemoryBound(to: UInt8.self), associated.count) }
            }
            guard done == 1 else { return false }
            page.baseAddress!.advanced(by: start).copyMemory(from: plain.baseAddress!, byteCount: end - start)
            for index in end..<Self.pageSize { page[index] = 0 }
            return true
        }
    }
}

/// A page was to be sealed while the store is locked (its key forgotten).
struct StoreLockedError: Error {}

/// Random nonces for one file's writes, drawn from the system's generator 4 KiB at a time (`AES.GCM.Nonce()` asks the
/// kernel for 12 bytes on every page written, which cost as much as sealing the page). Every nonce is 96 random bits,
/// as `AES.GCM.Nonce()`'s are; bytes are never handed out twice.
struct NoncePool {
    private var bytes = [UInt8](repeating: 0, count: 4096)
    private var next = 4096

    mutating func take() throws -> AES.GCM.Nonce {
        if next + PageCipher.nonceSize > bytes.count {
            var generator = SystemRandomNumberGenerator()
            bytes.withUnsafeMutableBytes { buffer in
                for index in stride(from: 0, to: buffer.count, by: 8) {
                    buffer.storeBytes(of: generator.next(), toByteOffset: index, as: UInt64.self)
                }
            }
            next = 0
        }
        defer { next += PageCipher.nonceSize }
        return try AES.GCM.Nonce(data: bytes[next..<(next + PageCipher.nonceSize)])
    }
}
