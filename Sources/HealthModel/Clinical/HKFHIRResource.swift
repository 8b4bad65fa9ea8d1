public import Foundation

/// A FHIR resource as a provider sent it: its type, its id, its JSON, where it lives, and its FHIR version.
public final class HKFHIRResource: NSObject, Sendable {
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
