public import Foundation

/// A medication as a concept — ibuprofen 200 mg tablets, insulin glargine — with its identifier, the name the person
/// chose or picked, its form and its codes in clinical terminologies (HealthKit's `HKMedicationConcept`). Apps never make
/// one: they come with the medications the person shares.
///
/// `NSSecureCoding` and `NSCopying`, as HealthKit's; two concepts are equal when all their fields are.
public final class HKMedicationConcept: NSObject, NSSecureCoding, NSCopying, @unchecked Sendable {
    // @unchecked: immutable.
    public static var supportsSecureCoding: Bool { true }

    /// The concept's stable identifier: equal identifiers, same medication.
    public let identifier: HKHealthConceptIdentifier
    /// The medication's name as the person entered or picked it.
    public let displayText: String
    /// The form it is made in.
    public let generalForm: HKMedicationGeneralForm
    /// Its codes in clinical terminologies, such as RxNorm.
    public let relatedCodings: Set<HKClinicalCoding>

    package init(identifier: HKHealthConceptIdentifier, displayText: String, generalForm: HKMedicationGeneralForm,
                 relatedCodings: Set<HKClinicalCoding>) {
        self.identifier = identifier
        self.displayText = displayText
        self.generalForm = generalForm
        self.relatedCodings = relatedCodings
        super.init()
    }

    /// A concept the person describes, checked: a name, an identifier, and codings with their system and code.
    package static func validated(identifier: String, displayText: String, generalForm: HKMedicationGeneralForm,
                                  relatedCodings: Set<HKClinicalCoding>) throws -> HKMedicationConcept {
        guard !identifier.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw HKError.invalidArgument("a medication needs an identifier")
        }
        guard !displayText.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw HKError.invalidArgument("a medication needs a name (its display text)")
        }
        guard HKMedicationGeneralForm.all.contains(where: { $0.form == generalForm }) else {
            throw HKError.invalidArgument("\(generalForm.rawValue) is not a medication form HealthKit knows")
        }
        for coding in relatedCodings { try coding.check() }
        return HKMedicationConcept(identifier: .medication(identifier), displayText: displayText, generalForm: generalForm,
                                   relatedCodings: relatedCodings)
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKMedicationConcept else { return false }
        return other.identifier == identifier && other.displayText == displayText && other.generalForm == generalForm
            && other.relatedCodings == relatedCodings
    }

    public override var hash: Int { identifier.hash }

    // MARK: NSSecureCoding

    public func encode(with coder: NSCoder) {
        coder.encode(identifier, forKey: "Identifier")
        coder.encode(displayText, forKey: "DisplayText")
        coder.encode(generalForm.rawValue, forKey: "GeneralForm")
        coder.encode(relatedCodings.sorted { $0.description < $1.description } as NSArray, forKey: "RelatedCodings")
    }

    public required convenience init?(coder: NSCoder) {
        guard case let (identifier, displayText, form, codings)? = coder.decodeValid("HKMedicationConcept", {
            (try coder.decode(HKHealthConceptIdentifier.self, forKey: "Identifier"), try coder.decode(String.self, forKey: "DisplayText"),
             try coder.decode(String.self, forKey: "GeneralForm"), try coder.decode([HKClinicalCoding].self, forKey: "RelatedCodings"))
        }) else { return nil }
        self.init(identifier: identifier, displayText: displayText, generalForm: HKMedicationGeneralForm(rawValue: form),
                  relatedCodings: Set(codings))
    }
}
