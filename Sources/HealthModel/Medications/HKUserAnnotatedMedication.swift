public import Foundation

/// A medication the person tracks, with what they set for it: a nickname, whether it is archived, whether it has a
/// schedule (HealthKit's `HKUserAnnotatedMedication`). Apps read the ones the person shares with them — object by object,
/// through `requestPerObjectReadAuthorization(for: HKObjectType.userAnnotatedMedicationType(), predicate:)` — with
/// `HKUserAnnotatedMedicationQuery`; they never write them. The person adds them (`health medications add`, the web
/// Health app).
///
/// `NSSecureCoding` and `NSCopying`, as HealthKit's.
public final class HKUserAnnotatedMedication: NSObject, NSSecureCoding, NSCopying, @unchecked Sendable {
    // @unchecked: immutable.
    public static var supportsSecureCoding: Bool { true }

    /// The person's nickname for it, if any.
    public let nickname: String?
    /// Whether the person moved it to the archived ones.
    public let isArchived: Bool
    /// Whether it has a reminder schedule (scheduled medications may still be taken as needed).
    public let hasSchedule: Bool
    /// The medication; its identifier is the one its dose events carry.
    public let medication: HKMedicationConcept

    package init(nickname: String?, isArchived: Bool, hasSchedule: Bool, medication: HKMedicationConcept) {
        self.nickname = nickname
        self.isArchived = isArchived
        self.hasSchedule = hasSchedule
        self.medication = medication
        super.init()
    }

    /// The medication as people read it: "Ibuprofen (“Headache pills”), tablet".
    package var summary: String {
        var text = medication.displayText
        if let nickname, !nickname.isEmpty { text += " (“\(nickname)”)" }
        text += ", \(medication.generalForm.name)"
        if isArchived { text += ", archived" }
        return text
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKUserAnnotatedMedication else { return false }
        return other.nickname == nickname && other.isArchived == isArchived && other.hasSchedule == hasSchedule
            && other.medication == medication
    }

    public override var hash: Int { medication.hash }

    // MARK: NSSecureCoding

    public func encode(with coder: NSCoder) {
        coder.encodeIfPresent(nickname, forKey: "Nickname")
        coder.encode(isArchived, forKey: "IsArchived")
        coder.encode(hasSchedule, forKey: "HasSchedule")
        coder.encode(medication, forKey: "Medication")
    }

    public required convenience init?(coder: NSCoder) {
        guard case let (nickname, archived, scheduled, medication)? = coder.decodeValid("HKUserAnnotatedMedication", {
            (try coder.decodeIfPresent(String.self, forKey: "Nickname"), try coder.decodeRequiredBool(forKey: "IsArchived"),
             try coder.decodeRequiredBool(forKey: "HasSchedule"), try coder.decode(HKMedicationConcept.self, forKey: "Medication"))
        }) else { return nil }
        self.init(nickname: nickname, isArchived: archived, hasSchedule: scheduled, medication: medication)
    }
}
