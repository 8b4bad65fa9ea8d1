public import Foundation

/// A FHIR resource as a provider sent it: its type, its id, its JSON, where it lives, and its FHIR version.
/// `NSSecureCoding` (every field) and `NSCopying` (the resource itself), as HealthKit's.
public final class HKFHIRResource: NSObject, NSSecureCoding, NSCopying, Sendable {
    /// The FHIR `resourceType`.
    public let resourceType: HKFHIRResourceType
    /// The FHIR `id`: unique only for one resource type from one source; compare `identifier`, `resourceType` and the
    /// record's source together to identify a resource.
    public let identifier: String
    /// The resource's JSON.
    public let data: Data
    /// The resource's full URL at the provider, when known.
    public let sourceURL: URL?
    public let fhirVersion: HKFHIRVersion

    package init(resourceType: HKFHIRResourceType, identifier: String, data: Data, sourceURL: URL?, fhirVersion: HKFHIRVersion) {
        self.resourceType = resourceType
        self.identifier = identifier
        self.data = data
        self.sourceURL = sourceURL
        self.fhirVersion = fhirVersion
    }

    // MARK: NSSecureCoding, NSCopying

    private enum Key {
        static let resourceType = "resourceType"
        static let identifier = "identifier"
        static let data = "data"
        static let sourceURL = "sourceURL"
        static let fhirVersion = "fhirVersion"
    }

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        coder.encode(resourceType.rawValue, forKey: Key.resourceType)
        coder.encode(identifier, forKey: Key.identifier)
        coder.encode(data, forKey: Key.data)
        coder.encodeIfPresent(sourceURL?.absoluteString, forKey: Key.sourceURL)
        coder.encode(fhirVersion, forKey: Key.fhirVersion)
    }

    public required convenience init?(coder: NSCoder) {
        guard case let (type, identifier, data, url, version)? = coder.decodeValid("HKFHIRResource", {
            let url = try coder.decodeIfPresent(String.self, forKey: Key.sourceURL).map { text in
                guard let url = URL(string: text) else { throw ArchiveError.invalid("\"\(text)\" is not a URL") }
                return url
            }
            return (HKFHIRResourceType(rawValue: try coder.decode(String.self, forKey: Key.resourceType)),
                    try coder.decode(String.self, forKey: Key.identifier), try coder.decode(Data.self, forKey: Key.data), url,
                    try coder.decode(HKFHIRVersion.self, forKey: Key.fhirVersion))
        }) else { return nil }
        self.init(resourceType: type, identifier: identifier, data: data, sourceURL: url, fhirVersion: version)
    }

    /// Resources are immutable: a copy is the resource itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let rhs = object as? HKFHIRResource else { return false }
        let lhs = self
        return lhs.resourceType == rhs.resourceType && lhs.identifier == rhs.identifier && lhs.data == rhs.data
            && lhs.sourceURL == rhs.sourceURL && lhs.fhirVersion == rhs.fhirVersion
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(resourceType)
        hasher.combine(identifier)
        hasher.combine(fhirVersion)
        return hasher.finalize()
    }
}
