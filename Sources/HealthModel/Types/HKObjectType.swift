public import Foundation

/// The abstract type of every kind of data the store holds: quantity, category, characteristic,
/// correlation, workout, clinical and document types, and the series and special sample types.
///
/// Types compare and hash by ``identifier``, so they work as `Set` members and dictionary keys:
///
/// ```swift
/// let read: Set<HKObjectType> = [
///     HKQuantityType(.heartRate),
///     HKObjectType.workoutType(),
///     HKObjectType.characteristicType(forIdentifier: .dateOfBirth)!,
/// ]
/// ```
///
/// `NSSecureCoding`, as HealthKit's: a type archives its identifier, and decoding looks it up again, so an unknown
/// identifier, or one of another kind than the archived class (a category identifier in an `HKQuantityType`), fails
/// the decode (`unarchivedObject(ofClass:from:)` throws). `HKObjectType` and `HKSampleType` themselves are abstract
/// and never decode. `NSCopying` gives the type itself: types are immutable.
public class HKObjectType: NSObject, NSSecureCoding, NSCopying, @unchecked Sendable {
    // @unchecked: every subclass holds only immutable `let` properties of Sendable values.

    /// The type's identifier, Apple's raw string (e.g. `HKQuantityTypeIdentifierStepCount`).
    public let identifier: String

    package init(identifier: String) {
        self.identifier = identifier
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let rhs = object as? HKObjectType else { return false }
        let lhs = self
        return lhs.identifier == rhs.identifier
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(identifier)
        return hasher.finalize()
    }

    public override var description: String { identifier }

    /// Whether reading this type is authorized object by object (vision prescriptions), not per type.
    public func requiresPerObjectAuthorization() -> Bool { false }

    // MARK: NSSecureCoding, NSCopying

    private static let identifierKey = "identifier"

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        coder.encode(identifier, forKey: HKObjectType.identifierKey)
    }

    /// Decodes a type of the class being decoded; the catalog must know the identifier as one of that class.
    public required convenience init?(coder: NSCoder) {
        let decodedClass = Self.self
        guard let identifier = coder.decodeValid("\(decodedClass)", { try HKObjectType.decodeIdentifier(from: coder, of: decodedClass) }) else {
            return nil
        }
        self.init(identifier: identifier)
    }

    /// The archived identifier, which the catalog must know as a type of exactly `typeClass`.
    package static func decodeIdentifier(from coder: NSCoder, of typeClass: HKObjectType.Type) throws -> String {
        let identifier = try coder.decode(String.self, forKey: identifierKey)
        guard let known = HKObjectType.type(forIdentifier: identifier) else {
            throw ArchiveError.invalid("\"\(identifier)\" is not a type identifier OpenHealthKit knows")
        }
        let knownClass = Swift.type(of: known)
        guard knownClass == typeClass else {
            throw ArchiveError.invalid("\"\(identifier)\" identifies an \(knownClass), not an \(typeClass)")
        }
        return identifier
    }

    /// Types are immutable: a copy is the type itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    // MARK: - Apple's factories

    /// The quantity type for an identifier, or `nil` when the identifier is not in the catalog.
    public class func quantityType(forIdentifier identifier: HKQuantityTypeIdentifier) -> HKQuantityType? {
        HealthCatalog.quantityType(identifier.rawValue).map { HKQuantityType(info: $0) }
    }

    /// The category type for an identifier, or `nil` when the identifier is not in the catalog.
    public class func categoryType(forIdentifier identifier: HKCategoryTypeIdentifier) -> HKCategoryType? {
        HealthCatalog.categoryType(identifier.rawValue).map { HKCategoryType(info: $0) }
    }

    /// The characteristic type for an identifier, or `nil` when the identifier is not in the catalog.
    public class func characteristicType(forIdentifier identifier: HKCharacteristicTypeIdentifier) -> HKCharacteristicType? {
        otherType(identifier.rawValue, kind: "characteristic").map { HKCharacteristicType(identifier: $0.identifier) }
    }

    /// The correlation type for an identifier, or `nil` when the identifier is not in the catalog.
    public class func correlationType(forIdentifier identifier: HKCorrelationTypeIdentifier) -> HKCorrelationType? {
        otherType(identifier.rawValue, kind: "correlation").map { HKCorrelationType(identifier: $0.identifier) }
    }

    /// The document type for an identifier, or `nil` when the identifier is not in the catalog.
    public class func documentType(forIdentifier identifier: HKDocumentTypeIdentifier) -> HKDocumentType? {
        otherType(identifier.rawValue, kind: "document").map { HKDocumentType(identifier: $0.identifier) }
    }

    /// The clinical type for an identifier, or `nil` when the identifier is not in the catalog.
    public class func clinicalType(forIdentifier identifier: HKClinicalTypeIdentifier) -> HKClinicalType? {
        otherType(identifier.rawValue, kind: "clinical").map { HKClinicalType(identifier: $0.identifier) }
    }

    /// The series type for an identifier (`HKWorkoutRouteTypeIdentifier`, `HKDataTypeIdentifierHeartbeatSeries`).
    public class func seriesType(forIdentifier identifier: String) -> HKSeriesType? {
        switch identifier {
        case HKWorkoutRouteTypeIdentifier: HKSeriesType.workoutRoute()
        case HKDataTypeIdentifierHeartbeatSeries: HKSeriesType.heartbeat()
        default: nil
        }
    }

    /// The workout type.
    public class func workoutType() -> HKWorkoutType { HKWorkoutType(identifier: HKWorkoutTypeIdentifier) }

    /// The activity summary type (daily rings).
    public class func activitySummaryType() -> HKActivitySummaryType {
        HKActivitySummaryType(identifier: HKActivitySummaryType.typeIdentifier)
    }

    /// The audiogram sample type.
    public class func audiogramSampleType() -> HKAudiogramSampleType {
        HKAudiogramSampleType(identifier: HKAudiogramSampleType.typeIdentifier)
    }

    /// The electrocardiogram type.
    public class func electrocardiogramType() -> HKElectrocardiogramType {
        HKElectrocardiogramType(identifier: HKElectrocardiogramType.typeIdentifier)
    }

    /// The vision prescription type (read per object).
    public class func visionPrescriptionType() -> HKPrescriptionType {
        HKPrescriptionType(identifier: HKVisionPrescriptionTypeIdentifier)
    }

    /// The state of mind type.
    public class func stateOfMindType() -> HKStateOfMindType {
        HKStateOfMindType(identifier: HKDataTypeIdentifierStateOfMind)
    }

    /// The medication dose event type (read only, for the medications the person shared).
    public class func medicationDoseEventType() -> HKMedicationDoseEventType {
        HKMedicationDoseEventType(identifier: HKMedicationDoseEventTypeIdentifierMedicationDoseEvent)
    }

    /// The type of the medications the person tracks (read per object).
    public class func userAnnotatedMedicationType() -> HKUserAnnotatedMedicationType {
        HKUserAnnotatedMedicationType(identifier: HKDataTypeIdentifierUserAnnotatedMedicationConcept)
    }

    private static func otherType(_ identifier: String, kind: String) -> OtherTypeInfo? {
        guard let info = HealthCatalog.otherType(identifier), info.kind == kind else { return nil }
        return info
    }
}

