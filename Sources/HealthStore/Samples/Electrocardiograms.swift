package import Foundation
import GRDB
package import HealthModel

extension SampleStore {
    /// Stores an electrocardiogram's conclusion and voltages (read from an export).
    static func insertRecording(of ecg: HKElectrocardiogram, sampleId: Int64, in db: Database) throws {
        guard let voltages = ecg.voltages else {
            throw HKError.invalidArgument("electrocardiogram \(ecg.uuid) carries no voltages")
        }
        var data = Data(capacity: voltages.count * 8)
        for voltage in voltages { withUnsafeBytes(of: voltage.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
        try db.execute(sql: """
            INSERT INTO electrocardiogram (sampleId, classification, symptomsStatus, averageHeartRate, samplingFrequency, voltages)
            VALUES (?, ?, ?, ?, ?, ?)
            """, arguments: [sampleId, ecg.classification.rawValue, ecg.symptomsStatus.rawValue,
                             ecg.averageHeartRate.map { $0.doubleValue(for: HKUnit.count().unitDivided(by: .minute())) },
                             ecg.samplingFrequency.map { $0.doubleValue(for: .hertz()) }, data])
    }

    /// An electrocardiogram row as the sample (without its voltages).
    static func electrocardiogram(sampleId: Int64, start: Date, end: Date, count: Int, uuid: UUID, metadata: [String: HKMetadataValue]?,
                                  revision: HKSourceRevision, device: HKDevice?, in db: Database) throws -> HKElectrocardiogram {
        guard let row = try Row.fetchOne(db, sql: """
            SELECT classification, symptomsStatus, averageHeartRate, samplingFrequency FROM electrocardiogram WHERE sampleId = ?
            """, arguments: [sampleId]) else {
            throw HKError(.errorDatabaseInaccessible, "the store holds electrocardiogram \(uuid) without its recording")
        }
        return HKElectrocardiogram(
            start: start, end: end, numberOfVoltageMeasurements: count,
            samplingFrequency: (row["samplingFrequency"] as Double?).map { HKQuantity(unit: .hertz(), doubleValue: $0) },
            classification: HKElectrocardiogram.Classification(rawValue: row["classification"]) ?? .unrecognized,
            averageHeartRate: (row["averageHeartRate"] as Double?).map { HKQuantity(unit: .count().unitDivided(by: .minute()), doubleValue: $0) },
            symptomsStatus: HKElectrocardiogram.SymptomsStatus(rawValue: row["symptomsStatus"]) ?? .notSet,
            uuid: uuid, metadata: metadata, sourceRevision: revision, device: device)
    }

    /// The voltages (microvolts) of electrocardiogram `uuid`, in order. The caller has checked that it is visible to the reader.
    package func voltages(of uuid: UUID) throws -> [Double] {
        try database.read { db in
            guard let data = try Data.fetchOne(db, sql: """
                SELECT voltages FROM electrocardiogram WHERE sampleId = (SELECT id FROM sample WHERE uuid = ?)
                """, arguments: [uuid.uuidString]) else { return [] }
            return stride(from: 0, to: data.count - 7, by: 8).map { offset in
                Double(bitPattern: data[data.startIndex + offset ..< data.startIndex + offset + 8].enumerated()
                    .reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) })
            }
        }
    }

    /// Whether a sample with this UUID is stored (of any source).
    package func contains(_ uuid: UUID) throws -> Bool {
        try database.read { db in try Bool.fetchOne(db, sql: "SELECT 1 FROM sample WHERE uuid = ?", arguments: [uuid.uuidString]) ?? false }
    }
}
