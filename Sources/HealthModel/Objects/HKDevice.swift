public import Foundation

/// A hardware device that produced data: a watch, a scale, a phone, this server.
///
/// ```swift
/// let scale = HKDevice(name: "Body Scale", manufacturer: "Acme", model: "S2", hardwareVersion: "2",
///                      firmwareVersion: nil, softwareVersion: "1.4", localIdentifier: nil,
///                      udiDeviceIdentifier: nil)
/// ```
///
/// `NSSecureCoding` (all eight fields, absent ones staying `nil`) and `NSCopying` (the device itself), as HealthKit's.
public final class HKDevice: NSObject, NSSecureCoding, NSCopying, Sendable {
    public let name: String?
    public let manufacturer: String?
    public let model: String?
    public let hardwareVersion: String?
    public let firmwareVersion: String?
    public let softwareVersion: String?
    public let localIdentifier: String?
    /// The FDA Unique Device Identifier's device identifier portion.
    public let udiDeviceIdentifier: String?

    public init(
        name: String?, manufacturer: String?, model: String?, hardwareVersion: String?,
        firmwareVersion: String?, softwareVersion: String?, localIdentifier: String?, udiDeviceIdentifier: String?
    ) {
        self.name = name
        self.manufacturer = manufacturer
        self.model = model
        self.hardwareVersion = hardwareVersion
        self.firmwareVersion = firmwareVersion
        self.softwareVersion = softwareVersion
        self.localIdentifier = localIdentifier
        self.udiDeviceIdentifier = udiDeviceIdentifier
    }

    /// The machine this program runs on: its host name, operating system and architecture.
    public class func local() -> HKDevice {
        let info = ProcessInfo.processInfo
        #if arch(x86_64)
        let architecture = "x86_64"
        #elseif arch(arm64)
        let architecture = "arm64"
        #else
        let architecture = "unknown"
        #endif
        #if os(Linux)
        let system = "Linux"
        #elseif os(macOS)
        let system = "macOS"
        #else
        let system = "unknown"
        #endif
        let v = info.operatingSystemVersion
        return HKDevice(
            name: info.hostName, manufacturer: nil, model: system, hardwareVersion: architecture,
            firmwareVersion: nil, softwareVersion: "\(v.majorVersion).\(v.minorVersion).\(v.patchVersion)",
            localIdentifier: nil, udiDeviceIdentifier: nil
        )
    }

    /// The value of one property by its `HKDevicePropertyKey…` constant (used by device predicates).
    package func value(forProperty key: String) -> String? {
        switch key {
        case HKDevicePropertyKeyName: name
        case HKDevicePropertyKeyManufacturer: manufacturer
        case HKDevicePropertyKeyModel: model
        case HKDevicePropertyKeyHardwareVersion: hardwareVersion
        case HKDevicePropertyKeyFirmwareVersion: firmwareVersion
        case HKDevicePropertyKeySoftwareVersion: softwareVersion
        case HKDevicePropertyKeyLocalIdentifier: localIdentifier
        case HKDevicePropertyKeyUDIDeviceIdentifier: udiDeviceIdentifier
        default: nil
        }
    }

    private var fields: [String?] {
        [name, manufacturer, model, hardwareVersion, firmwareVersion, softwareVersion, localIdentifier, udiDeviceIdentifier]
    }

    // MARK: NSSecureCoding, NSCopying

    /// The archive keys of ``fields``, in the same order.
    private static let fieldKeys = [
        "name", "manufacturer", "model", "hardwareVersion", "firmwareVersion", "softwareVersion", "localIdentifier",
        "udiDeviceIdentifier",
    ]

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        for (key, value) in zip(HKDevice.fieldKeys, fields) {
            coder.encodeIfPresent(value, forKey: key)
        }
    }

    public required convenience init?(coder: NSCoder) {
        guard let f = coder.decodeValid("HKDevice", { try HKDevice.fieldKeys.map { try coder.decodeIfPresent(String.self, forKey: $0) } }) else {
            return nil
        }
        self.init(name: f[0], manufacturer: f[1], model: f[2], hardwareVersion: f[3], firmwareVersion: f[4], softwareVersion: f[5],
                  localIdentifier: f[6], udiDeviceIdentifier: f[7])
    }

    /// Devices are immutable: a copy is the device itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let rhs = object as? HKDevice else { return false }
        let lhs = self
        return lhs.fields == rhs.fields
    }
    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(fields)
        return hasher.finalize()
    }

    public override var description: String {
        let parts: [(String, String?)] = [
            ("name", name), ("manufacturer", manufacturer), ("model", model), ("hardware", hardwareVersion),
            ("firmware", firmwareVersion), ("software", softwareVersion), ("localIdentifier", localIdentifier),
            ("UDI", udiDeviceIdentifier),
        ]
        return "<HKDevice " + parts.compactMap { k, v in v.map { "\(k):\($0)" } }.joined(separator: ", ") + ">"
    }
}
