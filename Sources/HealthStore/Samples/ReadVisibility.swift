package import GRDB

/// What one app may see of one type: everything, when the person allowed it to read the type, or only
/// its own objects otherwise. A denied read therefore looks exactly like "nobody else has data": every
/// read path (sample lookups now, each query kind later) filters through this one condition, so no
/// count, error or anchor can tell the difference.
package struct ReadVisibility: Sendable {
    /// The reading app's source row, if it ever saved anything.
    let ownSourceId: Int64?
    let canReadOthers: Bool
    /// For a correlation type (blood pressure, food), which nobody is asked about directly: the member types
    /// the app may read. Another source's correlation is visible only when the app may read every member type it
    /// was saved with.
    var readableMemberTypes: [String]? = nil
    /// For a type read object by object (vision prescriptions), which nobody reads whole: the reading app, whose
    /// per-object choices (`objectReadGrant`, by UUID — so the tombstone of a granted object stays visible) decide, and
    /// without one, whether it saved the object.
    var perObjectApp: String? = nil
    /// For medication dose events, which no app saves: the reading app, which sees a dose event exactly when the person
    /// lets it read the event's medication (`objectReadGrant` on the medication's UUID) — a deleted one's too, by the
    /// medication's UUID kept with its tombstone (`deletedDoseEvent`; grants outlive a removed medication).
    var doseEventApp: String? = nil

    /// The SQL condition on `sample` (aliased as given) that keeps the visible rows. For tombstones
    /// (`deletedObject`) of correlations, the member types kept with the tombstone decide, as for the living.
    package func condition(alias: String = "sample", tombstones: Bool = false) -> SQL {
        let own: SQL = ownSourceId.map { "\(sql: alias).sourceId = \($0)" } ?? "0"
        if let perObjectApp {
            return """
                COALESCE((SELECT objectGrant.allowed FROM objectReadGrant AS objectGrant WHERE objectGrant.app = \(perObjectApp)
                          AND objectGrant.uuid = \(sql: alias).uuid), \(own))
                """
        }
        if let doseEventApp {
            let medication: SQL = tombstones
                ? "(SELECT medicationUUID FROM deletedDoseEvent WHERE deletedId = \(sql: alias).id)"
                : "(SELECT medication.uuid FROM medicationDoseEvent JOIN medication USING (conceptId) WHERE sampleId = \(sql: alias).id)"
            return """
                COALESCE((SELECT objectGrant.allowed FROM objectReadGrant AS objectGrant WHERE objectGrant.app = \(doseEventApp)
                          AND objectGrant.uuid = \(medication)), 0)
                """
        }
        if let readableMemberTypes, tombstones {
            // A deleted correlation: its member types were kept with the tombstone (none for ones deleted before: own only).
            return """
                (\(own) OR (EXISTS (SELECT 1 FROM deletedCorrelationMemberType AS member WHERE member.deletedId = \(sql: alias).id)
                             AND NOT EXISTS (SELECT 1 FROM deletedCorrelationMemberType AS member WHERE member.deletedId = \(sql: alias).id
                                             AND member.typeCode NOT IN \(readableMemberTypes.map(SampleTypeCode.code)))))
                """
        }
        if let readableMemberTypes {
            // The member types it was saved with (correlationMemberType), not the members left: a correlation emptied
            // of the members this app may not read stays as hidden as it was.
            return """
                (\(own) OR NOT EXISTS (SELECT 1 FROM correlationMemberType AS member WHERE member.correlationId = \(sql: alias).id
                                       AND member.typeCode NOT IN \(readableMemberTypes.map(SampleTypeCode.code))))
                """
        }
        return canReadOthers ? "1" : own
    }
}
