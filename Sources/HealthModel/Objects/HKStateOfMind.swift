public import Foundation

/// How the person felt — a moment's emotion or a day's mood — as HealthKit's State of Mind (iOS 18): a valence from
/// −1 (very unpleasant) to +1 (very pleasant), the words that describe the feeling and the parts of life it is
/// associated with. Apps save them with share permission for `HKObjectType.stateOfMindType()` and read them with read
/// permission, like any sample; find them with `HKQuery.predicateForStatesOfMind(…)`.
///
/// ```swift
/// let mood = HKStateOfMind(date: .now, kind: .dailyMood, valence: 0.6,
///                          labels: [.happy, .grateful], associations: [.family])
/// mood.valenceClassification   // .pleasant
/// ```
///
/// `NSSecureCoding`, as HealthKit's: kind, valence, labels, associations, dates and object fields.
public final class HKStateOfMind: HKSample, @unchecked Sendable {
    /// Momentary emotion or daily mood.
    public let kind: Kind
    /// How positive or negative the feeling was, from −1 to +1.
    public let valence: Double
    /// The words chosen for the feeling, in the order given.
    public let labels: [Label]
    /// The parts of life the feeling is associated with, in the order given.
    public let associations: [Association]

    /// The region of pleasantness the valence falls in.
    public var valenceClassification: ValenceClassification {
        // The valence was checked to lie in −1…+1 when the sample was made.
        ValenceClassification(valence: valence) ?? (valence < 0 ? .veryUnpleasant : .veryPleasant)
    }

    package init(
        date: Date, kind: Kind, valence: Double, labels: [Label], associations: [Association],
        uuid: UUID = UUID(), metadata: [String: HKMetadataValue]?,
        sourceRevision: HKSourceRevision = HKObject.unsavedRevision, device: HKDevice?
    ) {
        self.kind = kind
        self.valence = valence
        self.labels = labels
        self.associations = associations
        super.init(sampleType: HKObjectType.stateOfMindType(), start: date, end: date, uuid: uuid, metadata: metadata,
                   sourceRevision: sourceRevision, device: device)
    }

    /// Creates a state of mind at a moment. A valence outside −1…+1 (or not a number) or metadata HealthKit does not
    /// allow stops the program, as HealthKit raises; ``validated(date:kind:valence:labels:associations:metadata:)`` throws
    /// instead.
    public convenience init(date: Date, kind: Kind, valence: Double, labels: [Label], associations: [Association],
                            metadata: [String: Any]? = nil) {
        let checked = trapOnInvalidArgument { try HKStateOfMind.check(valence: valence, metadata: metadata) }
        self.init(date: date, kind: kind, valence: valence, labels: labels, associations: associations, metadata: checked, device: nil)
    }

    /// Creates a state of mind, or throws `HKError(.errorInvalidArgument)` naming the problem: a valence outside
    /// −1…+1, or metadata HealthKit does not allow.
    public static func validated(date: Date, kind: Kind, valence: Double, labels: [Label], associations: [Association],
                                 metadata: [String: Any]? = nil) throws -> HKStateOfMind {
        let checked = try check(valence: valence, metadata: metadata)
        return HKStateOfMind(date: date, kind: kind, valence: valence, labels: labels, associations: associations,
                             metadata: checked, device: nil)
    }

    /// Throws unless `valence` is a number from −1 to +1.
    package static func checkValence(_ valence: Double) throws {
        guard valence.isFinite, (-1.0 ... 1.0).contains(valence) else {
            throw HKError.invalidArgument("a state of mind's valence must be from -1 to 1, not \(valence)")
        }
    }

    private static func check(valence: Double, metadata: [String: Any]?) throws -> [String: HKMetadataValue]? {
        try checkValence(valence)
        return try MetadataValidation.validate(metadata)
    }

    // MARK: NSSecureCoding

    private enum Key {
        static let kind = "kind", valence = "valence", labels = "labels", associations = "associations"
    }

    public override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encodeEnum(kind, forKey: Key.kind)
        coder.encode(valence, forKey: Key.valence)
        coder.encode(HKStateOfMind.rawList(labels), forKey: Key.labels)
        coder.encode(HKStateOfMind.rawList(associations), forKey: Key.associations)
    }

    public required convenience init?(coder: NSCoder) {
        guard case let (sample, kind, valence, labels, associations)? = coder.decodeValid("HKStateOfMind", {
            (try CodedSampleFields(coder: coder), try coder.decodeEnum(Kind.self, forKey: Key.kind),
             try coder.decodeFiniteDouble(forKey: Key.valence),
             try HKStateOfMind.parseRawList(try coder.decode(String.self, forKey: Key.labels), as: Label.self),
             try HKStateOfMind.parseRawList(try coder.decode(String.self, forKey: Key.associations), as: Association.self))
        }) else { return nil }
        guard (try? HKStateOfMind.checkValence(valence)) != nil, sample.start == sample.end else {
            coder.reportFailure(.invalid("a state of mind with valence \(valence) over \(sample.start)–\(sample.end)"), decoding: "HKStateOfMind")
            return nil
        }
        self.init(date: sample.start, kind: kind, valence: valence, labels: labels, associations: associations, uuid: sample.object.uuid,
                  metadata: sample.object.metadata, sourceRevision: sample.object.sourceRevision, device: sample.object.device)
    }

    /// Raw values as the store and the archive keep them: `"17,15"`.
    package static func rawList<E: RawRepresentable>(_ values: [E]) -> String where E.RawValue == Int {
        values.map { String($0.rawValue) }.joined(separator: ",")
    }

    /// The values of a raw list (`"17,15"`); throws on a number that is not one of `E`'s.
    package static func parseRawList<E: RawRepresentable>(_ text: String, as type: E.Type) throws -> [E] where E.RawValue == Int {
        guard !text.isEmpty else { return [] }
        return try text.split(separator: ",").map { piece in
            guard let raw = Int(piece), let value = E(rawValue: raw) else {
                throw ArchiveError.invalid("\(piece) is not an HKStateOfMind.\(E.self)")
            }
            return value
        }
    }
}

extension HKStateOfMind.ValenceClassification {
    /// The classification of a valence, or nil outside −1…+1 — Swift's form of HealthKit's
    /// `HKStateOfMindValenceClassificationForValence`. Apple documents no boundaries; these are seven equal bands of
    /// 2/7 across the scale, as the Health app's slider draws them (a valence on a boundary goes to the band above,
    /// and +1 is very pleasant).
    public init?(valence: Double) {
        guard valence.isFinite, (-1.0 ... 1.0).contains(valence) else { return nil }
        let band = min(6, Int(((valence + 1) * 3.5).rounded(.down)))
        self.init(rawValue: band + 1)
    }
}
