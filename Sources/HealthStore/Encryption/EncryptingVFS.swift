import Crypto
import Foundation
import GRDBSQLite
import Synchronization

/// The SQLite VFS of encrypted stores (`openhealthkit-aead`): a shim over SQLite's default VFS that seals every page of a
/// store's database, write-ahead log and rollback journal on its way to disk and opens it on its way back (`PageCipher`),
/// so SQLite — and every query and aggregation in SQL — sees plain pages while no file holds one.
///
/// A connection chooses it with a URI file name, `file:…/health.sqlite?vfs=openhealthkit-aead&cipher=ID`, where ID names a
/// key registered in this process (`EncryptedFiles`); the key itself never appears in a file name. What it relies on:
/// - the database's pages are `PageCipher.pageSize` bytes with `PageCipher.reservedBytes` reserved (checked on every write
///   of page 1: a page 1 that says otherwise is refused, never written);
/// - SQLite writes the database in whole pages, the log's frames as a header then the page, and a journal's pages as
///   page-sized writes between the 4-byte page number and checksum (true of SQLite's pager and WAL, with
///   powersafe overwrite, which this VFS reports);
/// - no temporary file: connections set `temp_store = MEMORY`, and a temporary file is refused rather than written in clear.
/// The shared-memory index (`-shm`) holds page and frame numbers only, and is passed through.
///
/// A page that does not authenticate is never returned as data: a read of the database or of a frame the log index
/// names fails with `SQLITE_IOERR_AUTH`. When SQLite scans a log or a journal after a crash it reads whole frames and
/// records, and one that does not open reads as zeros — its checksum then fails, as a torn write's does, and SQLite stops
/// there, as it would without encryption.
enum EncryptingVFS {
    static let name = "openhealthkit-aead"

    /// Registers the VFS with SQLite, once per process.
    static func register() { _ = registration }

    private static let registration: Bool = {
        guard let base = sqlite3_vfs_find(nil) else { fatalError("SQLite has no default VFS") }
        baseVFS = base
        let methods = UnsafeMutablePointer<sqlite3_io_methods>.allocate(capacity: 1)
        methods.initialize(to: ioMethods())
        cipherMethods = methods
        let vfs = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
        vfs.initialize(to: base.pointee)
        vfs.pointee.iVersion = 2
        vfs.pointee.szOsFile = Int32(underlyingOffset) + base.pointee.szOsFile
        vfs.pointee.pNext = nil
        vfs.pointee.zName = UnsafePointer(strdup(name))
        vfs.pointee.pAppData = nil
        vfs.pointee.xOpen = { _, name, file, flags, outFlags in openFile(name, file!, flags, outFlags) }
        vfs.pointee.xDelete = { _, name, syncDirectory in baseVFS.pointee.xDelete!(baseVFS, name, syncDirectory) }
        vfs.pointee.xAccess = { _, name, flags, result in baseVFS.pointee.xAccess!(baseVFS, name, flags, result) }
        vfs.pointee.xFullPathname = { _, name, count, out in baseVFS.pointee.xFullPathname!(baseVFS, name, count, out) }
        vfs.pointee.xDlOpen = { _, name in baseVFS.pointee.xDlOpen!(baseVFS, name) }
        vfs.pointee.xDlError = { _, count, message in baseVFS.pointee.xDlError!(baseVFS, count, message) }
        vfs.pointee.xDlSym = { _, handle, symbol in baseVFS.pointee.xDlSym!(baseVFS, handle, symbol) }
        vfs.pointee.xDlClose = { _, handle in baseVFS.pointee.xDlClose!(baseVFS, handle) }
        vfs.pointee.xRandomness = { _, count, out in baseVFS.pointee.xRandomness!(baseVFS, count, out) }
        vfs.pointee.xSleep = { _, microseconds in baseVFS.pointee.xSleep!(baseVFS, microseconds) }
        vfs.pointee.xCurrentTime = { _, time in baseVFS.pointee.xCurrentTime!(baseVFS, time) }
        vfs.pointee.xGetLastError = { _, count, out in baseVFS.pointee.xGetLastError!(baseVFS, count, out) }
        vfs.pointee.xCurrentTimeInt64 = { _, time in baseVFS.pointee.xCurrentTimeInt64!(baseVFS, time) }
        vfs.pointee.xSetSystemCall = nil
        vfs.pointee.xGetSystemCall = nil
        vfs.pointee.xNextSystemCall = nil
        let code = sqlite3_vfs_register(vfs, 0)
        precondition(code == SQLITE_OK, "SQLite refused the encrypting VFS: \(code)")
        return true
    }()

