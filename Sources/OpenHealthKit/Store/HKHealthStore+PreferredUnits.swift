import HealthModel
import HealthStore

extension HKHealthStore {
    /// The units the person prefers for these types: their own choice (`HealthPerson.setPreferredUnit(_:for:)`,
    /// `health prefer`), else the units of their last imported Apple Health export, else the usual units where they
    /// live (`count/min` for heart rate, km or mi, kg or lb, °C or °F). As in HealthKit, the app must have asked for
    /// read or share access to every type first: otherwise `errorAuthorizationNotDetermined`.
    public func preferredUnits(for quantityTypes: Set<HKQuantityType>) async throws -> [HKQuantityType: HKUnit] {
        let service = try service()
        let app = configuration.app.bundleIdentifier
        for type in quantityTypes where app != AuthorizationService.personReader {
            let askedToShare = try service.requestStatus(app: app, share: [type.identifier], read: []) == .unnecessary
            let askedToRead = try service.requestStatus(app: app, share: [], read: [type.identifier]) == .unnecessary
            guard askedToShare || askedToRead else {
                throw HKError(.errorAuthorizationNotDetermined,
                              "\(app) must request read or share access to \(type.identifier) before asking for its preferred unit")
            }
        }
        let units = PreferredUnitStore(database: try sampleStore().database)
        return try Dictionary(uniqueKeysWithValues: quantityTypes.map { ($0, try units.unit(for: $0)) })
    }

    /// Completion-handler form of ``preferredUnits(for:)``; the handler runs off the caller's thread.
    public func preferredUnits(
        for quantityTypes: Set<HKQuantityType>, completion: @escaping @Sendable ([HKQuantityType: HKUnit], (any Error)?) -> Void
    ) {
        Task.detached {
            do { completion(try await self.preferredUnits(for: quantityTypes), nil) } catch { completion([:], error) }
        }
    }
}
