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

/// Whom a verifiable record is about, as the card states it.
public final class HKVerifiableClinicalRecordSubject: NSObject, Sendable {
    public let fullName: String
    /// Year, month and day as far as the card gives them.
    public let dateOfBirthComponents: DateComponents?

    package init(fullName: String, dateOfBirthComponents: DateComponents?) {
        self.fullName = fullName
        self.dateOfBirthComponents = dateOfBirthComponents
    }

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
}
