public import Foundation

/// The abstract base of everything the store holds: a UUID, metadata, the source revision that saved it,
/// and the device that produced it. Objects are immutable and `Sendable`; they compare by ``uuid``.
///
/// ```swift
/// let sample = HKQuantitySample(type: HKQuantityType(.stepCount),
///                               quantity: HKQuantity(unit: .count(), doubleValue: 1200),
///                               start: start, end: end,
///                               metadata: [HKMetadataKeyWasUserEntered: true])
/// sample.uuid; sample.metadata?[HKMetadataKeyWasUserEntered] as? Bool  // true
/// ```
///
/// `NSSecureCoding`, as HealthKit's: every concrete object class archives its whole state (UUID, metadata of every
/// kind exactly, source revision, device, and its own fields) and decodes it with secure coding; a bad archive
/// (a missing value, a type of the wrong kind, an end before the start…) fails the decode rather than the program.
/// `HKObject`, `HKSample` and the other abstract classes never decode themselves. `NSCopying` gives the object
/// itself: objects are immutable.
public class HKObject: NSObject, NSSecureCoding, NSCopying, @unchecked Sendable {
    // @unchecked: subclasses hold only immutable `let` properties of Sendable values.

    /// The object's unique identifier.
    public let uuid: UUID
    /// The validated metadata, in the form stores and wire formats read.
    package let metadataValues: [String: HKMetadataValue]?
    /// The app version, product and OS that saved the object.
    public let sourceRevision: HKSourceRevision
    /// The device that produced the data, if known.
    public let device: HKDevice?

    package init(uuid: UUID, metadata: [String: HKMetadataValue]?, sourceRevision: HKSourceRevision, device: HKDevice?) {
        self.uuid = uuid
        self.metadataValues = metadata
        self.sourceRevision = sourceRevision
        self.device = device
    }

    /// The object's metadata, keyed by `HKMetadataKey…` constants or the app's own keys.
    public var metadata: [String: Any]? { metadataValues?.anyDictionary }

    /// The source that saved the object.
    @available(*, deprecated, renamed: "sourceRevision.source")
    public var source: HKSource { sourceRevision.source }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let rhs = object as? HKObject else { return false }
        let lhs = self
        return lhs.uuid == rhs.uuid
    }
    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(uuid)
        return hasher.finalize()
    }

    // MARK: NSSecureCoding, NSCopying

    public static var supportsSecureCoding: Bool { true }

    /// Encodes the object's fields; subclasses add theirs after calling `super`.
    public func encode(with coder: NSCoder) {
        CodedObjectFields.encode(self, with: coder)
    }

    /// `HKObject` is abstract: each concrete class decodes itself, and decoding this one fails.
    public required convenience init?(coder: NSCoder) {
        coder.reportFailure(.invalid("\(Self.self) is abstract; only concrete object classes decode"), decoding: "\(Self.self)")
        return nil
    }

    /// Objects are immutable: a copy is the object itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    /// The revision an object carries before a store saves it: this process, version unknown.
    package static let unsavedRevision = HKSourceRevision(source: .default(), version: nil)
}
