public import Foundation

/// Where a verifiable record comes from.
public struct HKVerifiableClinicalRecordSourceType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let smartHealthCard = Self(rawValue: "SMARTHealthCard")
    public static let euDigitalCOVIDCertificate = Self(rawValue: "EUDigitalCOVIDCertificate")
}

/// What a verifiable record attests: the SMART Health Card `vc.type` URIs.
public struct HKVerifiableClinicalRecordCredentialType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let covid19 = Self(rawValue: "https://smarthealth.cards#covid19")
    public static let immunization = Self(rawValue: "https://smarthealth.cards#immunization")
    public static let laboratory = Self(rawValue: "https://smarthealth.cards#laboratory")
    public static let recovery = Self(rawValue: "https://smarthealth.cards#recovery")
}

/// Whom a verifiable record is about, as the card states it. `NSSecureCoding` (the name and the date of birth's
/// year, month and day) and `NSCopying` (the subject itself).
public final class HKVerifiableClinicalRecordSubject: NSObject, NSSecureCoding, NSCopying, Sendable {
    public let fullName: String
    /// Year, month and day as far as the card gives them.
    public let dateOfBirthComponents: DateComponents?

    package init(fullName: String, dateOfBirthComponents: DateComponents?) {
        self.fullName = fullName
        self.dateOfBirthComponents = dateOfBirthComponents
    }

    // MARK: NSSecureCoding, NSCopying

    private enum Key {
        static let fullName = "fullName"
        static let hasDateOfBirth = "hasDateOfBirth"
        static let year = "dateOfBirthYear"
        static let month = "dateOfBirthMonth"
        static let day = "dateOfBirthDay"
    }

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        coder.encode(fullName, forKey: Key.fullName)
        guard let birth = dateOfBirthComponents else { return }
        coder.encode(true, forKey: Key.hasDateOfBirth)
        for (key, value) in [(Key.year, birth.year), (Key.month, birth.month), (Key.day, birth.day)] {
            if let value { coder.encode(value, forKey: key) }
        }
    }

    public required convenience init?(coder: NSCoder) {
        guard case let (name, birth)? = coder.decodeValid("HKVerifiableClinicalRecordSubject", {
            let name = try coder.decode(String.self, forKey: Key.fullName)
            guard coder.decodeBool(forKey: Key.hasDateOfBirth) else { return (name, DateComponents?.none) }
            func part(_ key: String) -> Int? { coder.containsValue(forKey: key) ? coder.decodeInteger(forKey: key) : nil }
            return (name, DateComponents(year: part(Key.year), month: part(Key.month), day: part(Key.day)))
        }) else { return nil }
        self.init(fullName: name, dateOfBirthComponents: birth)
    }

    /// Subjects are immutable: a copy is the subject itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let rhs = object as? HKVerifiableClinicalRecordSubject else { return false }
        let lhs = self
        return lhs.fullName == rhs.fullName && lhs.dateOfBirthComponents == rhs.dateOfBirthComponents
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(fullName)
        return hasher.finalize()
    }
}

/// A signed record the person holds — a SMART Health Card of immunizations or lab results — shared with an app one
/// query at a time, with the person choosing which. The app gets the signed data to verify itself
/// (`dataRepresentation`, the compact JWS) and the fields read from it.
///
/// `NSSecureCoding`, as HealthKit's: every field read from the card comes back with the signed data.
public final class HKVerifiableClinicalRecord: HKSample, @unchecked Sendable {
    /// The card's `vc.type` URIs (`https://smarthealth.cards#health-card`, `…#immunization`, `…#covid19`…).
    public let recordTypes: [String]
    /// The issuer (`iss`).
    public let issuerIdentifier: String
    public let subject: HKVerifiableClinicalRecordSubject
    /// When the issuer signed it (`nbf`).
    public let issuedDate: Date
    /// The date that matters most: the last immunization or lab result in it (the issue date when none is dated).
    public let relevantDate: Date
    /// `exp`, when the card has one.
    public let expirationDate: Date?
    /// What it holds, by name: vaccines, tests.
    public let itemNames: [String]
    public let sourceType: HKVerifiableClinicalRecordSourceType?
    /// The signed record: a SMART Health Card's compact JWS.
    public let dataRepresentation: Data

    /// The compact JWS (same as ``dataRepresentation`` for SMART Health Cards).
    @available(*, deprecated, renamed: "dataRepresentation")
    public var jwsRepresentation: Data { dataRepresentation }

