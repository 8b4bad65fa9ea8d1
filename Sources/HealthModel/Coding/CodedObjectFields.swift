package import Foundation

/// The fields every ``HKObject`` archives — its UUID, metadata, source revision and device — encoded by
/// `HKObject.encode(with:)` and decoded here for the concrete classes' `init?(coder:)`.
package struct CodedObjectFields {
    private enum Key {
        static let uuid = "uuid"
        static let metadata = "metadata"
        static let sourceRevision = "sourceRevision"
        static let device = "device"
    }

    package let uuid: UUID
    package let metadata: [String: HKMetadataValue]?
    package let sourceRevision: HKSourceRevision
    package let device: HKDevice?

    package static func encode(_ object: HKObject, with coder: NSCoder) {
        coder.encodeUUID(object.uuid, forKey: Key.uuid)
        MetadataCoding.encode(object.metadataValues, forKey: Key.metadata, with: coder)
        coder.encode(object.sourceRevision, forKey: Key.sourceRevision)
        coder.encodeIfPresent(object.device, forKey: Key.device)
    }

    package init(coder: NSCoder) throws {
        uuid = try coder.decodeUUID(forKey: Key.uuid)
        metadata = try MetadataCoding.decode(forKey: Key.metadata, from: coder)
        sourceRevision = try coder.decode(HKSourceRevision.self, forKey: Key.sourceRevision)
        device = try coder.decodeIfPresent(HKDevice.self, forKey: Key.device)
    }
}
