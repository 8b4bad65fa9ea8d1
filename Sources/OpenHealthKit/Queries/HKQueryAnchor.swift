import HealthStore

/// Where an anchored query left off: pass it to the next query to get only what changed since. It is
/// opaque but serializable — `Codable`, so an app can keep it (JSON, a file) and resume after a restart.
///
/// ```swift
/// let data = try JSONEncoder().encode(anchor)
/// let restored = try JSONDecoder().decode(HKQueryAnchor.self, from: data)
/// ```
public final class HKQueryAnchor: Hashable, Codable, Sendable {
    let position: AnchorPosition

    init(_ position: AnchorPosition) {
        self.position = position
    }

    /// An anchor from the integer anchors of HealthKit's first API: everything saved or deleted after that value.
    public convenience init(fromValue value: Int) {
        self.init(AnchorPosition(sample: Int64(value), deleted: Int64(value)))
    }

    public static func == (lhs: HKQueryAnchor, rhs: HKQueryAnchor) -> Bool { lhs.position == rhs.position }
    public func hash(into hasher: inout Hasher) { hasher.combine(position) }

    public convenience init(from decoder: any Decoder) throws {
        self.init(try AnchorPosition(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws { try position.encode(to: encoder) }
}
