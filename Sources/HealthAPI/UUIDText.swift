package import Foundation

extension UUID {
    /// The UUID a wire text spells (`E621E1F8-C36C-495A-93FC-0C247A3E6E5F`, either case), as `UUID(uuidString:)` reads
    /// it, without its `sscanf`: reading a hundred samples' UUIDs that way cost a remote query as much as its dates.
    package init?(wireText text: String) {
        var text = text
        let read: uuid_t? = text.withUTF8 { bytes in
            guard bytes.count == 36, bytes[8] == 0x2D, bytes[13] == 0x2D, bytes[18] == 0x2D, bytes[23] == 0x2D else { return nil }
            var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let ok = withUnsafeMutableBytes(of: &value) { out -> Bool in
                var index = 0
                for byte in 0..<16 {
                    if index == 8 || index == 13 || index == 18 || index == 23 { index += 1 }
                    guard let high = Self.nibble(bytes[index]), let low = Self.nibble(bytes[index + 1]) else { return false }
                    out[byte] = high << 4 | low
                    index += 2
                }
                return true
            }
            return ok ? value : nil
        }
        guard let read else { return nil }
        self.init(uuid: read)
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