    /// Where, in the `sqlite3_file` SQLite allocates for us, the pointer to our `CipherFile` and the default VFS's own
    /// file are: `[pMethods][CipherFile][the default VFS's file…]`.
    private static let statePointerOffset = MemoryLayout<sqlite3_file>.stride
    private static let underlyingOffset = statePointerOffset + MemoryLayout<UnsafeRawPointer>.stride

    nonisolated(unsafe) private static var baseVFS: UnsafeMutablePointer<sqlite3_vfs>!
    nonisolated(unsafe) private static var cipherMethods: UnsafeMutablePointer<sqlite3_io_methods>!

    fileprivate static func state(_ file: UnsafeMutablePointer<sqlite3_file>?) -> CipherFile {
        let slot = UnsafeMutableRawPointer(file!).advanced(by: statePointerOffset).assumingMemoryBound(to: UnsafeRawPointer.self)
        return Unmanaged<CipherFile>.fromOpaque(slot.pointee).takeUnretainedValue()
    }

    private static func openFile(_ name: sqlite3_filename?, _ file: UnsafeMutablePointer<sqlite3_file>, _ flags: Int32,
                                 _ outFlags: UnsafeMutablePointer<Int32>?) -> Int32 {
        file.pointee.pMethods = nil
        let kind: PageCipher.FileKind
        switch flags {
        case _ where flags & SQLITE_OPEN_MAIN_DB != 0: kind = .database
        case _ where flags & SQLITE_OPEN_WAL != 0: kind = .log
        case _ where flags & SQLITE_OPEN_MAIN_JOURNAL != 0: kind = .journal
        default:
            // A temporary database, statement journal or super-journal would be written in clear: refused (encrypted
            // connections keep temporary data in memory, so SQLite has no need of one).
            return SQLITE_CANTOPEN
        }
        guard let name else { return SQLITE_CANTOPEN }
        let databaseName = kind == .database ? name : sqlite3_filename_database(name)
        guard let databaseName, let id = sqlite3_uri_parameter(databaseName, "cipher"),
              let entry = EncryptedFiles.shared.entry(String(cString: id))
        else { return SQLITE_CANTOPEN }
        let underlying = UnsafeMutableRawPointer(file).advanced(by: underlyingOffset).assumingMemoryBound(to: sqlite3_file.self)
        let code = baseVFS.pointee.xOpen!(baseVFS, name, underlying, flags, outFlags)
        guard code == SQLITE_OK else { return code }
        let state = CipherFile(kind: kind, entry: entry, underlying: underlying, databasePath: String(cString: databaseName),
                               fileName: String(cString: name))
        UnsafeMutableRawPointer(file).advanced(by: statePointerOffset).storeBytes(of: Unmanaged.passRetained(state).toOpaque(),
                                                                                 as: UnsafeRawPointer.self)
        file.pointee.pMethods = UnsafePointer(cipherMethods)
        return SQLITE_OK
    }

    private static func ioMethods() -> sqlite3_io_methods {
        var methods = sqlite3_io_methods()
        // Version 2: shared memory, and no memory-mapped reads (version 3), which would hand SQLite sealed pages.
        methods.iVersion = 2
        methods.xClose = { file in
            let cipherFile = EncryptingVFS.state(file)
            let code = cipherFile.underlying.pointee.pMethods?.pointee.xClose?(cipherFile.underlying) ?? SQLITE_OK
            Unmanaged.passUnretained(cipherFile).release()
            file!.pointee.pMethods = nil
            return code
        }
        methods.xRead = { file, buffer, count, offset in
            EncryptingVFS.state(file).read(UnsafeMutableRawBufferPointer(start: buffer, count: Int(count)), at: offset)
        }
        methods.xWrite = { file, buffer, count, offset in
            EncryptingVFS.state(file).write(UnsafeRawBufferPointer(start: buffer, count: Int(count)), at: offset)
        }
        methods.xTruncate = { file, size in
            let cipherFile = EncryptingVFS.state(file)
            cipherFile.truncated()
            return cipherFile.base.xTruncate!(cipherFile.underlying, size)
        }
        methods.xSync = { file, flags in EncryptingVFS.state(file).base.xSync!(EncryptingVFS.state(file).underlying, flags) }
        methods.xFileSize = { file, size in EncryptingVFS.state(file).base.xFileSize!(EncryptingVFS.state(file).underlying, size) }
        methods.xLock = { file, lock in EncryptingVFS.state(file).base.xLock!(EncryptingVFS.state(file).underlying, lock) }
        methods.xUnlock = { file, lock in EncryptingVFS.state(file).base.xUnlock!(EncryptingVFS.state(file).underlying, lock) }
        methods.xCheckReservedLock = { file, result in EncryptingVFS.state(file).base.xCheckReservedLock!(EncryptingVFS.state(file).underlying, result) }
        methods.xFileControl = { file, operation, argument in
            // Memory-mapped I/O would read pages past this VFS: it stays off whatever a pragma asks.
            if operation == SQLITE_FCNTL_MMAP_SIZE { return SQLITE_OK }
            return EncryptingVFS.state(file).base.xFileControl!(EncryptingVFS.state(file).underlying, operation, argument)
        }
        methods.xSectorSize = { file in EncryptingVFS.state(file).base.xSectorSize!(EncryptingVFS.state(file).underlying) }
        methods.xDeviceCharacteristics = { file in
            // Powersafe overwrite: SQLite then never pads the log to a sector with a split write of a frame's page.
            EncryptingVFS.state(file).base.xDeviceCharacteristics!(EncryptingVFS.state(file).underlying) | SQLITE_IOCAP_POWERSAFE_OVERWRITE
        }
        methods.xShmMap = { file, region, size, extend, pointer in EncryptingVFS.state(file).base.xShmMap!(EncryptingVFS.state(file).underlying, region, size, extend, pointer) }
        methods.xShmLock = { file, offset, count, flags in EncryptingVFS.state(file).base.xShmLock!(EncryptingVFS.state(file).underlying, offset, count, flags) }
        methods.xShmBarrier = { file in EncryptingVFS.state(file).base.xShmBarrier!(EncryptingVFS.state(file).underlying) }
        methods.xShmUnmap = { file, delete in EncryptingVFS.state(file).base.xShmUnmap!(EncryptingVFS.state(file).underlying, delete) }
        return methods
    }
}

