// The types without members of their own, reached through HKObjectType's class functions.
// Their raw identifiers are not in the reference tables (HealthKit has no public constant for them);
// the strings below are the ones HealthKit uses in exports and logs.

/// The workout type, reached through ``HKObjectType/workoutType()``.
public final class HKWorkoutType: HKSampleType, @unchecked Sendable {}

/// The activity summary (daily rings) type, reached through ``HKObjectType/activitySummaryType()``.
public final class HKActivitySummaryType: HKObjectType, @unchecked Sendable {
    package static let typeIdentifier = "HKActivitySummaryTypeIdentifier"
}

/// The audiogram type, reached through ``HKObjectType/audiogramSampleType()``.
public final class HKAudiogramSampleType: HKSampleType, @unchecked Sendable {
    package static let typeIdentifier = "HKDataTypeIdentifierAudiogram"
}

/// The electrocardiogram type, reached through ``HKObjectType/electrocardiogramType()``.
public final class HKElectrocardiogramType: HKSampleType, @unchecked Sendable {
    package static let typeIdentifier = "HKDataTypeIdentifierElectrocardiogram"
}

/// The vision prescription type, reached through ``HKObjectType/visionPrescriptionType()``.
/// Reading it is authorized object by object.
public final class HKPrescriptionType: HKSampleType, @unchecked Sendable {
    public override func requiresPerObjectAuthorization() -> Bool { true }
}

/// The state of mind type, reached through ``HKObjectType/stateOfMindType()``.
public final class HKStateOfMindType: HKSampleType, @unchecked Sendable {}

/// The medication dose event type, reached through ``HKObjectType/medicationDoseEventType()``. Apps read dose events only
/// for the medications the person shared with them, and never save them.
public final class HKMedicationDoseEventType: HKSampleType, @unchecked Sendable {}

/// The type of the medications the person tracks, reached through ``HKObjectType/userAnnotatedMedicationType()``.
/// Reading it is authorized object by object; it is not a sample type.
public final class HKUserAnnotatedMedicationType: HKObjectType, @unchecked Sendable {
    public override func requiresPerObjectAuthorization() -> Bool { true }
}
