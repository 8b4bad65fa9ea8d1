public import Foundation

/// The group a health concept belongs to (HealthKit's `HKHealthConceptDomain`, a typed string).
///
/// ```swift
/// medication.medication.identifier.domain == .medication   // true
/// ```
public struct HKHealthConceptDomain: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    /// Medication concepts (`HKHealthConceptDomainMedication`; the raw string is HealthKit's, from the reference tables).
    public static let medication = HKHealthConceptDomain(rawValue: "HKHealthConceptDomainMedication")
}

/// The stable identifier of one health concept within its domain (HealthKit's `HKHealthConceptIdentifier`): two
/// medications are the same medication exactly when their concepts' identifiers are equal, and a dose event names the
/// medication it was logged for by it. Apps never make one: they come with the medications the person shares.
///
/// `NSSecureCoding` and `NSCopying`, as HealthKit's; equal and hashed by domain and identifier.
public final class HKHealthConceptIdentifier: NSObject, NSSecureCoding, NSCopying, @unchecked Sendable {
    // @unchecked: immutable.
    public static var supportsSecureCoding: Bool { true }

    /// The domain this identifier belongs to.
    public let domain: HKHealthConceptDomain
    /// The identifier within the domain, as the store keeps it (an RxNorm code for a medication from the list, or the
    /// person's own for one they typed in). Not part of HealthKit's public API.
    package let underlyingIdentifier: String

    package init(domain: HKHealthConceptDomain, identifier: String) {
        self.domain = domain
        self.underlyingIdentifier = identifier
        super.init()
    }

    /// A medication concept's identifier.
    package static func medication(_ identifier: String) -> HKHealthConceptIdentifier {
        HKHealthConceptIdentifier(domain: .medication, identifier: identifier)
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKHealthConceptIdentifier else { return false }
        return other.domain == domain && other.underlyingIdentifier == underlyingIdentifier
    }

    public override var hash: Int { underlyingIdentifier.hashValue ^ domain.hashValue }

    public override var description: String { "HKHealthConceptIdentifier(\(underlyingIdentifier))" }

    // MARK: NSSecureCoding

    public func encode(with coder: NSCoder) {
        coder.encode(domain.rawValue, forKey: "Domain")
        coder.encode(underlyingIdentifier, forKey: "Identifier")
    }

    public required convenience init?(coder: NSCoder) {
        guard case let (domain, identifier)? = coder.decodeValid("HKHealthConceptIdentifier", {
            (try coder.decode(String.self, forKey: "Domain"), try coder.decode(String.self, forKey: "Identifier"))
        }) else { return nil }
        guard !domain.isEmpty, !identifier.isEmpty else {
            coder.reportFailure(.invalid("a health concept identifier without its domain or identifier"), decoding: "HKHealthConceptIdentifier")
            return nil
        }
        self.init(domain: HKHealthConceptDomain(rawValue: domain), identifier: identifier)
    }
}
