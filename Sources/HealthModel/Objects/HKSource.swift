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

    /// The running app's source: the app its manifest names (`OPENHEALTHKIT_APP`, else `openhealthkit-app.json` beside the
    /// executable — the manifest `HKHealthStore()` opens the store for), equal to the source of what that app saves, so
    /// `HKQuery.predicateForObjects(from: .default())` finds it. Without a manifest, the process (its bundle identifier,
    /// or its name). A process that opens stores for several apps with `HKHealthStore(configuration:)` (tests, the
    /// daemon) has no one app: there it is the process.
    public class func `default`() -> HKSource { processSource }

    private static let processSource = appSource(ProcessInfo.processInfo.environment)

    /// The source ``default()`` gives in this environment.
    package static func appSource(_ environment: [String: String]) -> HKSource {
        let executableFolder = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").deletingLastPathComponent()
        let file = environment["OPENHEALTHKIT_APP"].map { URL(fileURLWithPath: $0) }
            ?? executableFolder.appendingPathComponent("openhealthkit-app.json")
        if let data = try? Data(contentsOf: file), let manifest = try? JSONDecoder().decode(AppManifest.self, from: data) {
            return HKSource(name: manifest.name, bundleIdentifier: manifest.bundleIdentifier)
        }
        let processName = ProcessInfo.processInfo.processName
        return HKSource(name: processName, bundleIdentifier: mainBundleIdentifier ?? processName)
    }

    /// The main bundle's identifier where executables have bundles. Elsewhere there is none, and asking is not safe:
    /// swift-corelibs-foundation's `Bundle.main` traps when the user may not read a folder above the executable.
    private static var mainBundleIdentifier: String? {
        #if canImport(Darwin)
        Bundle.main.bundleIdentifier
        #else
        nil
        #endif
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
