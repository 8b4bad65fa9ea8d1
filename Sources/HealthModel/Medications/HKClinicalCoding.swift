public import Foundation

/// A code in a clinical coding system (HealthKit's `HKClinicalCoding`, FHIR's `Coding`): the system's URL, its
/// version if any, and the code — a medication's RxNorm code, for one.
///
/// ```swift
/// let aspirin = HKClinicalCoding(system: "http://www.nlm.nih.gov/research/umls/rxnorm", version: nil, code: "1191")
/// ```
///
/// `NSSecureCoding` and `NSCopying`, as HealthKit's; equal when system, version and code are.
public final class HKClinicalCoding: NSObject, NSSecureCoding, NSCopying, @unchecked Sendable {
    // @unchecked: immutable.
    public static var supportsSecureCoding: Bool { true }

    /// The coding system, usually an HL7 terminology URL (`http://www.nlm.nih.gov/research/umls/rxnorm`).
    public let system: String
    /// The version of the coding system, if it matters.
    public let version: String?
    /// The code within the system.
    public let code: String

    /// Creates a coding.
    public init(system: String, version: String?, code: String) {
        self.system = system
        self.version = version
        self.code = code
        super.init()
    }

    /// The RxNorm system's URL.
    package static let rxNormSystem = "http://www.nlm.nih.gov/research/umls/rxnorm"

    /// Throws unless system and code are given: a coding without them names nothing.
    package func check() throws {
        guard !system.trimmingCharacters(in: .whitespaces).isEmpty, !code.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw HKError.invalidArgument("a clinical coding needs its system and its code (system \"\(system)\", code \"\(code)\")")
        }
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKClinicalCoding else { return false }
        return other.system == system && other.version == version && other.code == code
    }

    public override var hash: Int { code.hashValue ^ system.hashValue }

    public override var description: String { "\(system)|\(version.map { "\($0)|" } ?? "")\(code)" }

    // MARK: NSSecureCoding

    public func encode(with coder: NSCoder) {
        coder.encode(system, forKey: "System")
        coder.encodeIfPresent(version, forKey: "Version")
        coder.encode(code, forKey: "Code")
    }

    public required convenience init?(coder: NSCoder) {
        guard case let (system, version, code)? = coder.decodeValid("HKClinicalCoding", {
            (try coder.decode(String.self, forKey: "System"), try coder.decodeIfPresent(String.self, forKey: "Version"),
             try coder.decode(String.self, forKey: "Code"))
        }) else { return nil }
        self.init(system: system, version: version, code: code)
    }

    // MARK: Stored form

    /// How the store and the wire keep a coding.
    package struct Stored: Codable, Sendable, Hashable {
        package var system: String
        package var version: String?
        package var code: String

        package init(system: String, version: String?, code: String) {
            self.system = system
            self.version = version
            self.code = code
        }
    }

    package var stored: Stored { Stored(system: system, version: version, code: code) }

    package convenience init(stored: Stored) {
        self.init(system: stored.system, version: stored.version, code: stored.code)
    }
}
