package import Foundation
import Crypto
import GRDB
import HealthModel
import Synchronization

/// The writes apps make while an encrypted store is locked (`health.journal` beside `health.sqlite`), as HealthKit caches
/// them while the device is locked: each sealed to the store's public key with HPKE (X25519, HKDF-SHA256,
/// ChaCha20-Poly1305; RFC 9180), so that writing one needs no secret and only the unlocked store can read them. Unlocking
/// replays them into the store in order (`entries(after:)`, `markApplied(through:)`), once each.
///
/// The file: a header (`OHKJOURNAL1\n`, then the journal's random 16-byte id), then entries, each a 4-byte big-endian
/// length and that many bytes — HPKE's encapsulated key (32) and the sealed payload with its tag. An entry is bound to
/// the journal's id and its own place in the file, so entries cannot be moved, dropped from the middle unnoticed, or
/// carried into another journal. An entry cut short by a crash (never acknowledged: `append` returns once the entry is on
/// disk) is removed before the next one is written.
package final class LockedWriteJournal: Sendable {
    package static let fileName = "health.journal"
    static let magic = Array("OHKJOURNAL1\n".utf8)
    static let headerSize = 12 + 16
    private static let info = Data("openhealthkit locked-write journal v1".utf8)
    private static let suite = HPKE.Ciphersuite.Curve25519_SHA256_ChachaPoly
    /// The largest entry accepted: a request body is limited well below it.
    static let maximumEntryBytes = 64 << 20

    package let directory: URL
    private var url: URL { directory.appendingPathComponent(Self.fileName) }
    /// Appends one at a time (and the file's end, once checked for an entry cut short).
    private let appending = Mutex<(id: Data, end: Int64)?>(nil)
    /// The store's journal key, read from its key file at the first append (it never changes: it is derived from the
    /// data key, which a new passphrase only wraps anew).
    private let publicKey = Mutex<Curve25519.KeyAgreement.PublicKey?>(nil)

    package init(directory: URL) {
        self.directory = directory
    }

    /// One entry, opened.
    package struct Entry: Sendable {
        /// Where the entry ends in the file: what `markApplied(through:)` records.
        package var end: Int64
        package var payload: Data
    }

    /// Whether the journal holds anything (a file with at least one entry).
    package var isEmpty: Bool {
        ((try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0) <= Self.headerSize
    }

    /// Seals `payload` to the store's journal key and appends it; the entry is on disk when this returns.
    package func append(_ payload: Data) throws {
        guard payload.count < Self.maximumEntryBytes else {
            throw HKError(.errorInvalidArgument, "a write of \(payload.count) bytes is too large to keep while the store is locked")
        }
        let key = try publicKey.withLock { known in
            if let known { return known }
            known = try StoreEncryption.journalPublicKey(directory)
            return known!
        }
        try appending.withLock { known in
            let descriptor = try openForAppending()
            defer { close(descriptor) }
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { throw failure("cannot read") }
            let id: Data, validEnd: Int64
            if let known, known.end == Int64(status.st_size) {
                (id, validEnd) = known
            } else {
                (id, validEnd) = try Self.scan(descriptor, size: Int64(status.st_size), path: url.path)
                // Whatever follows the last whole entry was cut short by a crash: never acknowledged, removed.
                if Int64(status.st_size) > validEnd, ftruncate(descriptor, off_t(validEnd)) != 0 { throw failure("cannot trim") }
            }
            var sender = try HPKE.Sender(recipientKey: key, ciphersuite: Self.suite, info: Self.info)
            let sealed = try sender.seal(payload, authenticating: Self.associatedData(id: id, place: validEnd))
            var record = Data()
            withUnsafeBytes(of: UInt32(sender.encapsulatedKey.count + sealed.count).bigEndian) { record.append(contentsOf: $0) }
            record.append(sender.encapsulatedKey)
            record.append(sealed)
            try Self.write(record, to: descriptor, at: validEnd, path: url.path)
            guard fsync(descriptor) == 0 else { throw failure("cannot write") }
            known = (id, validEnd + Int64(record.count))
        }
    }

    /// The journal's id (hexadecimal), from its header; nil when there is no journal.
    package func id() throws -> String? {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return nil }
        defer { try? handle.close() }
        let header = try handle.read(upToCount: Self.headerSize) ?? Data()
        guard header.count == Self.headerSize, Array(header.prefix(12)) == Self.magic else {
            throw HKError(.errorDatabaseInaccessible, "\(url.path) is not a journal of OpenHealthKit writes")
        }
        return header.dropFirst(12).map { String(format: "%02x", $0) }.joined()
    }

    /// What the journal holds past a place.
    package struct Contents: Sendable {
        /// The journal's id (hexadecimal), which its replay progress is recorded under.
        package var id: String
        package var entries: [Entry]
        /// Where an entry that does not open starts: the journal was altered (or damaged) there, and nothing from there
        /// on can be trusted.
        package var damagedAt: Int64?
    }

    /// The entries that end after `offset` (0: all), opened with the store's journal key — known while the store is
    /// unlocked; nil when there is no journal. Stops at an entry that does not open (`damagedAt`).
    package func entries(after offset: Int64) throws -> Contents? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        guard data.count >= Self.headerSize, Array(data.prefix(12)) == Self.magic else {
            throw HKError(.errorDatabaseInaccessible, "\(url.path) is not a journal of OpenHealthKit writes")
        }
        guard let privateKey = StoreEncryption.journalPrivateKey(directory) else {
            throw HKError(.errorDatabaseInaccessible, "the store is locked: its journal cannot be read until the person unlocks it")
        }
        let id = Data(data[12..<Self.headerSize])
        var contents = Contents(id: id.map { String(format: "%02x", $0) }.joined(), entries: [])
        var place = Self.headerSize
        while place + 4 <= data.count {
            let length = data[place..<(place + 4)].reduce(0) { $0 << 8 | Int($1) }
            guard length > 32, place + 4 + length <= data.count else { break }   // cut short: never acknowledged
            let end = place + 4 + length
            if end > offset {
                let encapsulated = data[(place + 4)..<(place + 36)], sealed = data[(place + 36)..<end]
                do {
                    var recipient = try HPKE.Recipient(privateKey: privateKey, ciphersuite: Self.suite, info: Self.info,
                                                       encapsulatedKey: Data(encapsulated))
                    let payload = try recipient.open(sealed, authenticating: Self.associatedData(id: id, place: Int64(place)))
                    contents.entries.append(Entry(end: Int64(end), payload: payload))
                } catch {
                    contents.damagedAt = Int64(place)
                    break
                }
            }
            place = end
        }
        return contents
    }

    /// Moves a damaged journal aside (`health.journal.damaged-<time>`), for the person to keep or remove: writes go to
    /// the store again. Returns the name it was given.
    package func setAside() throws -> String {
        try appending.withLock { known in
            let name = "\(Self.fileName).damaged-\(Int(Date().timeIntervalSince1970))"
            guard rename(url.path, directory.appendingPathComponent(name).path) == 0 else { throw failure("cannot move aside") }
            StoreEncryption.syncFolder(directory)
            known = nil
            return name
        }
    }

    /// How far the journal named `id` has been replayed into the store (0: not at all).
    package static func appliedThrough(_ id: String, in database: HealthDatabase) throws -> Int64 {
        try database.read { try Int64.fetchOne($0, sql: "SELECT appliedThrough FROM journalReplay WHERE journal = ?", arguments: [id]) } ?? 0
    }

    /// Records that the journal named `id` has been replayed up to `end`.
    package static func markApplied(_ id: String, through end: Int64, in database: HealthDatabase) throws {
        try database.write {
            try $0.execute(sql: "INSERT OR REPLACE INTO journalReplay (journal, appliedThrough) VALUES (?, ?)", arguments: [id, end])
        }
    }

    /// Removes the journal once every entry is in the store, if no entry was added since `end` (then it stays, to be
    /// replayed on). Returns whether it was removed.
    package func remove(ifEndingAt end: Int64) throws -> Bool {
        try appending.withLock { appendEnd in
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int).flatMap { Int64($0) } ?? 0
            guard size <= end else { return false }
            if unlink(url.path) != 0, errno != ENOENT { throw failure("cannot remove") }
            StoreEncryption.syncFolder(directory)
            appendEnd = nil
            return true
        }
    }

    // MARK: The file

    private static func associatedData(id: Data, place: Int64) -> Data {
        var data = id
        withUnsafeBytes(of: UInt64(place).bigEndian) { data.append(contentsOf: $0) }
        return data
    }

    /// The journal, created with its header when missing (private to the user).
    private func openForAppending() throws -> Int32 {
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("cannot open") }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { close(descriptor); throw failure("cannot read") }
        if status.st_size == 0 {
            var header = Self.magic
            header += SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) }
            do {
                try Self.write(Data(header), to: descriptor, at: 0, path: url.path)
            } catch { close(descriptor); throw error }
            StoreEncryption.syncFolder(directory)
        }
        return descriptor
    }

    /// The journal's id and the end of its last whole entry.
    private static func scan(_ descriptor: Int32, size: Int64, path: String) throws -> (id: Data, end: Int64) {
        var header = [UInt8](repeating: 0, count: headerSize)
        guard pread(descriptor, &header, headerSize, 0) == headerSize, Array(header.prefix(12)) == magic else {
            throw HKError(.errorDatabaseInaccessible, "\(path) is not a journal of OpenHealthKit writes")
        }
        var place = Int64(headerSize)
        var length = [UInt8](repeating: 0, count: 4)
        while place + 4 <= size, pread(descriptor, &length, 4, off_t(place)) == 4 {
            let count = length.reduce(0) { $0 << 8 | Int($1) }
            let next = place + 4 + Int64(count)
            guard count > 32, next <= size else { break }
            place = next
        }
        return (Data(header[12...]), place)
    }

    private static func write(_ data: Data, to descriptor: Int32, at offset: Int64, path: String) throws {
        try data.withUnsafeBytes { bytes in
            var done = 0
            while done < bytes.count {
                let written = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
                guard written > 0 else {
                    throw HKError(.errorDatabaseInaccessible, "cannot write the journal of locked writes \(path): \(String(cString: strerror(errno)))")
                }
                done += written
            }
        }
    }

    private func failure(_ what: String) -> HKError {
        HKError(.errorDatabaseInaccessible, "\(what) the journal of locked writes \(url.path): \(String(cString: strerror(errno)))")
    }
}
