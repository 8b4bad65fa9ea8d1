public import Foundation

// The objects HKHealthStore's characteristic readers return. HealthKit gives them no public
// initializer; OpenHealthKit adds one so a person's side (CLI, web app, scripted person) can build them.
// Each is `NSSecureCoding` (its value's raw value; an unknown one fails the decode) and `NSCopying` (the object
// itself), as HealthKit's.

/// The person's biological sex. `try store.biologicalSex().biologicalSex`
public final class HKBiologicalSexObject: NSObject, NSSecureCoding, NSCopying, Sendable {
    public let biologicalSex: HKBiologicalSex
    public init(biologicalSex: HKBiologicalSex) { self.biologicalSex = biologicalSex }
    public static var supportsSecureCoding: Bool { true }
    public func encode(with coder: NSCoder) { coder.encodeEnum(biologicalSex, forKey: "biologicalSex") }
    public required convenience init?(coder: NSCoder) {
        guard let value = coder.decodeValid("HKBiologicalSexObject", { try coder.decodeEnum(HKBiologicalSex.self, forKey: "biologicalSex") }) else { return nil }
        self.init(biologicalSex: value)
    }
    public func copy(with zone: NSZone? = nil) -> Any { self }
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
public final class HKBloodTypeObject: NSObject, NSSecureCoding, NSCopying, Sendable {
    public let bloodType: HKBloodType
    public init(bloodType: HKBloodType) { self.bloodType = bloodType }
    public static var supportsSecureCoding: Bool { true }
    public func encode(with coder: NSCoder) { coder.encodeEnum(bloodType, forKey: "bloodType") }
    public required convenience init?(coder: NSCoder) {
        guard let value = coder.decodeValid("HKBloodTypeObject", { try coder.decodeEnum(HKBloodType.self, forKey: "bloodType") }) else { return nil }
        self.init(bloodType: value)
    }
    public func copy(with zone: NSZone? = nil) -> Any { self }
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
public final class HKFitzpatrickSkinTypeObject: NSObject, NSSecureCoding, NSCopying, Sendable {
    public let skinType: HKFitzpatrickSkinType
    public init(skinType: HKFitzpatrickSkinType) { self.skinType = skinType }
    public static var supportsSecureCoding: Bool { true }
    public func encode(with coder: NSCoder) { coder.encodeEnum(skinType, forKey: "skinType") }
    public required convenience init?(coder: NSCoder) {
        guard let value = coder.decodeValid("HKFitzpatrickSkinTypeObject", { try coder.decodeEnum(HKFitzpatrickSkinType.self, forKey: "skinType") }) else { return nil }
        self.init(skinType: value)
    }
    public func copy(with zone: NSZone? = nil) -> Any { self }
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
public final class HKWheelchairUseObject: NSObject, NSSecureCoding, NSCopying, Sendable {
    public let wheelchairUse: HKWheelchairUse
    public init(wheelchairUse: HKWheelchairUse) { self.wheelchairUse = wheelchairUse }
    public static var supportsSecureCoding: Bool { true }
    public func encode(with coder: NSCoder) { coder.encodeEnum(wheelchairUse, forKey: "wheelchairUse") }
    public required convenience init?(coder: NSCoder) {
        guard let value = coder.decodeValid("HKWheelchairUseObject", { try coder.decodeEnum(HKWheelchairUse.self, forKey: "wheelchairUse") }) else { return nil }
        self.init(wheelchairUse: value)
    }
    public func copy(with zone: NSZone? = nil) -> Any { self }
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
public final class HKActivityMoveModeObject: NSObject, NSSecureCoding, NSCopying, Sendable {
    public let activityMoveMode: HKActivityMoveMode
    public init(activityMoveMode: HKActivityMoveMode) { self.activityMoveMode = activityMoveMode }
    public static var supportsSecureCoding: Bool { true }
    public func encode(with coder: NSCoder) { coder.encodeEnum(activityMoveMode, forKey: "activityMoveMode") }
    public required convenience init?(coder: NSCoder) {
        guard let value = coder.decodeValid("HKActivityMoveModeObject", { try coder.decodeEnum(HKActivityMoveMode.self, forKey: "activityMoveMode") }) else { return nil }
        self.init(activityMoveMode: value)
    }
    public func copy(with zone: NSZone? = nil) -> Any { self }
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
