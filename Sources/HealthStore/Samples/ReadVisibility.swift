package import GRDB

/// What one app may see of one type: everything, when the person allowed it to read the type, or only
/// its own objects otherwise. A denied read therefore looks exactly like "nobody else has data": every
/// read path (sample lookups now, each query kind later) filters through this one condition, so no
/// count, error or anchor can tell the difference.
package struct ReadVisibility: Sendable {
    /// The reading app's source row, if it ever saved anything.
    let ownSourceId: Int64?
    let canReadOthers: Bool

    /// The SQL condition on `sample` (aliased as given) that keeps the visible rows.
    package func condition(alias: String = "sample") -> SQL {
        if canReadOthers { return "1" }
        guard let ownSourceId else { return "0" }
        return "\(sql: alias).sourceId = \(ownSourceId)"
    }
}
