public import Foundation

/// A record that an object was deleted, as anchored queries report it. Only the sync metadata
/// (`HKMetadataKeySyncIdentifier`, `HKMetadataKeySyncVersion`) of the deleted object is kept.
///
/// ```swift
/// for deleted in deletedObjects { cache.removeValue(forKey: deleted.uuid) }
/// ```
public final class HKDeletedObject: NSObject, @unchecked Sendable {
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
