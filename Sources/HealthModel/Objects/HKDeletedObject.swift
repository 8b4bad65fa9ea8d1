public import Foundation

/// A record that an object was deleted, as anchored queries report it. Only the sync metadata
/// (`HKMetadataKeySyncIdentifier`, `HKMetadataKeySyncVersion`) of the deleted object is kept.
///
/// ```swift
/// for deleted in deletedObjects { cache.removeValue(forKey: deleted.uuid) }
/// ```
public final class HKDeletedObject: Hashable, @unchecked Sendable {
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

    public static func == (lhs: HKDeletedObject, rhs: HKDeletedObject) -> Bool { lhs.uuid == rhs.uuid }
    public func hash(into hasher: inout Hasher) { hasher.combine(uuid) }
}
