public import Foundation

/// Matches any version in a source-revision predicate.
public let HKSourceRevisionAnyVersion = "HKSourceRevisionAnyVersion"
/// Matches any product type in a source-revision predicate.
public let HKSourceRevisionAnyProductType = "HKSourceRevisionAnyProductType"
/// Matches any operating system version in a source-revision predicate. HealthKit's value is not in
/// the reference tables; OpenHealthKit uses -1.0.0, a version no real system has.
public let HKSourceRevisionAnyOperatingSystem = OperatingSystemVersion(majorVersion: -1, minorVersion: 0, patchVersion: 0)

/// A specific version of a source: the app's version, the product it ran on and its OS version.
///
/// ```swift
/// let revision = HKSourceRevision(source: .default(), version: "2.1")
/// ```
///
/// `NSSecureCoding` (every field, the operating system version included) and `NSCopying` (the revision itself),
/// as HealthKit's.
public final class HKSourceRevision: NSObject, NSSecureCoding, NSCopying, Sendable {
    /// The app or device.
    public let source: HKSource
    /// The app's version, if known.
    public let version: String?
    /// The product type of the device the app ran on (e.g. `iPhone14,2`, or `Linux x86_64`).
    public let productType: String?
    private let osVersion: (major: Int, minor: Int, patch: Int)

    /// Creates a revision with no product type and an unknown OS version.
    public convenience init(source: HKSource, version: String?) {
        self.init(source: source, version: version, productType: nil, operatingSystemVersion: HKSourceRevisionAnyOperatingSystem)
    }

    /// Creates a revision with every field.
    public init(source: HKSource, version: String?, productType: String?, operatingSystemVersion: OperatingSystemVersion) {
        self.source = source
        self.version = version
        self.productType = productType
        self.osVersion = (operatingSystemVersion.majorVersion, operatingSystemVersion.minorVersion, operatingSystemVersion.patchVersion)
    }

    /// The version of the operating system the app ran on.
    public var operatingSystemVersion: OperatingSystemVersion {
        OperatingSystemVersion(majorVersion: osVersion.major, minorVersion: osVersion.minor, patchVersion: osVersion.patch)
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let rhs = object as? HKSourceRevision else { return false }
        let lhs = self
        return lhs.source == rhs.source && lhs.version == rhs.version && lhs.productType == rhs.productType
            && lhs.osVersion == rhs.osVersion
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(source)
        hasher.combine(version)
        hasher.combine(productType)
        hasher.combine(osVersion.major)
        hasher.combine(osVersion.minor)
        hasher.combine(osVersion.patch)
        return hasher.finalize()
    }

    // MARK: NSSecureCoding, NSCopying

    private enum Key {
        static let source = "source"
        static let version = "version"
        static let productType = "productType"
        static let osMajor = "operatingSystemMajorVersion"
        static let osMinor = "operatingSystemMinorVersion"
        static let osPatch = "operatingSystemPatchVersion"
    }

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        coder.encode(source, forKey: Key.source)
        coder.encodeIfPresent(version, forKey: Key.version)
        coder.encodeIfPresent(productType, forKey: Key.productType)
        coder.encode(osVersion.major, forKey: Key.osMajor)
        coder.encode(osVersion.minor, forKey: Key.osMinor)
        coder.encode(osVersion.patch, forKey: Key.osPatch)
    }

    public required convenience init?(coder: NSCoder) {
        guard case let (source, version, productType, os)? = coder.decodeValid("HKSourceRevision", {
            (try coder.decode(HKSource.self, forKey: Key.source), try coder.decodeIfPresent(String.self, forKey: Key.version),
             try coder.decodeIfPresent(String.self, forKey: Key.productType),
             OperatingSystemVersion(majorVersion: try coder.decodeRequiredInteger(forKey: Key.osMajor),
                                    minorVersion: try coder.decodeRequiredInteger(forKey: Key.osMinor),
                                    patchVersion: try coder.decodeRequiredInteger(forKey: Key.osPatch)))
        }) else { return nil }
        self.init(source: source, version: version, productType: productType, operatingSystemVersion: os)
    }

    /// Revisions are immutable: a copy is the revision itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    public override var description: String {
        "\(source.bundleIdentifier) \(version ?? "-") on \(productType ?? "-") \(osVersion.major).\(osVersion.minor).\(osVersion.patch)"
    }
}
