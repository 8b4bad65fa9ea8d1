public import Foundation
import HealthStore

extension HKHealthStore {
    /// The person's biological sex; `.notSet` when not entered or when the app may not read it.
    public func biologicalSex() throws -> HKBiologicalSexObject {
        HKBiologicalSexObject(biologicalSex: try characteristic(.biologicalSex).flatMap(HKBiologicalSex.init) ?? .notSet)
    }

    /// The person's blood type; `.notSet` when not entered or when the app may not read it.
    public func bloodType() throws -> HKBloodTypeObject {
        HKBloodTypeObject(bloodType: try characteristic(.bloodType).flatMap(HKBloodType.init) ?? .notSet)
    }

    /// The person's Fitzpatrick skin type; `.notSet` when not entered or when the app may not read it.
    public func fitzpatrickSkinType() throws -> HKFitzpatrickSkinTypeObject {
        HKFitzpatrickSkinTypeObject(skinType: try characteristic(.fitzpatrickSkinType).flatMap(HKFitzpatrickSkinType.init) ?? .notSet)
    }

    /// Whether the person uses a wheelchair; `.notSet` when not entered or when the app may not read it.
    public func wheelchairUse() throws -> HKWheelchairUseObject {
        HKWheelchairUseObject(wheelchairUse: try characteristic(.wheelchairUse).flatMap(HKWheelchairUse.init) ?? .notSet)
    }

    /// The person's Move ring mode; `.activeEnergy` when not entered or when the app may not read it.
    public func activityMoveMode() throws -> HKActivityMoveModeObject {
        HKActivityMoveModeObject(activityMoveMode: try characteristic(.activityMoveMode).flatMap(HKActivityMoveMode.init) ?? .activeEnergy)
    }

    /// The person's date of birth as year, month and day (Gregorian). Empty components when not entered
    /// or when the app may not read it — the two look the same, as in HealthKit.
    public func dateOfBirthComponents() throws -> DateComponents {
        guard let text = try characteristicStore().value(.dateOfBirth, visibleTo: configuration.app.bundleIdentifier) else {
            return DateComponents()
        }
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return DateComponents() }
        return DateComponents(calendar: Calendar(identifier: .gregorian), year: parts[0], month: parts[1], day: parts[2])
    }

    private func characteristic(_ type: HKCharacteristicTypeIdentifier) throws -> Int? {
        try characteristicStore().value(type, visibleTo: configuration.app.bundleIdentifier).flatMap { Int($0) }
    }
}
