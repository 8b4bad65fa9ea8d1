public import Foundation

/// A record that an object was deleted, as anchored queries report it. Only the sync metadata
/// (`HKMetadataKeySyncIdentifier`, `HKMetadataKeySyncVersion`) of the deleted object is kept.
///
/// ```swift
/// for deleted in deletedObjects { cache.removeValue(forKey: deleted.uuid) }
/// ```
///
/// `NSSecureCoding` (UUID and sync metadata) and `NSCopying` (the object itself), as HealthKit's.
public final class HKDeletedObject: NSObject, NSSecureCoding, NSCopying, @unchecked Sendable {
    // @unchecked: immutable `let`s; metadata is held as Sendable HKMetadataValues.

    /// The deleted object's UUID.
    public let uuid: UUID
    package let metadataValues: [String: HKMetadataValue]?

    package init(uuid: UUID, metadata: [String: HKMetadataValue]?) {
        self.uuid = uuid
        let kept = metadata?.filter { $0.key == HKMetadataKeySyncIdentifier || $0.key == HKMetadataKeySyncVersion }
        self.metadataValues = (kept?.isEmpty ?? true) ? nil : kept
    }

    /// The deleted object's sync metadata, if it had any.
    public var metadata: [String: Any]? { metadataValues?.anyDictionary }

    // MARK: NSSecureCoding, NSCopying

    private enum Key {
        static let uuid = "uuid"
        static let metadata = "metadata"
    }

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        coder.encodeUUID(uuid, forKey: Key.uuid)
        MetadataCoding.encode(metadataValues, forKey: Key.metadata, with: coder)
    }

    public required convenience init?(coder: NSCoder) {
        guard case let (uuid, metadata)? = coder.decodeValid("HKDeletedObject", {
            (try coder.decodeUUID(forKey: Key.uuid), try MetadataCoding.decode(forKey: Key.metadata, from: coder))
        }) else { return nil }
        self.init(uuid: uuid, metadata: metadata)
    }

    /// Deleted objects are immutable: a copy is the object itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let rhs = object as? HKDeletedObject else { return false }
        let lhs = self
        return lhs.uuid == rhs.uuid
    }
    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(uuid)
        return hasher.finalize()
    }
}
