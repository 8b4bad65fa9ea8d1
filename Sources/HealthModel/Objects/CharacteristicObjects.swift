public import Foundation

// The objects HKHealthStore's characteristic readers return. HealthKit gives them no public
// initializer; OpenHealthKit adds one so a person's side (CLI, web app, scripted person) can build them.

/// The person's biological sex. `try store.biologicalSex().biologicalSex`
public final class HKBiologicalSexObject: NSObject, Sendable {
    public let biologicalSex: HKBiologicalSex
    public init(biologicalSex: HKBiologicalSex) { self.biologicalSex = biologicalSex }
    public override func isEqual(_ object: Any?) -> Bool {
        guard let r = object as? HKBiologicalSexObject else { return false }
        let l = self
        return l.biologicalSex == r.biologicalSex
    }
    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(biologicalSex)
        return hasher.finalize()
    }
}

/// The person's blood type. `try store.bloodType().bloodType`
public final class HKBloodTypeObject: NSObject, Sendable {
    public let bloodType: HKBloodType
    public init(bloodType: HKBloodType) { self.bloodType = bloodType }
    public override func isEqual(_ object: Any?) -> Bool {
        guard let r = object as? HKBloodTypeObject else { return false }
        let l = self
        return l.bloodType == r.bloodType
    }
    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(bloodType)
        return hasher.finalize()
    }
}

/// The person's Fitzpatrick skin type. `try store.fitzpatrickSkinType().skinType`
public final class HKFitzpatrickSkinTypeObject: NSObject, Sendable {
    public let skinType: HKFitzpatrickSkinType
    public init(skinType: HKFitzpatrickSkinType) { self.skinType = skinType }
    public override func isEqual(_ object: Any?) -> Bool {
        guard let r = object as? HKFitzpatrickSkinTypeObject else { return false }
        let l = self
        return l.skinType == r.skinType
    }
    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(skinType)
        return hasher.finalize()
    }
}

/// Whether the person uses a wheelchair. `try store.wheelchairUse().wheelchairUse`
public final class HKWheelchairUseObject: NSObject, Sendable {
    public let wheelchairUse: HKWheelchairUse
    public init(wheelchairUse: HKWheelchairUse) { self.wheelchairUse = wheelchairUse }
    public override func isEqual(_ object: Any?) -> Bool {
        guard let r = object as? HKWheelchairUseObject else { return false }
        let l = self
        return l.wheelchairUse == r.wheelchairUse
    }
    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(wheelchairUse)
        return hasher.finalize()
    }
}

/// How the person's Move ring counts: active energy or move time. `try store.activityMoveMode().activityMoveMode`
public final class HKActivityMoveModeObject: NSObject, Sendable {
    public let activityMoveMode: HKActivityMoveMode
    public init(activityMoveMode: HKActivityMoveMode) { self.activityMoveMode = activityMoveMode }
    public override func isEqual(_ object: Any?) -> Bool {
        guard let r = object as? HKActivityMoveModeObject else { return false }
        let l = self
        return l.activityMoveMode == r.activityMoveMode
    }
    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(activityMoveMode)
        return hasher.finalize()
    }
}