extension HKObjectType {
    /// The type with this raw identifier string, of whatever kind, or `nil` when it is unknown.
    ///
    /// This is OpenHealthKit's own addition for code that reads identifiers from files or the network,
    /// such as an Apple Health export's `type="HKQuantityTypeIdentifierStepCount"`:
    ///
    /// ```swift
    /// let type = HKObjectType.type(forIdentifier: "HKQuantityTypeIdentifierHeartRate") // HKQuantityType
    /// ```
    public static func type(forIdentifier identifier: String) -> HKObjectType? {
        if let info = HealthCatalog.quantityType(identifier) { return HKQuantityType(info: info) }
        if let info = HealthCatalog.categoryType(identifier) { return HKCategoryType(info: info) }
        if let info = HealthCatalog.otherType(identifier) {
            switch info.kind {
            case "characteristic": return HKCharacteristicType(identifier: identifier)
            case "correlation": return HKCorrelationType(identifier: identifier)
            case "document": return HKDocumentType(identifier: identifier)
            case "clinical": return HKClinicalType(identifier: identifier)
            case "scored-assessment": return HKScoredAssessmentType(identifier: identifier)
            default: break
            }
        }
        switch identifier {
        case HKWorkoutTypeIdentifier: return workoutType()
        case HKWorkoutRouteTypeIdentifier, HKDataTypeIdentifierHeartbeatSeries: return seriesType(forIdentifier: identifier)
        case HKVisionPrescriptionTypeIdentifier: return visionPrescriptionType()
        case HKDataTypeIdentifierStateOfMind: return stateOfMindType()
        case HKMedicationDoseEventTypeIdentifierMedicationDoseEvent: return medicationDoseEventType()
        case HKDataTypeIdentifierUserAnnotatedMedicationConcept: return userAnnotatedMedicationType()
        case HKActivitySummaryType.typeIdentifier: return activitySummaryType()
        case HKAudiogramSampleType.typeIdentifier: return audiogramSampleType()
        case HKElectrocardiogramType.typeIdentifier: return electrocardiogramType()
        default: return nil
        }
    }
}
