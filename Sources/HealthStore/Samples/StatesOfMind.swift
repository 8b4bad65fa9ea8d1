import Foundation
import GRDB
import HealthModel

extension SampleStore {
    /// Stores a state of mind's kind, labels and associations (its valence is the sample row's `value`).
    static func insertStateOfMind(_ state: HKStateOfMind, sampleId: Int64, in db: Database) throws {
        try db.cachedStatement(sql: "INSERT INTO stateOfMind (sampleId, kind, labels, associations) VALUES (?, ?, ?, ?)")
            .execute(arguments: [sampleId, state.kind.rawValue, HKStateOfMind.rawList(state.labels),
                                 HKStateOfMind.rawList(state.associations)])
    }

    /// A state of mind row as the sample.
    static func stateOfMind(sampleId: Int64, date: Date, valence: Double, uuid: UUID, metadata: [String: HKMetadataValue]?,
                            revision: HKSourceRevision, device: HKDevice?, in db: Database) throws -> HKStateOfMind {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT kind, labels, associations FROM stateOfMind WHERE sampleId = ?"),
                                         arguments: [sampleId]) else {
            throw HKError(.errorDatabaseInaccessible, "the store holds state of mind \(uuid) without its kind and labels")
        }
        do {
            guard let kind = HKStateOfMind.Kind(rawValue: row["kind"]) else {
                throw HKError(.errorDatabaseInaccessible, "the store holds state of mind \(uuid) of unknown kind \(row["kind"] as Int? ?? -1)")
            }
            return HKStateOfMind(date: date, kind: kind, valence: valence,
                                 labels: try HKStateOfMind.parseRawList(row["labels"], as: HKStateOfMind.Label.self),
                                 associations: try HKStateOfMind.parseRawList(row["associations"], as: HKStateOfMind.Association.self),
                                 uuid: uuid, metadata: metadata, sourceRevision: revision, device: device)
        } catch let error as ArchiveError {
            throw HKError(.errorDatabaseInaccessible, "the store holds state of mind \(uuid) with \(error)")
        }
    }
}
