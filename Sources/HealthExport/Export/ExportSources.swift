package import Foundation
package import HealthModel
import Crypto

/// How an export's `sourceName`, `sourceVersion` and `device` strings become HealthKit sources and devices.
package enum ExportSources {
    /// The `-[HKDevice description]` string of an export (`<<HKDevice: 0x…>, name:Apple Watch, manufacturer:Apple Inc.,
    /// model:Watch, hardware:Watch6,1, software:10.4>`): values may hold commas, so it splits on `, <known key>:` only.
    package static func device(_ text: String) -> HKDevice? {
        guard text.hasPrefix("<<HKDevice"), let open = text.range(of: ">, ") else { return nil }
        var body = Substring(text[open.upperBound...])
        if body.hasSuffix(">") { body = body.dropLast() }
        let keys = ["name", "manufacturer", "model", "hardware", "firmware", "software", "localIdentifier", "UDIDeviceIdentifier",
                    "creation date"]
        var fields: [String: String] = [:]
        var current: String?, start = body.startIndex
        var index = body.startIndex
        func key(at position: Substring.Index) -> String? { keys.first { body[position...].hasPrefix($0 + ":") } }
        while index < body.endIndex {
            let atFieldStart = index == body.startIndex || body[..<index].hasSuffix(", ")
            if atFieldStart, let found = key(at: index) {
                if let current { fields[current] = String(body[start..<body.index(index, offsetBy: index == body.startIndex ? 0 : -2)]) }
                current = found
                index = body.index(index, offsetBy: found.count + 1)
                start = index
                continue
            }
            index = body.index(after: index)
        }
        if let current { fields[current] = String(body[start...]) }
        guard !fields.isEmpty else { return nil }
        return HKDevice(name: fields["name"], manufacturer: fields["manufacturer"], model: fields["model"], hardwareVersion: fields["hardware"],
                        firmwareVersion: fields["firmware"], softwareVersion: fields["software"], localIdentifier: fields["localIdentifier"],
                        udiDeviceIdentifier: fields["UDIDeviceIdentifier"])
    }

    /// The source revision of an exported object. Exports name sources only; bundle identifiers are made so that the
    /// store's default priority treats them as HealthKit would: `com.apple.Health` for "Health" (manual entries),
    /// `com.apple.health.<stable UUID of the name>` for the person's Apple devices (a device written by Apple,
    /// with product type from its hardware), and `export.<name>` for every other app.
    package static func revision(sourceName: String, sourceVersion: String?, device: HKDevice?) -> HKSourceRevision {
        let bundle: String
        let apple = device.map { ($0.manufacturer ?? "").hasPrefix("Apple") } ?? false
        if sourceName == "Health" {
            bundle = "com.apple.Health"
        } else if isAppleDevice(sourceName: sourceName, device: device) {
            bundle = "com.apple.health." + stableUUID("source:" + sourceName).uuidString
        } else {
            bundle = "export." + sourceName
        }
        let os = device?.softwareVersion.map(operatingSystem) ?? OperatingSystemVersion(majorVersion: 0, minorVersion: 0, patchVersion: 0)
        return HKSourceRevision(source: HKSource(name: sourceName, bundleIdentifier: bundle), version: sourceVersion,
                                productType: apple ? device?.hardwareVersion : nil, operatingSystemVersion: os)
    }

    /// Whether a source is one of the person's Apple devices: its device says so (Apple's iPhone, Watch, iPad, iPod), or,
    /// for records that carry no device, its name does ("Alex’s iPhone", "Apple Watch").
    static func isAppleDevice(sourceName: String, device: HKDevice?) -> Bool {
        let kinds = ["iPhone", "Watch", "iPad", "iPod"]
        if let device, (device.manufacturer ?? "").hasPrefix("Apple"), kinds.contains(where: { (device.model ?? "").hasPrefix($0) }) { return true }
        let name = sourceName.replacingOccurrences(of: "\u{00A0}", with: " ")
        return ["iPhone", "iPad", "iPod", "Apple Watch"].contains { name.localizedCaseInsensitiveContains($0) }
    }

    static func operatingSystem(_ text: String) -> OperatingSystemVersion {
        let parts = text.split(separator: ".").map { Int($0) ?? 0 }
        return OperatingSystemVersion(majorVersion: parts.first ?? 0, minorVersion: parts.count > 1 ? parts[1] : 0,
                                      patchVersion: parts.count > 2 ? parts[2] : 0)
    }

    /// A UUID determined by `key` (SHA-256, version 8 layout): the same exported object always gets the same UUID,
    /// which makes imports idempotent.
    /// A UUID whose first 48 bits are `milliseconds` since 1970 (clamped to 0 before 1970) and whose other bits come
    /// from `digest` (version 8, RFC 9562's custom layout): deterministic like `stableUUID`, and ordered by time, so
    /// rows of an export land in the UUID index near one another.
    static func timeOrderedUUID(milliseconds: Double, digest: SHA256.Digest) -> UUID {
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { bytes in
            digest.withUnsafeBytes { digest in bytes.copyMemory(from: UnsafeRawBufferPointer(rebasing: digest[0..<16])) }
            let time = UInt64(max(0, min(milliseconds, Double(1 << 48 - 1))))
            for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: time >> (8 * (5 - index))) }
            bytes[6] = (bytes[6] & 0x0F) | 0x80
            bytes[8] = (bytes[8] & 0x3F) | 0x80
        }
        return UUID(uuid: uuid)
    }

    /// A time-ordered UUID (see `timeOrderedUUID(milliseconds:digest:)`) of `key`, for an object starting at `start`.
    package static func stableUUID(_ key: String, start: Date) -> UUID {
        timeOrderedUUID(milliseconds: start.timeIntervalSince1970 * 1000, digest: SHA256.hash(data: Data(key.utf8)))
    }

    package static func stableUUID(_ key: String) -> UUID {
        stableUUID(data: Data(key.utf8))
    }

    /// A UUID from the SHA-256 of `data`, as a version-8 UUID.
    package static func stableUUID(data: Data) -> UUID {
        var bytes = Array(SHA256.hash(data: data).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
