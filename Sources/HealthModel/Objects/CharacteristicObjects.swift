// The objects HKHealthStore's characteristic readers return. HealthKit gives them no public
// initializer; OpenHealthKit adds one so a person's side (CLI, web app, scripted person) can build them.

/// The person's biological sex. `try store.biologicalSex().biologicalSex`
public final class HKBiologicalSexObject: Hashable, Sendable {
    public let biologicalSex: HKBiologicalSex
    public init(biologicalSex: HKBiologicalSex) { self.biologicalSex = biologicalSex }
    public static func == (l: HKBiologicalSexObject, r: HKBiologicalSexObject) -> Bool { l.biologicalSex == r.biologicalSex }
    public func hash(into hasher: inout Hasher) { hasher.combine(biologicalSex) }
}

/// The person's blood type. `try store.bloodType().bloodType`
public final class HKBloodTypeObject: Hashable, Sendable {
    public let bloodType: HKBloodType
    public init(bloodType: HKBloodType) { self.bloodType = bloodType }
    public static func == (l: HKBloodTypeObject, r: HKBloodTypeObject) -> Bool { l.bloodType == r.bloodType }
    public func hash(into hasher: inout Hasher) { hasher.combine(bloodType) }
}

/// The person's Fitzpatrick skin type. `try store.fitzpatrickSkinType().skinType`
public final class HKFitzpatrickSkinTypeObject: Hashable, Sendable {
    public let skinType: HKFitzpatrickSkinType
    public init(skinType: HKFitzpatrickSkinType) { self.skinType = skinType }
    public static func == (l: HKFitzpatrickSkinTypeObject, r: HKFitzpatrickSkinTypeObject) -> Bool { l.skinType == r.skinType }
    public func hash(into hasher: inout Hasher) { hasher.combine(skinType) }
}

/// Whether the person uses a wheelchair. `try store.wheelchairUse().wheelchairUse`
public final class HKWheelchairUseObject: Hashable, Sendable {
    public let wheelchairUse: HKWheelchairUse
    public init(wheelchairUse: HKWheelchairUse) { self.wheelchairUse = wheelchairUse }
    public static func == (l: HKWheelchairUseObject, r: HKWheelchairUseObject) -> Bool { l.wheelchairUse == r.wheelchairUse }
    public func hash(into hasher: inout Hasher) { hasher.combine(wheelchairUse) }
}

/// How the person's Move ring counts: active energy or move time. `try store.activityMoveMode().activityMoveMode`
public final class HKActivityMoveModeObject: Hashable, Sendable {
    public let activityMoveMode: HKActivityMoveMode
    public init(activityMoveMode: HKActivityMoveMode) { self.activityMoveMode = activityMoveMode }
    public static func == (l: HKActivityMoveModeObject, r: HKActivityMoveModeObject) -> Bool { l.activityMoveMode == r.activityMoveMode }
    public func hash(into hasher: inout Hasher) { hasher.combine(activityMoveMode) }
}
