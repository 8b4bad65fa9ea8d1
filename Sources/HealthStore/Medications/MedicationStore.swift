package import Foundation
import GRDB
package import HealthModel

/// The medications the person tracks (`medication`) and their logged doses (samples of kind 13 with a
/// `medicationDoseEvent` row). The person adds, changes and removes medications and logs doses; apps only read them:
/// a medication when the person shares it with the app (per-object grants, as vision prescriptions), a dose event when
/// its medication is shared (``ReadVisibility``).
extension SampleStore {
    /// A tracked medication with the UUID per-object grants name it by.
    package struct TrackedMedication: Sendable {
        package let uuid: UUID
        package let medication: HKUserAnnotatedMedication
    }

    /// Starts tracking a medication; a concept already tracked is `errorInvalidArgument`. Returns its UUID.
    @discardableResult
    package func addMedication(_ medication: HKUserAnnotatedMedication) throws -> UUID {
        try checkNotGuest("adding a medication")
        let uuid = UUID()
        let concept = medication.medication
        try write { db in
            guard try !Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM medication WHERE conceptId = ?)",
                                     arguments: [concept.identifier.underlyingIdentifier])! else {
                throw HKError.invalidArgument("medication \(concept.identifier.underlyingIdentifier) is tracked already")
            }
            try db.execute(sql: """
                INSERT INTO medication (uuid, conceptId, displayText, generalForm, codings, nickname, isArchived, hasSchedule, addedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [uuid.uuidString, concept.identifier.underlyingIdentifier, concept.displayText, concept.generalForm.rawValue,
                                 try Self.codingsJSON(concept.relatedCodings), medication.nickname, medication.isArchived,
                                 medication.hasSchedule, Date().timeIntervalSince1970])
        }
        return uuid
    }

    /// Changes what the person set for a tracked medication: its nickname, archived, schedule. Unknown: `errorInvalidArgument`.
    package func updateMedication(_ conceptId: String, nickname: String??, isArchived: Bool?, hasSchedule: Bool?) throws {
        try checkNotGuest("changing a medication")
        try write { db in
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM medication WHERE conceptId = ?)", arguments: [conceptId])! else {
                throw HKError.invalidArgument("no medication \(conceptId) is tracked")
            }
            if let nickname {
                try db.execute(sql: "UPDATE medication SET nickname = ? WHERE conceptId = ?", arguments: [nickname, conceptId])
            }
            if let isArchived {
                try db.execute(sql: "UPDATE medication SET isArchived = ? WHERE conceptId = ?", arguments: [isArchived, conceptId])
            }
            if let hasSchedule {
                try db.execute(sql: "UPDATE medication SET hasSchedule = ? WHERE conceptId = ?", arguments: [hasSchedule, conceptId])
            }
        }
    }

    /// Stops tracking a medication: its dose events are deleted (apps that could read them hear of it). Returns how many
    /// dose events went. Unknown: `errorInvalidArgument`.
    @discardableResult
    package func removeMedication(_ conceptId: String) throws -> Int {
        try checkNotGuest("removing a medication")
        let (count, touched) = try write { db -> (Int, Set<String>) in
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM medication WHERE conceptId = ?)", arguments: [conceptId])! else {
                throw HKError.invalidArgument("no medication \(conceptId) is tracked")
            }
            let rows = try SampleRecord.fetchAll(db, sql: """
                SELECT * FROM sample WHERE id IN (SELECT sampleId FROM medicationDoseEvent WHERE conceptId = ?)
                """, arguments: [conceptId])
            var touched = Set<String>()
            let now = Date().timeIntervalSinceReferenceDate
            for row in rows {
                try tombstone(row, at: now, in: db, touched: &touched)
                _ = try row.delete(db)
            }
            // The grants on it stay, as tombstones do: the apps that could read its doses hear of their deletion. Added
            // again, the medication is a new object (a new UUID) that no app reads until the person shares it.
            try db.execute(sql: "DELETE FROM medication WHERE conceptId = ?", arguments: [conceptId])
            return (rows.count, touched)
        }
        changes.post(touched.union([HKDataTypeIdentifierUserAnnotatedMedicationConcept]))
        return count
    }

    /// The tracked medications `app` may read (the person: all) that match `filter` (archived and schedule conditions),
    /// in the order they were added, at most `limit`.
    package func medications(matching filter: SampleFilter?, visibleTo app: String, limit: Int? = nil) throws -> [TrackedMedication] {
        let condition: SQL = try filter?.medicationSQL() ?? "1"
        let visible: SQL = app == AuthorizationService.personReader ? "1" : """
            EXISTS (SELECT 1 FROM objectReadGrant AS objectGrant WHERE objectGrant.app = \(app) AND objectGrant.uuid = medication.uuid
                    AND objectGrant.allowed)
            """
        let cap: SQL = limit.map { "LIMIT \($0)" } ?? ""
        return try database.read { db in
            try Row.fetchAll(db, SQLRequest<Row>(literal: """
                SELECT * FROM medication WHERE \(visible) AND \(condition) ORDER BY addedAt, rowid \(cap)
                """)).map(Self.trackedMedication(from:))
        }
    }

    /// The tracked medication with this concept identifier, as the person sees it.
    package func medication(_ conceptId: String) throws -> TrackedMedication? {
        try database.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM medication WHERE conceptId = ?", arguments: [conceptId]).map(Self.trackedMedication(from:))
        }
    }

    /// The tracked medications with these UUIDs (a parked sheet's), as the person sees them.
    package func medications(uuids: [UUID]) throws -> [UUID: HKUserAnnotatedMedication] {
        try database.read { db in
            var found: [UUID: HKUserAnnotatedMedication] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM medication WHERE uuid IN (SELECT value FROM json_each(?))",
                                        arguments: [String(data: try JSONEncoder().encode(uuids.map(\.uuidString)), encoding: .utf8)!]) {
                let tracked = try Self.trackedMedication(from: row)
                found[tracked.uuid] = tracked.medication
            }
            return found
        }
    }

    private func checkNotGuest(_ what: String) throws {
        if try authorization.isGuestMode() {
            throw HKError(.errorNotPermissibleForGuestUserMode, "\(what) is not permitted in guest mode")
        }
    }

    static func codingsJSON(_ codings: Set<HKClinicalCoding>) throws -> String {
        let stored = codings.map(\.stored).sorted { ($0.system, $0.code, $0.version ?? "") < ($1.system, $1.code, $1.version ?? "") }
        return String(data: try JSONEncoder().encode(stored), encoding: .utf8)!
    }

    static func trackedMedication(from row: Row) throws -> TrackedMedication {
        guard let uuid = UUID(uuidString: row["uuid"]),
              let codings = try? JSONDecoder().decode([HKClinicalCoding.Stored].self, from: Data((row["codings"] as String).utf8)) else {
            throw HKError(.errorDatabaseInaccessible, "the store holds a medication it cannot read (\(row["conceptId"] as String? ?? "?"))")
        }
        let concept = HKMedicationConcept(identifier: .medication(row["conceptId"]), displayText: row["displayText"],
                                          generalForm: HKMedicationGeneralForm(rawValue: row["generalForm"]),
                                          relatedCodings: Set(codings.map(HKClinicalCoding.init(stored:))))
        return TrackedMedication(uuid: uuid, medication: HKUserAnnotatedMedication(
            nickname: row["nickname"], isArchived: row["isArchived"], hasSchedule: row["hasSchedule"], medication: concept))
    }

    // MARK: - Dose events

    /// Stores a dose event's fields; its medication must be tracked.
    static func insertDoseEvent(_ dose: HKMedicationDoseEvent, sampleId: Int64, in db: Database) throws {
        let conceptId = dose.medicationConceptIdentifier.underlyingIdentifier
        guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM medication WHERE conceptId = ?)"), arguments: [conceptId])! else {
            throw HKError.invalidArgument("dose event \(dose.uuid) is of medication \(conceptId), which is not tracked: add the medication first")
        }
        try db.cachedStatement(sql: """
            INSERT INTO medicationDoseEvent (sampleId, conceptId, scheduleType, scheduledDate, scheduledDose, dose, logStatus, unit)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [sampleId, conceptId, dose.scheduleType.rawValue, dose.scheduledDate?.timeIntervalSinceReferenceDate,
                                     dose.scheduledDoseQuantity, dose.doseQuantity, dose.logStatus.rawValue, dose.unit.unitString])
    }

    /// A dose event row as the sample.
    static func doseEvent(sampleId: Int64, start: Date, end: Date, uuid: UUID, metadata: [String: HKMetadataValue]?,
                          revision: HKSourceRevision, device: HKDevice?, in db: Database) throws -> HKMedicationDoseEvent {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM medicationDoseEvent WHERE sampleId = ?"), arguments: [sampleId]),
              let schedule = HKMedicationDoseEvent.ScheduleType(rawValue: row["scheduleType"]),
              let status = HKMedicationDoseEvent.LogStatus(rawValue: row["logStatus"]),
              let unit = try? HKUnit.parse(row["unit"]) else {
            throw HKError(.errorDatabaseInaccessible, "the store holds dose event \(uuid) without what it says")
        }
        return HKMedicationDoseEvent(
            scheduleType: schedule, medicationConceptIdentifier: .medication(row["conceptId"]),
            scheduledDate: (row["scheduledDate"] as Double?).map { Date(timeIntervalSinceReferenceDate: $0) },
            scheduledDoseQuantity: row["scheduledDose"], doseQuantity: row["dose"], logStatus: status, unit: unit, start: start, end: end,
            uuid: uuid, metadata: metadata, sourceRevision: revision, device: device)
    }
}
