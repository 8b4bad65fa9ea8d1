public import Foundation

/// A FHIR version, `major.minor.patch` ("1.0.2", "4.0.1"), and the release it belongs to.
///
/// ```swift
/// let version = try HKFHIRVersion(fromVersionString: "4.0.1")
/// version.fhirRelease            // .r4
/// HKFHIRVersion.primaryDSTU2().stringRepresentation   // "1.0.2"
/// ```
///
/// `NSSecureCoding` (the three numbers) and `NSCopying` (the version itself), as HealthKit's.
public final class HKFHIRVersion: NSObject, NSSecureCoding, NSCopying, Sendable {
    public let majorVersion: Int
    public let minorVersion: Int
    public let patchVersion: Int

    package init(major: Int, minor: Int, patch: Int) {
        (majorVersion, minorVersion, patchVersion) = (major, minor, patch)
    }

    /// Parses `major.minor.patch` (a missing patch is 0; pre-release suffixes such as `-ballot` are dropped). Anything
    /// else is `HKError(.errorInvalidArgument)` "Unable to parse: …", as HealthKit says.
    public convenience init(fromVersionString versionString: String) throws {
        let core = versionString.split(separator: "-", maxSplits: 1).first.map(String.init) ?? ""
        let parts = core.split(separator: ".", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let major = Int(parts[0]), let minor = Int(parts[1]), let patch = parts.count == 3 ? Int(parts[2]) : 0 else {
            throw HKError.invalidArgument("Unable to parse: \"\(versionString)\" is not a FHIR version (major.minor.patch)")
        }
        self.init(major: major, minor: minor, patch: patch)
    }

    // MARK: NSSecureCoding, NSCopying

    private enum Key {
        static let major = "majorVersion"
        static let minor = "minorVersion"
        static let patch = "patchVersion"
    }

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        coder.encode(majorVersion, forKey: Key.major)
        coder.encode(minorVersion, forKey: Key.minor)
        coder.encode(patchVersion, forKey: Key.patch)
    }

    public required convenience init?(coder: NSCoder) {
        guard let parts = coder.decodeValid("HKFHIRVersion", {
            let parts = try [Key.major, Key.minor, Key.patch].map { try coder.decodeRequiredInteger(forKey: $0) }
            guard parts.allSatisfy({ $0 >= 0 }) else { throw ArchiveError.invalid("a FHIR version has a negative number") }
            return parts
        }) else { return nil }
        self.init(major: parts[0], minor: parts[1], patch: parts[2])
    }

    /// Versions are immutable: a copy is the version itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    /// 1.0.2, the DSTU2 version HealthKit uses.
    public class func primaryDSTU2() -> HKFHIRVersion { HKFHIRVersion(major: 1, minor: 0, patch: 2) }
    /// 4.0.1, the R4 version HealthKit uses.
    public class func primaryR4() -> HKFHIRVersion { HKFHIRVersion(major: 4, minor: 0, patch: 1) }

    /// R4 for 4.0.x, DSTU2 for 1.0.x, unknown for anything else (STU3, R4B, R5…).
    public var fhirRelease: HKFHIRRelease {
        switch (majorVersion, minorVersion) {
        case (4, 0): .r4
        case (1, 0): .dstu2
        default: .unknown
        }
    }

    /// "major.minor.patch".
    public var stringRepresentation: String { "\(majorVersion).\(minorVersion).\(patchVersion)" }
    public override var description: String { stringRepresentation }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let rhs = object as? HKFHIRVersion else { return false }
        let lhs = self
        return(lhs.majorVersion, lhs.minorVersion, lhs.patchVersion) == (rhs.majorVersion, rhs.minorVersion, rhs.patchVersion)
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(majorVersion)
        hasher.combine(minorVersion)
        hasher.combine(patchVersion)
        return hasher.finalize()
    }
}
