import Foundation
import GRDB
import HealthModel

extension SampleStore {
    /// Stores an audiogram's sensitivity points.
    static func insertAudiogram(_ audiogram: HKAudiogramSample, sampleId: Int64, in db: Database) throws {
        try db.cachedStatement(sql: "INSERT INTO audiogram (sampleId, points) VALUES (?, ?)")
            .execute(arguments: [sampleId, HKAudiogramSensitivityPoint.json(audiogram.sensitivityPoints)])
    }

    /// An audiogram row as the sample.
    static func audiogram(sampleId: Int64, start: Date, end: Date, uuid: UUID, metadata: [String: HKMetadataValue]?,
                          revision: HKSourceRevision, device: HKDevice?, in db: Database) throws -> HKAudiogramSample {
        guard let json = try String.fetchOne(db.cachedStatement(sql: "SELECT points FROM audiogram WHERE sampleId = ?"), arguments: [sampleId]) else {
            throw HKError(.errorDatabaseInaccessible, "the store holds audiogram \(uuid) without its sensitivity points")
        }
        do {
            return HKAudiogramSample(sensitivityPoints: try HKAudiogramSensitivityPoint.points(json: json), start: start, end: end, uuid: uuid,
                                     metadata: metadata, sourceRevision: revision, device: device)
        } catch let error as HKError {
            throw HKError(.errorDatabaseInaccessible, "the store holds audiogram \(uuid) with points it cannot read: \(error.message)")
        }
    }
}
