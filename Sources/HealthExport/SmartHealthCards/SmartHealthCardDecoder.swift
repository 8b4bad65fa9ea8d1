package import Foundation
import HealthModel

/// Turns what a person has of a SMART Health Card into compact JWS strings: the `shc:/` text of a QR code (one code,
/// or the older chunked form `shc:/1/3/…`, `shc:/2/3/…`, `shc:/3/3/…`, in any order), a `.smart-health-card` file
/// (`{"verifiableCredential": [jws, …]}`), or the JWS itself. Malformed input is `errorInvalidArgument` naming the
/// problem.
package enum SmartHealthCardDecoder {
    package static func jwsList(from data: Data) throws -> [String] {
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("{") {
            guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let credentials = object["verifiableCredential"] as? [String], !credentials.isEmpty else {
                throw HKError.invalidArgument("a .smart-health-card file holds {\"verifiableCredential\": [\"<JWS>\", …]}; this one does not")
            }
            return credentials
        }
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if lines.contains(where: { $0.lowercased().hasPrefix("shc:/") }) { return [try fromQR(lines)] }
        guard lines.count == 1, lines[0].split(separator: ".", omittingEmptySubsequences: false).count == 3 else {
            throw HKError.invalidArgument("not a SMART Health Card: expected shc:/ QR text, a .smart-health-card file or a compact JWS")
        }
        return [lines[0]]
    }

    /// The JWS of one card's QR text: one `shc:/<digits>` line, or every chunk `shc:/<i>/<n>/<digits>` of it.
    static func fromQR(_ lines: [String]) throws -> String {
        var chunks: [Int: String] = [:], total: Int?
        for line in lines {
            guard line.lowercased().hasPrefix("shc:/") else {
                throw HKError.invalidArgument("a QR text line does not start with shc:/ (\(line.prefix(20))…)")
            }
            let parts = line.dropFirst(5).split(separator: "/", omittingEmptySubsequences: false)
            switch parts.count {
            case 1:
                guard lines.count == 1 else { throw HKError.invalidArgument("several single-part shc:/ codes given; import one card at a time") }
                return try digitsToJWS(String(parts[0]))
            case 3:
                guard let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, (1...count).contains(index) else {
                    throw HKError.invalidArgument("a chunked shc:/ code must read shc:/<index>/<count>/<digits> (got shc:/\(parts[0])/\(parts[1])/…)")
                }
                if let total, total != count { throw HKError.invalidArgument("the chunks disagree on their count (\(total) and \(count))") }
                total = count
                guard chunks[index] == nil else { throw HKError.invalidArgument("chunk \(index) of \(count) appears twice") }
                chunks[index] = String(parts[2])
            default:
                throw HKError.invalidArgument("shc:/ text has \(parts.count) parts; expected shc:/<digits> or shc:/<index>/<count>/<digits>")
            }
        }
        let count = total ?? 0
        // Each chunk is one line: a count past the lines given cannot be met (and is not enumerated — a code may claim
        // billions of chunks).
        guard count <= lines.count else {
            throw HKError.invalidArgument("the shc:/ code has \(count) chunks, but \(lines.count) \(lines.count == 1 ? "was" : "were") given")
        }
        let missing = (1...max(count, 1)).filter { chunks[$0] == nil }
        guard missing.isEmpty else {
            throw HKError.invalidArgument("chunk \(missing.map(String.init).joined(separator: ", ")) of \(count) is missing")
        }
        return try digitsToJWS((1...count).map { chunks[$0]! }.joined())
    }

    /// Numeric mode: each pair of digits is a character, `ord(c) - 45`.
    static func digitsToJWS(_ digits: String) throws -> String {
        let bytes = Array(digits.utf8)
        guard bytes.count % 2 == 0, bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw HKError.invalidArgument("the numeric part of shc:/ text must be an even number of digits")
        }
        var scalars = String.UnicodeScalarView()
        for index in stride(from: 0, to: bytes.count, by: 2) {
            let value = Int(bytes[index] - 0x30) * 10 + Int(bytes[index + 1] - 0x30)
            guard value <= 77 else { throw HKError.invalidArgument("shc:/ digits \(value) at \(index) are out of range (00–77)") }
            scalars.append(Unicode.Scalar(UInt8(value + 45)))
        }
        return String(scalars)
    }
}
