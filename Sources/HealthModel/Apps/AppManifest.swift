/// What Info.plist tells HealthKit about an iOS app: its identity and the usage descriptions the
/// authorization sheet shows. OpenHealthKit reads it from JSON with Info.plist's key names:
///
/// ```json
/// {
///   "CFBundleIdentifier": "com.example.steps",
///   "CFBundleName": "Steps",
///   "CFBundleShortVersionString": "1.2",
///   "NSHealthShareUsageDescription": "Steps reads your step count to chart it.",
///   "NSHealthUpdateUsageDescription": "Steps saves the walks you log."
/// }
/// ```
public struct AppManifest: Codable, Sendable, Hashable {
    /// The app's bundle identifier: its identity in the store (`CFBundleIdentifier`).
    public var bundleIdentifier: String
    /// The name the person sees (`CFBundleName`).
    public var name: String
    /// The app's version (`CFBundleShortVersionString`).
    public var version: String?
    /// Why the app reads health data (`NSHealthShareUsageDescription`); required to request read access.
    public var shareUsageDescription: String?
    /// Why the app writes health data (`NSHealthUpdateUsageDescription`); required to request share access.
    public var updateUsageDescription: String?
    /// Why the app reads clinical records (`NSHealthClinicalHealthRecordsShareUsageDescription`).
    public var clinicalUsageDescription: String?
    /// Clinical types the app cannot work without (`NSHealthRequiredReadAuthorizationTypeIdentifiers`).
    public var requiredReadTypeIdentifiers: [String]?

    public init(
        bundleIdentifier: String, name: String, version: String? = nil,
        shareUsageDescription: String? = nil, updateUsageDescription: String? = nil,
        clinicalUsageDescription: String? = nil, requiredReadTypeIdentifiers: [String]? = nil
    ) {
        self.bundleIdentifier = bundleIdentifier
        self.name = name
        self.version = version
        self.shareUsageDescription = shareUsageDescription
        self.updateUsageDescription = updateUsageDescription
        self.clinicalUsageDescription = clinicalUsageDescription
        self.requiredReadTypeIdentifiers = requiredReadTypeIdentifiers
    }

    enum CodingKeys: String, CodingKey {
        case bundleIdentifier = "CFBundleIdentifier"
        case name = "CFBundleName"
        case version = "CFBundleShortVersionString"
        case shareUsageDescription = "NSHealthShareUsageDescription"
        case updateUsageDescription = "NSHealthUpdateUsageDescription"
        case clinicalUsageDescription = "NSHealthClinicalHealthRecordsShareUsageDescription"
        case requiredReadTypeIdentifiers = "NSHealthRequiredReadAuthorizationTypeIdentifiers"
    }
}
