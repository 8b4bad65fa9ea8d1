/// The form a medication is made in (HealthKit's `HKMedicationGeneralForm`, a typed string).
///
/// The reference tables give no raw strings for these constants; the ones here are HealthKit's constant names, as a
/// bridge running on a device printed them (see `Reference/healthkit/README.md`). Code compares with the constants, never
/// with the strings.
public struct HKMedicationGeneralForm: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    /// A capsule: a hard-shell capsule or a softgel.
    public static let capsule = Self(rawValue: "HKMedicationGeneralFormCapsule")
    /// A cream.
    public static let cream = Self(rawValue: "HKMedicationGeneralFormCream")
    /// Given through a device, such as an infusion pump.
    public static let device = Self(rawValue: "HKMedicationGeneralFormDevice")
    /// Drops: eye drops, ear drops.
    public static let drops = Self(rawValue: "HKMedicationGeneralFormDrops")
    /// A foam.
    public static let foam = Self(rawValue: "HKMedicationGeneralFormFoam")
    /// A gel.
    public static let gel = Self(rawValue: "HKMedicationGeneralFormGel")
    /// Through an inhaler.
    public static let inhaler = Self(rawValue: "HKMedicationGeneralFormInhaler")
    /// An injection.
    public static let injection = Self(rawValue: "HKMedicationGeneralFormInjection")
    /// A liquid, such as a syrup.
    public static let liquid = Self(rawValue: "HKMedicationGeneralFormLiquid")
    /// A lotion.
    public static let lotion = Self(rawValue: "HKMedicationGeneralFormLotion")
    /// An ointment.
    public static let ointment = Self(rawValue: "HKMedicationGeneralFormOintment")
    /// A patch worn on the skin.
    public static let patch = Self(rawValue: "HKMedicationGeneralFormPatch")
    /// A powder.
    public static let powder = Self(rawValue: "HKMedicationGeneralFormPowder")
    /// A spray: nasal, throat.
    public static let spray = Self(rawValue: "HKMedicationGeneralFormSpray")
    /// A suppository.
    public static let suppository = Self(rawValue: "HKMedicationGeneralFormSuppository")
    /// A tablet: a pill, a caplet.
    public static let tablet = Self(rawValue: "HKMedicationGeneralFormTablet")
    /// Applied to the skin in a form not given.
    public static let topical = Self(rawValue: "HKMedicationGeneralFormTopical")
    /// Not known.
    public static let unknown = Self(rawValue: "HKMedicationGeneralFormUnknown")

    /// Every form, in HealthKit's order, with the short name people and the `health` command use (`tablet`).
    package static let all: [(name: String, form: HKMedicationGeneralForm)] = [
        ("capsule", .capsule), ("cream", .cream), ("device", .device), ("drops", .drops), ("foam", .foam), ("gel", .gel),
        ("inhaler", .inhaler), ("injection", .injection), ("liquid", .liquid), ("lotion", .lotion), ("ointment", .ointment),
        ("patch", .patch), ("powder", .powder), ("spray", .spray), ("suppository", .suppository), ("tablet", .tablet),
        ("topical", .topical), ("unknown", .unknown),
    ]

    /// The form of a short name (`tablet`) or raw string, or nil.
    package static func named(_ name: String) -> HKMedicationGeneralForm? {
        all.first { $0.name == name.lowercased() || $0.form.rawValue == name }?.form
    }

    /// The short name (`tablet`); the raw string for a form this version does not know.
    package var name: String { Self.all.first { $0.form == self }?.name ?? rawValue }
}
