#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
package import Foundation
import HealthModel

/// A source of bytes read front to back: a file, a pipe, or an entry of a zip archive inflated as it is read.
package protocol ByteStream: AnyObject {
    /// Reads up to `buffer.count` bytes into `buffer`; returns how many, 0 only at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// A file (or a pipe) read with `read(2)`, straight into the reader's buffer.
package final class FileByteStream: ByteStream {
    private let descriptor: Int32
    private let name: String

    package init(url: URL) throws {
        descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else { throw HKError.invalidArgument("cannot read \(url.path): \(String(cString: strerror(errno)))") }
        name = url.path
    }

    deinit { close(descriptor) }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            let count = systemRead(descriptor, base, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { throw HKError.invalidArgument("cannot read \(name): \(String(cString: strerror(errno)))") }
        }
    }
}

extension ByteStream {
    /// Everything left, at most `limit` bytes (an error naming `name` past that).
    package func readAll(limit: Int, name: String) throws -> Data {
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try read(into: $0) }
            if count == 0 { return data }
            data.append(contentsOf: chunk[0..<count])
            if data.count > limit {
                throw HKError.invalidArgument("\(name) is larger than \(limit / 1_000_000) MB: not read")
            }
        }
    }
}

/// `read(2)`, under a name the streams' own `read(into:)` does not hide.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
