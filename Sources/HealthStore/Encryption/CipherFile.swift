import Foundation
import GRDBSQLite

/// One file opened by `EncryptingVFS`: the default VFS's file underneath, and what is needed to seal and open its pages.
/// SQLite calls a file's methods from one thread at a time, so its state needs no lock.
final class CipherFile {
    let kind: PageCipher.FileKind
    let entry: EncryptedFiles.Entry
    let underlying: UnsafeMutablePointer<sqlite3_file>
    /// The default VFS's methods for `underlying`.
    let base: sqlite3_io_methods
    /// The database this file belongs to (itself, for the database), whose page 1 holds the identity.
    let databasePath: String
    let fileName: String
    /// The database's random identity, once known (read from page 1, or made for a new database's first write).
    private var identity: [UInt8]?
    /// The first 8 bytes of the frame headers this file wrote to the log, by frame offset: SQLite writes a frame's page
    /// right after its header, and reads it back (a checkpoint) without it; the page's seal names them. Only a hint — another
    /// connection may have started the log again since — so a page that does not open with it is tried with the header
    /// on disk before it is reported.
    private var frameHeaders: [Int64: UInt64] = [:]
    /// A page's worth of room for sealing, and for reading pages that a request covers in part.
    private let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: PageCipher.pageSize, alignment: 16)
    private let header = UnsafeMutableRawBufferPointer.allocate(byteCount: 32, alignment: 16)
    private var nonces = NoncePool()

    private static let pageSize = PageCipher.pageSize
    private static let logHeaderSize = 32
    private static let frameHeaderSize = 24

    init(kind: PageCipher.FileKind, entry: EncryptedFiles.Entry, underlying: UnsafeMutablePointer<sqlite3_file>,
         databasePath: String, fileName: String) {
        self.kind = kind
        self.entry = entry
        self.underlying = underlying
        self.base = underlying.pointee.pMethods.pointee
        self.databasePath = databasePath
        self.fileName = fileName
    }

    deinit {
        scratch.deallocate()
        header.deallocate()
    }

    private var displayName: String { (fileName as NSString).lastPathComponent }

    // MARK: Identity

    /// The database's identity: page 1's first 16 bytes, read from the database file (through this file when it is the
    /// database). Nil while the database is empty.
    private func knownIdentity() -> [UInt8]? {
        if let identity { return identity }
        var bytes = [UInt8](repeating: 0, count: PageCipher.identitySize)
        let read: Bool
        if kind == .database {
            read = bytes.withUnsafeMutableBytes { base.xRead!(underlying, $0.baseAddress, Int32(PageCipher.identitySize), 0) } == SQLITE_OK
        } else {
            // Through the default VFS, never a descriptor of our own (see `EncryptingVFS.databaseHead`).
            guard let head = EncryptingVFS.databaseHead(databasePath) else { return nil }
            bytes = head
            read = true
        }
        guard read, bytes.contains(where: { $0 != 0 }) else { return nil }
        identity = bytes
        return bytes
    }

    private func failed(_ description: String) -> Int32 {
        entry.recordFailure(description)
        return SQLITE_IOERR_AUTH
    }

    // MARK: Reading

    func read(_ buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> Int32 {
        // A locked store reads nothing (and a log read while locked is never taken for torn frames).
        if entry.cipher.isForgotten { return SQLITE_IOERR_AUTH }
        switch kind {
        case .database: return readDatabase(buffer, at: offset)
        case .log: return readLog(buffer, at: offset)
        case .journal: return readJournal(buffer, at: offset)
        }
    }

    /// Reads whole pages straight into SQLite's buffer and opens them there; a read of part of a page (the header's first
    /// 100 bytes, the change counter) reads its page aside.
    private func readDatabase(_ buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> Int32 {
        let size = Int64(Self.pageSize)
        if offset % size == 0, buffer.count % Self.pageSize == 0 {
            let code = base.xRead!(underlying, buffer.baseAddress, Int32(buffer.count), offset)
            guard code == SQLITE_OK || code == SQLITE_IOERR_SHORT_READ else { return code }
            let present = code == SQLITE_OK ? buffer.count : presentBytes(from: offset, count: buffer.count)
            for start in stride(from: 0, to: present, by: Self.pageSize) {
                let page = UnsafeMutableRawBufferPointer(rebasing: buffer[start..<(start + Self.pageSize)])
                let result = openDatabasePage(page, number: UInt64((offset + Int64(start)) / size) + 1)
                guard result == SQLITE_OK else { return result }
            }
            return code
        }
        var code = SQLITE_OK
        var position = offset
        var written = 0
        while written < buffer.count {
            let pageStart = position - position % size
            let read = base.xRead!(underlying, scratch.baseAddress, Int32(Self.pageSize), pageStart)
            guard read == SQLITE_OK || read == SQLITE_IOERR_SHORT_READ else { return read }
            let within = Int(position - pageStart)
            let take = min(Self.pageSize - within, buffer.count - written)
            if read == SQLITE_OK {
                let result = openDatabasePage(scratch, number: UInt64(pageStart / size) + 1)
                guard result == SQLITE_OK else { return result }
                buffer.baseAddress!.advanced(by: written).copyMemory(from: scratch.baseAddress!.advanced(by: within), byteCount: take)
            } else {
                // Past the end of the file (an empty database's header): zeros, as SQLite expects.
                buffer.baseAddress!.advanced(by: written).initializeMemory(as: UInt8.self, repeating: 0, count: take)
                code = SQLITE_IOERR_SHORT_READ
            }
            written += take
            position += Int64(take)
        }
        return code
    }

    private func openDatabasePage(_ page: UnsafeMutableRawBufferPointer, number: UInt64) -> Int32 {
        if number == 1 {
            let identity = Array(UnsafeRawBufferPointer(rebasing: page[0..<PageCipher.identitySize]))
            guard identity.contains(where: { $0 != 0 }) else { return failed("page 1 of \(displayName) has no identity") }
            self.identity = identity
            let opened = identity.withUnsafeBytes {
                entry.cipher.open(page, from: PageCipher.identitySize, identity: $0, kind: .database, place: number)
            }
            guard opened else { return failed("page 1 of \(displayName)") }
            PageCipher.sqliteMagic.withUnsafeBytes { page.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: PageCipher.identitySize) }
            return SQLITE_OK
        }
        guard let identity = knownIdentity() else { return failed("page \(number) of \(displayName), whose page 1 is missing") }
        let opened = identity.withUnsafeBytes { entry.cipher.open(page, from: 0, identity: $0, kind: .database, place: number) }
        return opened ? SQLITE_OK : failed("page \(number) of \(displayName)")
    }

    /// How many of `count` bytes from `offset` the file holds (after a short read).
    private func presentBytes(from offset: Int64, count: Int) -> Int {
        var size: sqlite3_int64 = 0
        guard base.xFileSize!(underlying, &size) == SQLITE_OK else { return 0 }
        let present = max(0, min(Int64(count), size - offset))
        return Int(present) - Int(present) % Self.pageSize
    }

    /// The log: a 32-byte header and frames of a 24-byte header and a page. Headers are in clear; each frame's page is
    /// sealed, bound to its place and to its header's page number and commit size.
    private func readLog(_ buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> Int32 {
        let code = base.xRead!(underlying, buffer.baseAddress, Int32(buffer.count), offset)
        guard code == SQLITE_OK || code == SQLITE_IOERR_SHORT_READ else { return code }
        var fileSize: sqlite3_int64 = .max
        if code == SQLITE_IOERR_SHORT_READ, base.xFileSize!(underlying, &fileSize) != SQLITE_OK { fileSize = 0 }
        let end = offset + Int64(buffer.count)
        for frame in frames(overlapping: offset..<end) {
            let pageStart = frame + Int64(Self.frameHeaderSize)
            guard pageStart + Int64(Self.pageSize) <= fileSize else { break }
            let headerInside = frame >= offset && frame + 8 <= end
            if pageStart >= offset, pageStart + Int64(Self.pageSize) <= end {
                let page = UnsafeMutableRawBufferPointer(rebasing: buffer[Int(pageStart - offset)..<Int(pageStart - offset) + Self.pageSize])
                let frameHeader = headerInside ? UnsafeRawBufferPointer(rebasing: buffer[Int(frame - offset)..<Int(frame - offset) + 8]) : nil
                guard openLogPage(page, frame: frame, header: frameHeader) else {
                    // A whole frame read is SQLite scanning the log after a crash. A frame torn by the crash is the last
                    // of the log: it reads as zeros, fails its checksum and ends the scan, as without encryption. A frame
                    // followed by one of the same log that opens was not torn but altered: reported.
                    if headerInside, !laterFrameOpens(after: frame) { page.initializeMemory(as: UInt8.self, repeating: 0); continue }
                    return failed("the page of the frame at byte \(frame) of \(displayName)")
                }
            } else {
                // Part of a frame's page: read it whole aside.
                guard base.xRead!(underlying, scratch.baseAddress, Int32(Self.pageSize), pageStart) == SQLITE_OK,
                      openLogPage(scratch, frame: frame, header: nil)
                else { return failed("the page of the frame at byte \(frame) of \(displayName)") }
                let from = max(offset, pageStart), to = min(end, pageStart + Int64(Self.pageSize))
                buffer.baseAddress!.advanced(by: Int(from - offset)).copyMemory(from: scratch.baseAddress!.advanced(by: Int(from - pageStart)),
                                                                                 byteCount: Int(to - from))
            }
        }
        return code
    }

    /// The starts of the frames whose pages overlap `range`.
    private func frames(overlapping range: Range<Int64>) -> [Int64] {
        let frameSize = Int64(Self.frameHeaderSize + Self.pageSize)
        let firstPage = Int64(Self.logHeaderSize + Self.frameHeaderSize)
        var index = max(0, (range.lowerBound - firstPage - Int64(Self.pageSize)) / frameSize)
        var starts: [Int64] = []
        while true {
            let frame = Int64(Self.logHeaderSize) + index * frameSize
            let pageStart = frame + Int64(Self.frameHeaderSize)
            if pageStart >= range.upperBound { break }
            if pageStart + Int64(Self.pageSize) > range.lowerBound { starts.append(frame) }
            index += 1
        }
        return starts
    }

    /// Whether a frame after `frame`, of the log that starts with the current header (the same salts), opens.
    private func laterFrameOpens(after frame: Int64) -> Bool {
        guard base.xRead!(underlying, header.baseAddress, 32, 0) == SQLITE_OK else { return false }
        let salts = Array(UnsafeRawBufferPointer(rebasing: header[16..<24]))
        var next = frame + Int64(Self.frameHeaderSize + Self.pageSize)
        while true {
            guard base.xRead!(underlying, header.baseAddress, 16, next) == SQLITE_OK,
                  base.xRead!(underlying, scratch.baseAddress, Int32(Self.pageSize), next + Int64(Self.frameHeaderSize)) == SQLITE_OK
            else { return false }
            if Array(UnsafeRawBufferPointer(rebasing: header[8..<16])) == salts,
               openLogPage(scratch, frame: next, header: UnsafeRawBufferPointer(rebasing: header[0..<8])) {
                return true
            }
            next += Int64(Self.frameHeaderSize + Self.pageSize)
        }
    }

    private func openLogPage(_ page: UnsafeMutableRawBufferPointer, frame: Int64, header frameHeader: UnsafeRawBufferPointer?) -> Bool {
        guard let identity = knownIdentity() else { return false }
        if let frameHeader {
            return identity.withUnsafeBytes { entry.cipher.open(page, from: 0, identity: $0, kind: .log, place: UInt64(frame), frameHeader: frameHeader) }
        }
        if let known = frameHeaders[frame] {
            let opened = withUnsafeBytes(of: known) { cached in
                identity.withUnsafeBytes { entry.cipher.open(page, from: 0, identity: $0, kind: .log, place: UInt64(frame), frameHeader: cached) }
            }
            if opened { return true }
        }
        guard base.xRead!(underlying, header.baseAddress, 8, frame) == SQLITE_OK else { return false }
        return identity.withUnsafeBytes {
            entry.cipher.open(page, from: 0, identity: $0, kind: .log, place: UInt64(frame),
                              frameHeader: UnsafeRawBufferPointer(rebasing: header[0..<8]))
        }
    }

    /// A rollback journal: its pages are the page-sized reads and writes that do not start on a 512-byte boundary
    /// (each follows a 4-byte page number; headers start on sector boundaries). A page that does not open reads as zeros,
    /// so SQLite's checksum stops the rollback there, as for a torn write.
    private func readJournal(_ buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> Int32 {
        let code = base.xRead!(underlying, buffer.baseAddress, Int32(buffer.count), offset)
        guard code == SQLITE_OK, buffer.count == Self.pageSize, offset % 512 != 0 else { return code }
        guard let identity = knownIdentity(),
              identity.withUnsafeBytes({ entry.cipher.open(buffer, from: 0, identity: $0, kind: .journal, place: UInt64(offset)) })
        else {
            entry.recordFailure("the page at byte \(offset) of \(displayName)")
            buffer.initializeMemory(as: UInt8.self, repeating: 0)
            return code
        }
        return code
    }

    /// The file is cut short: the log's remembered frame headers no longer hold.
    func truncated() { frameHeaders.removeAll(keepingCapacity: true) }

    // MARK: Writing

    func write(_ buffer: UnsafeRawBufferPointer, at offset: Int64) -> Int32 {
        switch kind {
        case .database: return writeDatabase(buffer, at: offset)
        case .log: return writeLog(buffer, at: offset)
        case .journal: return writeJournal(buffer, at: offset)
        }
    }

    private func writeDatabase(_ buffer: UnsafeRawBufferPointer, at offset: Int64) -> Int32 {
        let size = Int64(Self.pageSize)
        // Anything but whole pages would put clear bytes on disk: refused.
        guard offset % size == 0, buffer.count % Self.pageSize == 0 else { return SQLITE_IOERR_WRITE }
        for start in stride(from: 0, to: buffer.count, by: Self.pageSize) {
            let page = UnsafeRawBufferPointer(rebasing: buffer[start..<(start + Self.pageSize)])
            let number = UInt64((offset + Int64(start)) / size) + 1
            let code = sealDatabasePage(page, number: number)
            guard code == SQLITE_OK else { return code }
            let written = base.xWrite!(underlying, scratch.baseAddress, Int32(Self.pageSize), offset + Int64(start))
            guard written == SQLITE_OK else { return written }
        }
        return SQLITE_OK
    }

    private func sealDatabasePage(_ page: UnsafeRawBufferPointer, number: UInt64) -> Int32 {
        if number == 1 {
            // Page 1 must say this page size and these reserved bytes, or SQLite would use the bytes the seal needs.
            let declaredSize = Int(page[16]) << 8 | Int(page[17])
            guard declaredSize == Self.pageSize, Int(page[20]) == PageCipher.reservedBytes else { return SQLITE_IOERR_WRITE }
        }
        let identity: [UInt8]
        if let known = knownIdentity() {
            identity = known
        } else {
            // A new database's first write (page 1, or another when SQLite spills pages before page 1, as `VACUUM INTO`
            // does): its identity is made here, and page 1 carries it when it is written.
            var fresh = [UInt8](repeating: 0, count: PageCipher.identitySize)
            repeat { fresh = (0..<PageCipher.identitySize).map { _ in UInt8.random(in: 0...255) } } while !fresh.contains(where: { $0 != 0 })
            self.identity = fresh
            identity = fresh
        }
        do {
            try identity.withUnsafeBytes { identityBytes in
                if number == 1 {
                    // Page 1 as SQLite wrote it, with the identity in place of its magic text.
                    scratch.baseAddress!.copyMemory(from: page.baseAddress!, byteCount: Self.pageSize)
                    scratch.baseAddress!.copyMemory(from: identityBytes.baseAddress!, byteCount: PageCipher.identitySize)
                    try withUnsafeTemporaryAllocation(byteCount: Self.pageSize, alignment: 16) { plain in
                        plain.copyMemory(from: UnsafeRawBufferPointer(scratch))
                        try entry.cipher.seal(UnsafeRawBufferPointer(plain), into: scratch, from: PageCipher.identitySize, nonce: nonces.take(),
                                              identity: identityBytes, kind: .database, place: number)
                    }
                } else {
                    try entry.cipher.seal(page, into: scratch, from: 0, nonce: nonces.take(), identity: identityBytes, kind: .database, place: number)
                }
            }
        } catch {
            return SQLITE_IOERR_WRITE
        }
        return SQLITE_OK
    }

    /// The log: headers go through as they are (the frame header remembered for the page that follows); a frame's page
    /// must be written whole and is sealed.
    private func writeLog(_ buffer: UnsafeRawBufferPointer, at offset: Int64) -> Int32 {
        let end = offset + Int64(buffer.count)
        let pages = frames(overlapping: offset..<end)
        if pages.isEmpty {
            if offset == 0, buffer.count >= 12 {
                // The log's header names its page size: only this one can be sealed.
                let declared = Int(buffer[8]) << 24 | Int(buffer[9]) << 16 | Int(buffer[10]) << 8 | Int(buffer[11])
                guard declared == Self.pageSize else { return SQLITE_IOERR_WRITE }
            }
            if offset == 0 { frameHeaders.removeAll(keepingCapacity: true) }  // the log starts again
            if buffer.count >= 8, offset >= Int64(Self.logHeaderSize),
               (offset - Int64(Self.logHeaderSize)) % Int64(Self.frameHeaderSize + Self.pageSize) == 0 {
                frameHeaders[offset] = buffer.loadUnaligned(as: UInt64.self)
            }
            return base.xWrite!(underlying, buffer.baseAddress, Int32(buffer.count), offset)
        }
        guard let identity = knownIdentity() else { return SQLITE_IOERR_WRITE }
        var position = offset
        for frame in pages {
            let pageStart = frame + Int64(Self.frameHeaderSize)
            guard pageStart >= offset, pageStart + Int64(Self.pageSize) <= end else { return SQLITE_IOERR_WRITE }
            // What precedes the page (headers) goes as it is.
            if pageStart > position {
                let code = base.xWrite!(underlying, buffer.baseAddress!.advanced(by: Int(position - offset)), Int32(pageStart - position), position)
                guard code == SQLITE_OK else { return code }
            }
            var frameHeader: [UInt8]
            if frame >= offset {
                frameHeader = Array(UnsafeRawBufferPointer(rebasing: buffer[Int(frame - offset)..<Int(frame - offset) + 8]))
            } else if let known = frameHeaders[frame] {
                frameHeader = withUnsafeBytes(of: known) { Array($0) }
            } else {
                frameHeader = [UInt8](repeating: 0, count: 8)
                guard frameHeader.withUnsafeMutableBytes({ base.xRead!(underlying, $0.baseAddress, 8, frame) }) == SQLITE_OK else { return SQLITE_IOERR_WRITE }
            }
            let page = UnsafeRawBufferPointer(rebasing: buffer[Int(pageStart - offset)..<Int(pageStart - offset) + Self.pageSize])
            do {
                try identity.withUnsafeBytes { identityBytes in
                    try frameHeader.withUnsafeBytes { headerBytes in
                        try entry.cipher.seal(page, into: scratch, from: 0, nonce: nonces.take(), identity: identityBytes, kind: .log,
                                              place: UInt64(frame), frameHeader: headerBytes)
                    }
                }
            } catch { return SQLITE_IOERR_WRITE }
            let code = base.xWrite!(underlying, scratch.baseAddress, Int32(Self.pageSize), pageStart)
            guard code == SQLITE_OK else { return code }
            position = pageStart + Int64(Self.pageSize)
        }
        if position < end {
            return base.xWrite!(underlying, buffer.baseAddress!.advanced(by: Int(position - offset)), Int32(end - position), position)
        }
        return SQLITE_OK
    }

    private func writeJournal(_ buffer: UnsafeRawBufferPointer, at offset: Int64) -> Int32 {
        guard buffer.count == Self.pageSize, offset % 512 != 0 else {
            return base.xWrite!(underlying, buffer.baseAddress, Int32(buffer.count), offset)
        }
        guard let identity = knownIdentity() else { return SQLITE_IOERR_WRITE }
        do {
            try identity.withUnsafeBytes {
                try entry.cipher.seal(buffer, into: scratch, from: 0, nonce: nonces.take(), identity: $0, kind: .journal, place: UInt64(offset))
            }
        } catch { return SQLITE_IOERR_WRITE }
        return base.xWrite!(underlying, scratch.baseAddress, Int32(Self.pageSize), offset)
    }
}

// SQLite's extended result codes are macros Swift does not import (`SQLITE_IOERR | (n << 8)`).
let SQLITE_IOERR_SHORT_READ = SQLITE_IOERR | (2 << 8)
let SQLITE_IOERR_WRITE = SQLITE_IOERR | (3 << 8)
let SQLITE_IOERR_AUTH = SQLITE_IOERR | (28 << 8)
