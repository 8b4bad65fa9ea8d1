package import Foundation
package import HealthModel

/// `HKDeletedObject` on the wire, both ways: the UUID and the sync metadata it carries (HealthKit keeps no other).
package enum WireDeletedObject {
    package static func wire(_ deleted: HKDeletedObject) -> Components.Schemas.DeletedObject {
        var syncIdentifier: String?, syncVersion: Int?
        if case .string(let identifier)? = deleted.metadataValues?[HKMetadataKeySyncIdentifier] { syncIdentifier = identifier }
        if case .integer(let version)? = deleted.metadataValues?[HKMetadataKeySyncVersion] { syncVersion = version }
        return .init(uuid: deleted.uuid.uuidString, syncIdentifier: syncIdentifier, syncVersion: syncVersion)
    }

    /// The deleted objects a response lists (`/deletedObjects/<index>`).
    package static func stored(_ wires: [Components.Schemas.DeletedObject]) throws -> [HKDeletedObject] {
        try wires.enumerated().map { index, wire in
            guard let uuid = UUID(wireText: wire.uuid) else { throw WireFieldError("/deletedObjects/\(index)/uuid", "not a UUID") }
            var metadata: [String: HKMetadataValue] = [:]
            if let identifier = wire.syncIdentifier { metadata[HKMetadataKeySyncIdentifier] = .string(identifier) }
            if let version = wire.syncVersion { metadata[HKMetadataKeySyncVersion] = .integer(version) }
            return HKDeletedObject(uuid: uuid, metadata: metadata.isEmpty ? nil : metadata)
        }
    }
}