    /// The sample type of verifiable records (HealthKit has no public constant for it).
    package static let sampleTypeIdentifier = "HKVerifiableClinicalRecordTypeIdentifier"

    package init(recordTypes: [String], issuerIdentifier: String, subject: HKVerifiableClinicalRecordSubject, issuedDate: Date,
                 relevantDate: Date, expirationDate: Date?, itemNames: [String], sourceType: HKVerifiableClinicalRecordSourceType?,
                 dataRepresentation: Data, imported: Date, uuid: UUID = UUID(), sourceRevision: HKSourceRevision = HKObject.unsavedRevision) {
        self.recordTypes = recordTypes
        self.issuerIdentifier = issuerIdentifier
        self.subject = subject
        self.issuedDate = issuedDate
        self.relevantDate = relevantDate
        self.expirationDate = expirationDate
        self.itemNames = itemNames
        self.sourceType = sourceType
        self.dataRepresentation = dataRepresentation
        super.init(sampleType: HKSampleType(identifier: Self.sampleTypeIdentifier), start: imported, end: imported, uuid: uuid,
                   metadata: nil, sourceRevision: sourceRevision, device: nil)
    }

    // MARK: NSSecureCoding

    private enum Key {
        static let recordTypes = "recordTypes"
        static let issuerIdentifier = "issuerIdentifier"
        static let subject = "subject"
        static let issuedDate = "issuedDate"
        static let relevantDate = "relevantDate"
        static let expirationDate = "expirationDate"
        static let itemNames = "itemNames"
        static let sourceType = "sourceType"
        static let dataRepresentation = "dataRepresentation"
    }

    /// The fields a record archives beyond its sample's.
    private struct Fields {
        var recordTypes: [String], issuer: String, subject: HKVerifiableClinicalRecordSubject, issued: Date, relevant: Date
        var expiration: Date?, itemNames: [String], sourceType: HKVerifiableClinicalRecordSourceType?, data: Data
    }

    public override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(recordTypes, forKey: Key.recordTypes)
        coder.encode(issuerIdentifier, forKey: Key.issuerIdentifier)
        coder.encode(subject, forKey: Key.subject)
        coder.encodeDate(issuedDate, forKey: Key.issuedDate)
        coder.encodeDate(relevantDate, forKey: Key.relevantDate)
        if let expirationDate { coder.encodeDate(expirationDate, forKey: Key.expirationDate) }
        coder.encode(itemNames, forKey: Key.itemNames)
        coder.encodeIfPresent(sourceType?.rawValue, forKey: Key.sourceType)
        coder.encode(dataRepresentation, forKey: Key.dataRepresentation)
    }

    /// Decodes a record; its sample type is always the verifiable records' (the archived one is not read back).
    public required convenience init?(coder: NSCoder) {
        guard case let (sample, f)? = coder.decodeValid("HKVerifiableClinicalRecord", {
            let sample = try CodedSampleFields(coder: coder)
            guard sample.start == sample.end else { throw ArchiveError.invalid("a verifiable record's start and end are both when it was imported") }
            return (sample, Fields(
                recordTypes: try coder.decode([String].self, forKey: Key.recordTypes),
                issuer: try coder.decode(String.self, forKey: Key.issuerIdentifier),
                subject: try coder.decode(HKVerifiableClinicalRecordSubject.self, forKey: Key.subject),
                issued: try coder.decodeDate(forKey: Key.issuedDate), relevant: try coder.decodeDate(forKey: Key.relevantDate),
                expiration: try coder.decodeDateIfPresent(forKey: Key.expirationDate),
                itemNames: try coder.decode([String].self, forKey: Key.itemNames),
                sourceType: try coder.decodeIfPresent(String.self, forKey: Key.sourceType).map(HKVerifiableClinicalRecordSourceType.init),
                data: try coder.decode(Data.self, forKey: Key.dataRepresentation)))
        }) else { return nil }
        self.init(recordTypes: f.recordTypes, issuerIdentifier: f.issuer, subject: f.subject, issuedDate: f.issued, relevantDate: f.relevant,
                  expirationDate: f.expiration, itemNames: f.itemNames, sourceType: f.sourceType, dataRepresentation: f.data,
                  imported: sample.start, uuid: sample.object.uuid, sourceRevision: sample.object.sourceRevision)
    }
}
