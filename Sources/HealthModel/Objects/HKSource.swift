public import Foundation

/// An app or device that saves health data. Sources compare by bundle identifier.
///
/// ```swift
/// let mine = HKSource.default()
/// print(mine.name, mine.bundleIdentifier)
/// ```
///
/// `NSSecureCoding` (name and bundle identifier) and `NSCopying` (the source itself), as HealthKit's.
public final class HKSource: NSObject, NSSecureCoding, NSCopying, Sendable {
    /// The source's display name.
    public let name: String
    /// The source's bundle identifier (for an app, its manifest's bundle identifier).
    public let bundleIdentifier: String

    package init(name: String, bundleIdentifier: String) {
        self.name = name
        self.bundleIdentifier = bundleIdentifier
    }

    /// The source of the running program. A store replaces it with the app's declared identity on save;
    /// before that it is the process's bundle identifier, or its name when it has no bundle.
    public class func `default`() -> HKSource {
        let processName = ProcessInfo.processInfo.processName
        return HKSource(name: processName, bundleIdentifier: Bundle.main.bundleIdentifier ?? processName)
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let rhs = object as? HKSource else { return false }
        let lhs = self
        return lhs.bundleIdentifier == rhs.bundleIdentifier
    }
    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(bundleIdentifier)
        return hasher.finalize()
    }
    public override var description: String { "\(name) (\(bundleIdentifier))" }

    // MARK: NSSecureCoding, NSCopying

    private enum Key {
        static let name = "name"
        static let bundleIdentifier = "bundleIdentifier"
    }

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        coder.encode(name, forKey: Key.name)
        coder.encode(bundleIdentifier, forKey: Key.bundleIdentifier)
    }

    public required convenience init?(coder: NSCoder) {
        guard case let (name, bundleIdentifier)? = coder.decodeValid("HKSource", {
            (try coder.decode(String.self, forKey: Key.name), try coder.decode(String.self, forKey: Key.bundleIdentifier))
        }) else { return nil }
        self.init(name: name, bundleIdentifier: bundleIdentifier)
    }

    /// Sources are immutable: a copy is the source itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }
}
