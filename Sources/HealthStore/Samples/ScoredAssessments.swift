import Foundation
import GRDB
import HealthModel

extension SampleStore {
    /// Stores a scored assessment's answers (its score is the sample row's `value`).
    static func insertAssessment(_ assessment: HKScoredAssessment, sampleId: Int64, in db: Database) throws {
        try db.cachedStatement(sql: "INSERT INTO scoredAssessment (sampleId, answers) VALUES (?, ?)")
            .execute(arguments: [sampleId, assessment.answerRawValues.map(String.init).joined(separator: ",")])
    }

    /// A scored assessment row as the sample.
    static func assessment(sampleId: Int64, type: HKScoredAssessmentType, date: Date, uuid: UUID, metadata: [String: HKMetadataValue]?,
                           revision: HKSourceRevision, device: HKDevice?, in db: Database) throws -> HKScoredAssessment {
        guard let text = try String.fetchOne(db.cachedStatement(sql: "SELECT answers FROM scoredAssessment WHERE sampleId = ?"),
                                             arguments: [sampleId]) else {
            throw HKError(.errorDatabaseInaccessible, "the store holds scored assessment \(uuid) without its answers")
        }
        let raw = text.split(separator: ",").compactMap { Int($0) }
        do {
            return try HKScoredAssessment.make(type: type, date: date, answerRawValues: raw, uuid: uuid, metadata: metadata,
                                               sourceRevision: revision, device: device)
        } catch let error as HKError {
            throw HKError(.errorDatabaseInaccessible, "the store holds scored assessment \(uuid) with answers it cannot read: \(error.message)")
        }
    }
}
