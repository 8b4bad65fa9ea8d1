// Porting corpus: an onboarding profile reader: whether the authorization sheet still needs showing
// (getRequestStatusForAuthorization), the characteristics the person entered in Health (date of birth as components,
// biological sex, blood type, wheelchair use, Move ring mode) read with the throwing accessors, and which types the
// app may write (authorizationStatus(for:); read permission stays private, as in HealthKit).
// Written for this suite; only the import is OpenHealthKit's.
#if canImport(HealthKit)
import HealthKit
#else
import OpenHealthKit
#endif

final class ProfileReader: Sendable {
    struct Profile: Equatable {
        var age: Int?
        var biologicalSex = "Not set"
        var bloodType = "Not set"
        var usesWheelchair: Bool?
        var movesByTime = false
    }

    let healthStore: HKHealthStore

    let characteristics: Set<HKObjectType> = [
        HKCharacteristicType(.dateOfBirth),
        HKCharacteristicType(.biologicalSex),
        HKCharacteristicType(.bloodType),
        HKCharacteristicType(.wheelchairUse),
        HKCharacteristicType(.activityMoveMode),
    ]
    let measurements: Set<HKSampleType> = [HKQuantityType(.bodyMass), HKQuantityType(.height)]

    init(healthStore: HKHealthStore) {
        self.healthStore = healthStore
    }

    /// Whether onboarding should show the authorization step.
    func needsAuthorizationStep(completion: @escaping @Sendable (Bool) -> Void) {
        healthStore.getRequestStatusForAuthorization(toShare: measurements, read: characteristics.union(measurements)) { status, error in
            switch status {
            case .shouldRequest: completion(true)
            case .unnecessary: completion(false)
            case .unknown: completion(error == nil)
            @unknown default: completion(true)
            }
        }
    }

    func requestAuthorization() async throws {
        try await healthStore.requestAuthorization(toShare: measurements, read: characteristics.union(measurements))
    }

    /// What the person entered; anything missing or not shared with the app is left out.
    func profile(on date: Date = Date()) -> Profile {
        var profile = Profile()
        if let components = try? healthStore.dateOfBirthComponents(), components.year != nil,
           let birthday = Calendar(identifier: .gregorian).date(from: components) {
            profile.age = Calendar(identifier: .gregorian).dateComponents([.year], from: birthday, to: date).year
        }
        if let sex = try? healthStore.biologicalSex().biologicalSex {
            switch sex {
            case .female: profile.biologicalSex = "Female"
            case .male: profile.biologicalSex = "Male"
            case .other: profile.biologicalSex = "Other"
            case .notSet: profile.biologicalSex = "Not set"
            @unknown default: profile.biologicalSex = "Not set"
            }
        }
        if let bloodType = try? healthStore.bloodType().bloodType {
            let names: [HKBloodType: String] = [.aPositive: "A+", .aNegative: "A−", .bPositive: "B+", .bNegative: "B−",
                                                .abPositive: "AB+", .abNegative: "AB−", .oPositive: "O+", .oNegative: "O−"]
            profile.bloodType = names[bloodType] ?? "Not set"
        }
        if let wheelchair = try? healthStore.wheelchairUse().wheelchairUse, wheelchair != .notSet {
            profile.usesWheelchair = wheelchair == .yes
        }
        if let mode = try? healthStore.activityMoveMode().activityMoveMode {
            profile.movesByTime = mode == .appleMoveTime
        }
        return profile
    }

    /// The measurements the app may save, by identifier.
    func writableMeasurements() -> [String] {
        measurements.filter { healthStore.authorizationStatus(for: $0) == .sharingAuthorized }.map(\.identifier).sorted()
    }

    /// The measurements the person said no to saving.
    func deniedMeasurements() -> [String] {
        measurements.filter { healthStore.authorizationStatus(for: $0) == .sharingDenied }.map(\.identifier).sorted()
    }
}