/// The ciphers of the encrypted stores open in this process, under the ids their connections' URIs name.
final class EncryptedFiles: Sendable {
    static let shared = EncryptedFiles()

    /// One store's cipher, and the last page that failed to open (for the error the store reports).
    final class Entry: Sendable {
        let cipher: PageCipher
        private let failure = Mutex<String?>(nil)

        init(cipher: PageCipher) { self.cipher = cipher }

        func recordFailure(_ description: String) { failure.withLock { $0 = description } }
        /// The last failure, cleared.
        func takeFailure() -> String? { failure.withLock { failure in defer { failure = nil }; return failure } }
    }

    private let entries = Mutex<[String: Entry]>([:])

    /// Registers `key` and returns the id a connection's URI names it by (random: it says nothing of the key).
    func register(_ key: SymmetricKey) -> String {
        let id = SymmetricKey(size: .bits128).withUnsafeBytes { $0.map { String(format: "%02x", $0) }.joined() }
        entries.withLock { $0[id] = Entry(cipher: PageCipher(key: key)) }
        return id
    }

    func entry(_ id: String) -> Entry? { entries.withLock { $0[id] } }

    /// Forgets the key registered as `id`: files opened with it afterwards cannot be read.
    func remove(_ id: String) { _ = entries.withLock { $0.removeValue(forKey: id) } }
}

extension EncryptingVFS {
    /// The first 16 bytes of the database file at `path` (SQLite's magic text, or an encrypted store's identity), read
    /// through SQLite's default VFS; nil when the file is missing or shorter.
    ///
    /// Never with `open`/`close` of our own: closing any descriptor of a file drops every POSIX lock this process holds on
    /// it — SQLite's included — and another process could then write under a connection that thinks it holds a lock. The
    /// default VFS keeps such a descriptor open until the locks are released.
    static func databaseHead(_ path: String) -> [UInt8]? {
        guard let vfs = sqlite3_vfs_find(nil) else { return nil }
        let file = UnsafeMutableRawPointer.allocate(byteCount: Int(vfs.pointee.szOsFile), alignment: 16)
        defer { file.deallocate() }
        let handle = file.bindMemory(to: sqlite3_file.self, capacity: 1)
        handle.pointee.pMethods = nil
        var outFlags: Int32 = 0
        let opened = path.withCString { vfs.pointee.xOpen!(vfs, $0, handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_MAIN_DB, &outFlags) }
        defer { if let methods = handle.pointee.pMethods { _ = methods.pointee.xClose!(handle) } }
        guard opened == SQLITE_OK, let methods = handle.pointee.pMethods else { return nil }
        var bytes = [UInt8](repeating: 0, count: PageCipher.identitySize)
        let read = bytes.withUnsafeMutableBytes { methods.pointee.xRead!(handle, $0.baseAddress, Int32(PageCipher.identitySize), 0) }
        return read == SQLITE_OK ? bytes : nil
    }
}
