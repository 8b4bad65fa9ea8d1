public import Foundation
import HealthStore

/// Where an anchored query left off: pass it to the next query to get only what changed since. It is opaque but
/// serializable, as HealthKit's is — `NSSecureCoding`, so an app keeps it the way HealthKit apps do, and also
/// `Codable`:
///
/// ```swift
/// let data = try NSKeyedArchiver.archivedData(withRootObject: anchor, requiringSecureCoding: true)
/// let restored = try NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: data)
/// ```
open class HKQueryAnchor: NSObject, NSSecureCoding, NSCopying, Codable, @unchecked Sendable {
    let position: AnchorPosition

    init(_ position: AnchorPosition) {
        self.position = position
    }

    /// An anchor from the integer anchors of HealthKit's first API: everything saved or deleted after that value.
    public convenience init(fromValue value: Int) {
        self.init(AnchorPosition(sample: Int64(value), deleted: Int64(value)))
    }

    open override func isEqual(_ object: Any?) -> Bool {
        (object as? HKQueryAnchor)?.position == position
    }

    open override var hash: Int { position.hashValue }

    open override var description: String { "HKQueryAnchor(\(position.sample), \(position.deleted))" }

    // MARK: NSSecureCoding, NSCopying

    public static var supportsSecureCoding: Bool { true }

    open func encode(with coder: NSCoder) {
        coder.encode(position.sample, forKey: CodingKeys.sample.rawValue)
        coder.encode(position.deleted, forKey: CodingKeys.deleted.rawValue)
    }

    public required init?(coder: NSCoder) {
        guard coder.containsValue(forKey: CodingKeys.sample.rawValue), coder.containsValue(forKey: CodingKeys.deleted.rawValue) else {
            return nil
        }
        position = AnchorPosition(sample: coder.decodeInt64(forKey: CodingKeys.sample.rawValue),
                                  deleted: coder.decodeInt64(forKey: CodingKeys.deleted.rawValue))
    }

    /// Anchors are immutable: a copy is the anchor itself.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    // MARK: Codable

    enum CodingKeys: String, CodingKey { case sample, deleted }

    public required convenience init(from decoder: any Decoder) throws {
        self.init(try AnchorPosition(from: decoder))
    }

    open func encode(to encoder: any Encoder) throws { try position.encode(to: encoder) }
}
