package import Foundation
import GRDB
package import HealthModel

/// The person's verifiable clinical records (SMART Health Cards). The person imports them; apps get them only through
/// a verifiable-record query, which puts the matching ones before the person to choose from.
package struct VerifiableRecordStore: Sendable {
    package let database: HealthDatabase

    package init(database: HealthDatabase) {
        self.database = database
    }

    /// One stored record and whether its signature was checked against a trusted issuer.
    package struct Stored: Sendable {
        package let record: HKVerifiableClinicalRecord
        package let verified: Bool
    }

    /// Stores a record; false when the same card (same JWS) is already stored.
    @discardableResult
    package func save(_ record: HKVerifiableClinicalRecord, verified: Bool) throws -> Bool {
        try database.write { db in
            let jws = String(decoding: record.dataRepresentation, as: UTF8.self)
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM verifiableRecord WHERE jws = ?", arguments: [jws]) != true else { return false }
            let birth = record.subject.dateOfBirthComponents
            try db.execute(sql: """
                INSERT INTO verifiableRecord (uuid, jws, sourceType, verified, issuer, recordTypes, itemNames, subjectName, birthYear,
                    birthMonth, birthDay, issuedDate, relevantDate, expirationDate, importedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [record.uuid.uuidString, jws, (record.sourceType ?? .smartHealthCard).rawValue, verified, record.issuerIdentifier,
                                 Self.json(record.recordTypes), Self.json(record.itemNames), record.subject.fullName, birth?.year, birth?.month,
                                 birth?.day, record.issuedDate.timeIntervalSinceReferenceDate, record.relevantDate.timeIntervalSinceReferenceDate,
                                 record.expirationDate?.timeIntervalSinceReferenceDate, record.startDate.timeIntervalSinceReferenceDate])
            return true
        }
    }

    /// The records whose types include one of `recordTypes` (all when empty), of one of `sourceTypes` (all when
    /// empty), matching `filter` (relevant-date predicates and their compounds), by relevant date.
    package func records(types recordTypes: [String] = [], sourceTypes: [String] = [], matching filter: SampleFilter? = nil) throws -> [Stored] {
        var condition: SQL = "1"
        if let filter { condition = try filter.verifiableRecordSQL() }
        if !sourceTypes.isEmpty { condition = "(\(condition)) AND sourceType IN \(sourceTypes)" }
        return try database.read { db in
            try Row.fetchAll(db, SQLRequest<Row>("SELECT * FROM verifiableRecord WHERE \(condition) ORDER BY relevantDate, id")).compactMap { row in
                let types = Self.strings(row["recordTypes"])
                guard recordTypes.isEmpty || !Set(types).isDisjoint(with: recordTypes) else { return nil }
                let birth: DateComponents? = (row["birthYear"] as Int?).map {
                    DateComponents(year: $0, month: row["birthMonth"] as Int?, day: row["birthDay"] as Int?)
                }
                let record = HKVerifiableClinicalRecord(
                    recordTypes: types, issuerIdentifier: row["issuer"],
                    subject: HKVerifiableClinicalRecordSubject(fullName: row["subjectName"], dateOfBirthComponents: birth),
                    issuedDate: Date(timeIntervalSinceReferenceDate: row["issuedDate"]),
                    relevantDate: Date(timeIntervalSinceReferenceDate: row["relevantDate"]),
                    expirationDate: (row["expirationDate"] as Double?).map(Date.init(timeIntervalSinceReferenceDate:)),
                    itemNames: Self.strings(row["itemNames"]), sourceType: HKVerifiableClinicalRecordSourceType(rawValue: row["sourceType"]),
                    dataRepresentation: Data((row["jws"] as String).utf8), imported: Date(timeIntervalSinceReferenceDate: row["importedAt"]),
                    uuid: UUID(uuidString: row["uuid"]) ?? UUID())
                return Stored(record: record, verified: row["verified"])
            }
        }
    }

    private static func json(_ strings: [String]) -> String {
        String(decoding: (try? JSONSerialization.data(withJSONObject: strings)) ?? Data("[]".utf8), as: UTF8.self)
    }

    private static func strings(_ text: String) -> [String] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String]) ?? []
    }
}
