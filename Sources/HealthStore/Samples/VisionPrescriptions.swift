import Foundation
import GRDB
import HealthModel

extension SampleStore {
    /// Stores a vision prescription's type, brand and lenses.
    static func insertPrescription(_ prescription: HKVisionPrescription, sampleId: Int64, in db: Database) throws {
        try db.cachedStatement(sql: "INSERT INTO visionPrescription (sampleId, prescriptionType, brand, rightEye, leftEye) VALUES (?, ?, ?, ?, ?)")
            .execute(arguments: [sampleId, prescription.prescriptionType.rawValue, prescription.lensBrand,
                                 HKLensSpecification.json(prescription.lenses.right), HKLensSpecification.json(prescription.lenses.left)])
    }

    /// A vision prescription row as the sample: glasses, contacts, or a plain prescription.
    static func prescription(sampleId: Int64, start: Date, end: Date, uuid: UUID, metadata: [String: HKMetadataValue]?,
                             revision: HKSourceRevision, device: HKDevice?, in db: Database) throws -> HKVisionPrescription {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM visionPrescription WHERE sampleId = ?"), arguments: [sampleId]),
              let type = HKVisionPrescriptionType(rawValue: row["prescriptionType"]) else {
            throw HKError(.errorDatabaseInaccessible, "the store holds vision prescription \(uuid) without its prescription")
        }
        do {
            return try HKVisionPrescription.restored(
                type: type, brand: row["brand"], rightEye: try HKLensSpecification.stored(json: row["rightEye"]),
                leftEye: try HKLensSpecification.stored(json: row["leftEye"]), dateIssued: start,
                expirationDate: end >= HKVisionPrescription.noExpiration ? nil : end, uuid: uuid, metadata: metadata,
                sourceRevision: revision, device: device)
        } catch let error as HKError {
            throw HKError(.errorDatabaseInaccessible, "the store holds vision prescription \(uuid) with lenses it cannot read: \(error.message)")
        }
    }
}
