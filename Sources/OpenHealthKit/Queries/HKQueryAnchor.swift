public import Foundation
package import HealthStore

/// Where an anchored query left off: pass it to the next query to get only what changed since. It is opaque, as
/// HealthKit's is: sealed by the store for the app it was given to, so it tells nothing of what other apps saved or
/// deleted meanwhile, and another app or store cannot use it. It is serializable — `NSSecureCoding`, so an app keeps
/// it the way HealthKit apps do, and also `Codable` — and stable: the same position gives an equal anchor.
///
/// ```swift
/// let data = try NSKeyedArchiver.archivedData(withRootObject: anchor, requiringSecureCoding: true)
/// let restored = try NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: data)
/// ```
open class HKQueryAnchor: NSObject, NSSecureCoding, NSCopying, Codable, @unchecked Sendable {
    /// What the anchor holds.
    enum Form: Hashable {
        /// An integer anchor of HealthKit's deprecated anchored query (`HKAnchoredObjectQueryNoAnchor`, 0, to start).
        case value(Int)
        /// A position sealed by the store (`AnchorSeal`).
        case sealed(Data)
    }

    let form: Form

    init(_ form: Form) {
        self.form = form
    }

    /// An anchor from the integer anchors of HealthKit's first API: everything saved after that value. (Those anchors
    /// carry no deletions: an anchored query from one reports every deletion the app may see, once.)
    public convenience init(fromValue value: Int) {
        self.init(.value(value))
    }

    /// The anchor the daemon sealed for the app, from its bytes on the wire.
    package static func sealed(_ data: Data) -> HKQueryAnchor { HKQueryAnchor(.sealed(data)) }

    /// The sealed bytes (what travels to and from the daemon), or the integer of HealthKit's first API.
    package var wireForm: (sealed: Data?, value: Int?) {
        switch form {
        case .value(let value): (nil, value)
        case .sealed(let data): (data, nil)
        }
    }

    /// The store position this anchor stands for, when `seal` is the querying app's.
    package func position(opening seal: AnchorSeal) throws -> AnchorPosition {
        switch form {
        case .value(let value): AnchorPosition(sample: seal.sample(fromValue: value), deleted: 0)
        case .sealed(let data): try seal.open(data)
        }
    }

    open override func isEqual(_ object: Any?) -> Bool {
        (object as? HKQueryAnchor)?.form == form
    }

    open override var hash: Int { form.hashValue }

    open override var description: String {
        switch form {
        case .value(let value): "HKQueryAnchor(\(value))"
        case .sealed(let data): "HKQueryAnchor(\(data.base64EncodedString()))"
        }
    }

    // MARK: NSSecureCoding, NSCopying

    public static var supportsSecureCoding: Bool { true }

    open func encode(with coder: NSCoder) {
        switch form {
        case .value(let value): coder.encode(Int64(value), forKey: CodingKeys.value.rawValue)
        case .sealed(let data): coder.encode(data as NSData, forKey: CodingKeys.sealed.rawValue)
        }
    }

    public required init?(coder: NSCoder) {
        if coder.containsValue(forKey: CodingKeys.sealed.rawValue) {
            guard let data = coder.decodeObject(of: NSData.self, forKey: CodingKeys.sealed.rawValue) else { return nil }
            form = .sealed(data as Data)
        } else if coder.containsValue(forKey: CodingKeys.value.rawValue) {
            form = .value(Int(coder.decodeInt64(forKey: CodingKeys.value.rawValue)))
        } else {
            return nil
        }
    }

    /// Anchors are immutable: a copy is the anchor itself.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    // MARK: Codable

    enum CodingKeys: String, CodingKey { case value, sealed }

    public required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.sealed) {
            form = .sealed(try container.decode(Data.self, forKey: .sealed))
        } else {
            form = .value(try container.decode(Int.self, forKey: .value))
        }
    }

    open func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch form {
        case .value(let value): try container.encode(value, forKey: .value)
        case .sealed(let data): try container.encode(data, forKey: .sealed)
        }
    }
}
